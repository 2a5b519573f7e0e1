import { expect, type Locator, type Page } from "@playwright/test";

/** The library page (`/`): upload, the upload queue, the paper list. */
export class LibraryPage {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/");
  }

  /**
   * Opens "Add from elsewhere" on a tab (folded when the library has papers): the tab is clicked until the panel says
   * it is open (a click before React owns the page does nothing).
   */
  async openSources(tab: "arxiv" | "import" = "arxiv"): Promise<void> {
    const panel = this.page.getByTestId("sources-panel");
    await expect(async () => {
      await this.page.getByTestId(`sources-tab-${tab}`).click();
      await expect(panel).toHaveAttribute("data-open", "true", { timeout: 2_000 });
    }).toPass();
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

  /**
   * Deletes through the row's confirm dialog. A click that lands before the page has hydrated opens nothing (the button
   * is the server's markup until then), so the trigger is clicked again until the dialog is open.
   */
  async deletePaper(paperId: string): Promise<void> {
    const dialog = this.page.getByTestId("delete-paper-dialog");
    await expect(async () => {
      if (!(await dialog.isVisible()))
        await this.row(paperId).getByTestId("delete-paper-button").click({ timeout: 5_000 });
      await expect(dialog).toBeVisible({ timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
    await this.page.getByTestId("confirm-delete").click();
  }
}
