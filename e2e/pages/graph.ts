import type { Locator, Page } from "@playwright/test";

/** The knowledge graph pages: /graph (search, drawing, edges, evidence) and /graph/review. */
export class GraphPage {
  constructor(readonly page: Page) {}

  async goto(entity?: string): Promise<void> {
    await this.page.goto(entity === undefined ? "/graph" : `/graph?q=${encodeURIComponent(entity)}`);
  }

  get input(): Locator {
    return this.page.getByTestId("graph-search-input");
  }

  get entityName(): Locator {
    return this.page.getByTestId("graph-entity-name");
  }

  get canvas(): Locator {
    return this.page.getByTestId("graph-canvas");
  }

  get notFound(): Locator {
    return this.page.getByTestId("graph-not-found");
  }

  /** The edge list's entries (buttons). */
  get edges(): Locator {
    return this.page.getByTestId("edge-item");
  }

  edge(text: string): Locator {
    return this.edges.filter({ hasText: text });
  }

  get evidence(): Locator {
    return this.page.getByTestId("edge-evidence");
  }

  relationFilter(relation: string): Locator {
    return this.page.getByTestId(`filter-relation-${relation}`);
  }

  get shownCount(): Locator {
    return this.page.getByTestId("graph-shown-count");
  }

  // ---- /graph/review

  async gotoReview(): Promise<void> {
    await this.page.goto("/graph/review");
  }

  reviewEdge(text: string): Locator {
    return this.page.getByTestId("review-edge").filter({ hasText: text });
  }
}
