import type { Locator, Page } from "@playwright/test";

/** The library page (`/`): upload, the upload queue, the paper list. */
export class LibraryPage {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/");
  }

  get emptyState(): Locator {
    return this.page.getByTestId("empty-library");
  }

  get rows(): Locator {
    return this.page.getByTestId("paper-row");
  }

  row(paperId: string): Locator {
    return this.page.locator(`[data-testid="paper-row"][data-paper-id="${paperId}"]`);
  }

  rowWithTitle(title: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId("paper-title-link").filter({ hasText: title }) });
  }

  /** Chooses files through the file picker. */
  async upload(...paths: string[]): Promise<void> {
    await this.page.getByTestId("upload-input").setInputFiles(paths);
  }

  /** The most recent upload row for a file name. */
  uploadItem(fileName: string): Locator {
    return this.page.locator(`[data-testid="upload-item"][data-file="${fileName}"]`).last();
  }

  async clearFinishedUploads(): Promise<void> {
    await this.page.getByTestId("upload-clear-finished").click();
  }

  async deletePaper(paperId: string): Promise<void> {
    await this.row(paperId).getByTestId("delete-paper-button").click();
    await this.page.getByTestId("confirm-delete").click();
  }
}
