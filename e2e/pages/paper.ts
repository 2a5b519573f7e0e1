import type { Locator, Page } from "@playwright/test";

/** The paper page (`/papers/<id>`): metadata, summary and the PDF viewer. */
export class PaperPage {
  constructor(readonly page: Page) {}

  async goto(paperId: string, params: Record<string, string | number> = {}): Promise<void> {
    const search = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    const qs = search.toString();
    await this.page.goto(`/papers/${encodeURIComponent(paperId)}${qs ? `?${qs}` : ""}`);
  }

  get title(): Locator {
    return this.page.getByTestId("paper-title");
  }

  get viewer(): Locator {
    return this.page.getByTestId("pdf-viewer");
  }

  /** The rendered PDF page with this number. */
  pdfPage(pageNumber: number): Locator {
    return this.page.locator(`[data-testid="pdf-page"][data-page-number="${pageNumber}"]`);
  }

  /** The entries of the paper's contents (its section headings), in order. */
  get outlineEntries(): Locator {
    return this.page.getByTestId("outline-entry");
  }

  /** Highlight marks in the text layer of a rendered page. */
  highlights(pageNumber: number): Locator {
    return this.pdfPage(pageNumber).locator(".textLayer mark");
  }
}
