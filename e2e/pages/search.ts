import { expect, type Locator, type Page } from "@playwright/test";

/** The search page (`/search`): the query box, the index toggle, the filters and the results grouped by paper. */
export class SearchPage {
  constructor(readonly page: Page) {}

  /** Opens the page, with a search in the URL if given (`{ q, index, papers, years, category, refs }`). */
  async goto(params: Record<string, string> = {}): Promise<void> {
    const qs = new URLSearchParams(params).toString();
    await this.page.goto(`/search${qs ? `?${qs}` : ""}`);
  }

  /** Once the search box is React's: typing, Enter and "/" before then would be lost. */
  async ready(): Promise<void> {
    await expect(this.input).toHaveAttribute("data-hydrated");
  }

  get input(): Locator {
    return this.page.getByTestId("search-input");
  }

  get submitButton(): Locator {
    return this.page.getByTestId("search-submit");
  }

  /** What the form says about a query it will not run (client checks and the server's). */
  get message(): Locator {
    return this.page.getByTestId("search-message");
  }

  get resultCount(): Locator {
    return this.page.getByTestId("result-count");
  }

  get groups(): Locator {
    return this.page.getByTestId("result-group");
  }

  get idleState(): Locator {
    return this.page.getByTestId("search-idle");
  }

  get noResults(): Locator {
    return this.page.getByTestId("search-no-results");
  }

  get error(): Locator {
    return this.page.getByTestId("search-error");
  }

  /** Types the query into the box and presses Enter. */
  async search(query: string): Promise<void> {
    await this.ready();
    await this.input.fill(query);
    await this.input.press("Enter");
  }

  /** The index toggle's option ("content" or "summaries"). */
  index(name: "content" | "summaries"): Locator {
    return this.page.getByTestId(`index-${name}`);
  }

  /** The filter that adds the papers' reference lists to the content search (`refs=1`). */
  get includeRefs(): Locator {
    return this.page.getByRole("checkbox", { name: "Include reference lists" });
  }

  /** A paper's group of results. */
  group(paperId: string): Locator {
    return this.page.locator(`[data-testid="result-group"][data-paper-id="${paperId}"]`);
  }

  /** The page chip of a paper's group. */
  pageChip(paperId: string, pageNumber: number): Locator {
    return this.group(paperId).locator(`[data-testid="page-chip"][data-page="${pageNumber}"]`);
  }

  /** A paper's passages on a page. */
  passages(paperId: string, pageNumber: number): Locator {
    return this.group(paperId).locator(`[data-testid="passage"][data-page="${pageNumber}"]`);
  }
}
