import {
  expect,
  HIGHLIGHT_PAGE,
  HIGHLIGHT_SENTENCE,
  NOT_PDF_FILE_NAME,
  PAPER_ARXIV_ID,
  PAPER_FILE_NAME,
  PAPER_PAGE_COUNT,
  PAPER_TITLE,
  test,
} from "./fixtures";
import { LibraryPage } from "./pages/library";
import { PaperPage } from "./pages/paper";

/** Letters and digits of a text, lower-cased: what the viewer's matcher compares. */
function fold(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

// One library shared by the steps, in order: upload → view → reject → duplicate → delete.
test.describe
  .serial("library", () => {
    let paperId = "";

    test("an uploaded PDF is ingested and listed with its arXiv id", async ({ page, pdfFiles }) => {
      const library = new LibraryPage(page);
      await library.goto();
      await expect(library.emptyState).toBeVisible();
      await expect(page.getByText("Drop PDFs here to start your library")).toBeVisible();

      await library.upload(pdfFiles.paper);
      const item = library.uploadItem(PAPER_FILE_NAME);
      await expect(item).toBeVisible();
      await expect(item).toHaveAttribute("data-status", "ingested", { timeout: 60_000 });
      await expect(item.getByTestId("upload-item-status")).toContainText("Ingested");

      const row = library.rowWithTitle(PAPER_TITLE);
      await expect(row).toBeVisible();
      await expect(row.getByTestId("paper-arxiv-id")).toHaveText(PAPER_ARXIV_ID);
      await expect(row).toContainText(`${PAPER_PAGE_COUNT} pages`);
      paperId = (await row.getAttribute("data-paper-id")) ?? "";
      expect(paperId).not.toBe("");
    });

    test("the paper opens with its metadata, and the viewer highlights a passage on page 2", async ({ page }) => {
      const library = new LibraryPage(page);
      await library.goto();
      await library.row(paperId).getByTestId("paper-title-link").click();

      const paper = new PaperPage(page);
      await expect(page).toHaveURL(new RegExp(`/papers/${encodeURIComponent(paperId)}`));
      await expect(paper.title).toHaveText(PAPER_TITLE);
      await expect(page.getByTestId("meta-arxiv")).toContainText(PAPER_ARXIV_ID);
      await expect(page.getByTestId("meta-arxiv").getByRole("link")).toHaveAttribute(
        "href",
        `https://arxiv.org/abs/${PAPER_ARXIV_ID}`,
      );
      await expect(page.getByTestId("meta-pages")).toHaveText(String(PAPER_PAGE_COUNT));
      await expect(page.getByTestId("summary-method")).toHaveText("Extractive summary (offline)");
      await expect(paper.pdfPage(1)).toBeVisible();

      await paper.goto(paperId, { page: HIGHLIGHT_PAGE, hl: HIGHLIGHT_SENTENCE });
      await expect(paper.viewer).toHaveAttribute("data-page", String(HIGHLIGHT_PAGE));
      const marks = paper.highlights(HIGHLIGHT_PAGE);
      await expect(marks.first()).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId("highlight-status")).toHaveAttribute("data-state", "found");
      // the marks, read in order, hold the sentence's words and nothing else
      expect(fold((await marks.allTextContents()).join(""))).toBe(fold(HIGHLIGHT_SENTENCE));

      // turning the page drops the highlight and records the page in the URL
      await page.getByTestId("pdf-scroller").focus();
      await page.keyboard.press("ArrowRight");
      await expect(paper.viewer).toHaveAttribute("data-page", String(HIGHLIGHT_PAGE + 1));
      await expect(page).toHaveURL(new RegExp(`[?&]page=${HIGHLIGHT_PAGE + 1}(&|$)`));
      await expect(page).not.toHaveURL(/[?&]hl=/);

      // the contents, from the paper's headings: the page's sections marked, an entry turns to its page
      const contents = paper.outlineEntries;
      await expect(contents).toHaveText([
        /^Abstract, page p\. 1$/,
        /^1 Introduction, page p\. 1$/,
        /^2 Method, page p\. 2$/,
        /^3 Conclusion, page p\. 3$/,
        /^References, page p\. 3$/,
      ]);
      await expect(contents.filter({ hasText: "3 Conclusion" })).toHaveAttribute("aria-current", "location");
      await contents.filter({ hasText: "1 Introduction" }).click();
      await expect(paper.viewer).toHaveAttribute("data-page", "1");
      await expect(page).toHaveURL(/[?&]page=1(&|$)/);
      await expect(contents.filter({ hasText: "Abstract" })).toHaveAttribute("aria-current", "location");
    });

    test("on a phone the PDF fills the screen's width, the passage still highlighted, its controls finger-sized", async ({
      page,
    }) => {
      const width = 390;
      await page.setViewportSize({ width, height: 844 });
      const paper = new PaperPage(page);
      await paper.goto(paperId, { page: HIGHLIGHT_PAGE, hl: HIGHLIGHT_SENTENCE });
      const canvas = paper.pdfPage(HIGHLIGHT_PAGE).locator("canvas").first();
      await expect(canvas).toBeVisible();
      // (it was 292 pixels wide here: the text too small to read)
      await expect.poll(async () => (await canvas.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(0.9 * width);
      const marks = paper.highlights(HIGHLIGHT_PAGE);
      await expect(marks.first()).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId("highlight-status")).toHaveAttribute("data-state", "found");
      expect(fold((await marks.allTextContents()).join(""))).toBe(fold(HIGHLIGHT_SENTENCE));
      // the marks lie on the page as drawn at that width (the text layer was laid out for it, not for a narrower page)
      const drawn = await canvas.boundingBox();
      for (const box of await marks.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()))) {
        expect(box.left).toBeGreaterThanOrEqual((drawn?.x ?? 0) - 1);
        expect(box.right).toBeLessThanOrEqual((drawn?.x ?? 0) + (drawn?.width ?? 0) + 1);
      }
      const controls = page.getByRole("toolbar", { name: "PDF navigation and zoom" }).locator("button, input");
      expect(await controls.count()).toBeGreaterThanOrEqual(6);
      for (const control of await controls.all()) {
        const box = await control.boundingBox();
        const name = (await control.getAttribute("aria-label")) ?? "the page number";
        expect(box?.height ?? 0, name).toBeGreaterThanOrEqual(40);
        expect(box?.width ?? 0, name).toBeGreaterThanOrEqual(40);
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
      }
      expect(await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0)).toBeLessThanOrEqual(width);

      // zoomed in, the page is wider than the screen and scrolls within the viewer, all of it (its left edge too)
      await page.getByRole("button", { name: "Zoom in" }).click();
      await expect.poll(async () => (await canvas.boundingBox())?.width ?? 0).toBeGreaterThan(width);
      const scroller = page.getByTestId("pdf-scroller");
      const reach = await scroller.evaluate((s) => ({ scroll: s.scrollWidth, client: s.clientWidth }));
      expect(reach.scroll).toBeGreaterThanOrEqual(Math.floor((await canvas.boundingBox())?.width ?? 0));
      expect(reach.client).toBeLessThanOrEqual(width);
      expect(await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0)).toBeLessThanOrEqual(width);
    });

    test("a file that is not a PDF is rejected with a clear message", async ({ page, pdfFiles }) => {
      const library = new LibraryPage(page);
      await library.goto();
      await library.upload(pdfFiles.notPdf);
      const item = library.uploadItem(NOT_PDF_FILE_NAME);
      await expect(item).toHaveAttribute("data-status", "error", { timeout: 30_000 });
      await expect(item.getByTestId("upload-item-status")).toContainText("not a PDF");
      await expect(library.rows).toHaveCount(1);
    });

    test("uploading the same PDF again reports it is already in the library", async ({ page, pdfFiles }) => {
      const library = new LibraryPage(page);
      await library.goto();
      // The fixture makes the PDF anew for every test, with a fresh creation date: these bytes may differ from the
      // first test's, in which case they replace that version (same arXiv id). Either way, once is enough.
      await library.upload(pdfFiles.paper);
      await expect(library.uploadItem(PAPER_FILE_NAME)).toHaveAttribute("data-status", /^(replaced|unchanged)$/, {
        timeout: 60_000,
      });

      // The very same bytes again: nothing to do.
      await library.upload(pdfFiles.paper);
      const again = library.uploadItem(PAPER_FILE_NAME);
      await expect(page.getByTestId("upload-item")).toHaveCount(2);
      await expect(again).toHaveAttribute("data-status", "unchanged", { timeout: 60_000 });
      await expect(again.getByTestId("upload-item-status")).toContainText("Already in library");
      await expect(library.rows).toHaveCount(1);
      await expect(library.row(paperId)).toBeVisible();
    });

    test("the paper's details can be corrected: a clear error first, then the new title is shown and searchable", async ({
      page,
    }) => {
      const paper = new PaperPage(page);
      await paper.goto(paperId);
      await page.getByTestId("metadata-edit").click();
      const editor = page.getByTestId("metadata-editor");
      const title = editor.getByLabel("Title");
      await expect(title).toBeFocused();
      await expect(title).toHaveValue(PAPER_TITLE);

      // Esc leaves the details as they were
      await title.fill("Discarded Title");
      await page.keyboard.press("Escape");
      await expect(editor).toBeHidden();
      await expect(paper.title).toHaveText(PAPER_TITLE);
      await expect(page.getByTestId("metadata-edit")).toBeFocused();

      await page.getByTestId("metadata-edit").click();
      await title.fill("Quokka Metadata Corrections");
      await editor.getByLabel("Year").fill("1200");
      await editor.getByLabel("Authors").fill("Ada Lovelace\nCharles Babbage");
      await page.keyboard.press("Control+Enter");
      await expect(page.getByTestId("metadata-error")).toContainText("The year must be 1600 or later.");
      // the field at fault is marked and focused, its description the error
      await expect(editor.getByLabel("Year")).toBeFocused();
      await expect(editor.getByLabel("Year")).toHaveAttribute("aria-invalid", "true");
      await expect(editor.getByLabel("Year")).toHaveAccessibleDescription("The year must be 1600 or later.");
      await expect(title).not.toHaveAttribute("aria-invalid", "true");
      await expect(paper.title).toHaveText(PAPER_TITLE);
      // what was typed is still there to fix
      await expect(title).toHaveValue("Quokka Metadata Corrections");

      await editor.getByLabel("Year").fill("2021");
      await editor.getByLabel("Published").fill("");
      await page.keyboard.press("Control+Enter");
      await expect(editor).toBeHidden();
      await expect(page.getByTestId("metadata-status")).toContainText(
        "Saved: title, authors, year and publication date.",
      );
      await expect(paper.title).toHaveText("Quokka Metadata Corrections");
      await expect(page.getByTestId("meta-authors")).toHaveText("Ada Lovelace, Charles Babbage");
      await expect(page.getByTestId("meta-published")).toHaveText("2021");
      await expect(page.getByTestId("meta-edited")).toContainText("title, authors, year and publication date");

      // the library lists it by its new title, and full text finds it by words only the new title has
      const library = new LibraryPage(page);
      await library.goto();
      await expect(library.rowWithTitle("Quokka Metadata Corrections")).toBeVisible();
      await page.goto(`/search?q=${encodeURIComponent("quokka corrections")}`);
      await expect(page.locator(`[data-testid="result-group"][data-paper-id="${paperId}"]`)).toBeVisible();
    });

    test("deleting the paper empties the library", async ({ page }) => {
      const library = new LibraryPage(page);
      await library.goto();
      await library.deletePaper(paperId);
      await expect(library.rows).toHaveCount(0);
      await expect(library.emptyState).toBeVisible();
      await expect(page.getByText("Drop PDFs here to start your library")).toBeVisible();

      // its page and its PDF are gone too
      const response = await page.request.get(`/api/papers/${encodeURIComponent(paperId)}/pdf`);
      expect(response.status()).toBe(404);
    });
  });
