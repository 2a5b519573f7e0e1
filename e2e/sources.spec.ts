import fs from "node:fs";
import os from "node:os";
import path from "node:path";
// Relative imports: Playwright does not resolve the `@/` alias.
import { writeZoteroExport, ZOTERO_EXPORT } from "../lib/testing/zotero-export";
import { ARXIV_PAPER, ARXIV_SECOND } from "./arxiv-papers";
import { expect, OWNER_STATE, test } from "./fixtures";
import { LibraryPage } from "./pages/library";
import { OUTPUT_DIR } from "./run";

/**
 * Papers from outside: added by arXiv id and from an arXiv search (against the stand-in Playwright starts,
 * e2e/arxiv-standin-server.ts), and a Zotero export imported. The papers this file adds are deleted after its last
 * test, so the other files find the library as they left it.
 */

const SHOTS = path.join(OUTPUT_DIR, "sources");

function sourceItem(page: import("@playwright/test").Page, label: string) {
  return page.locator(`[data-testid="source-item"][data-item="${label}"]`).last();
}

test.describe
  .serial("add from arXiv and import a library", () => {
    test.afterAll(async ({ browser }) => {
      const context = await browser.newContext({ storageState: OWNER_STATE });
      const page = await context.newPage();
      const library = new LibraryPage(page);
      await library.goto();
      for (let n = await library.rows.count(); n > 0; n = await library.rows.count()) {
        const id = (await library.rows.first().getAttribute("data-paper-id")) ?? "";
        await library.deletePaper(id);
        await expect(library.row(id)).toHaveCount(0);
      }
      await context.close();
    });

    test("a paper added by arXiv id streams its progress and lands with arXiv's metadata", async ({ page }) => {
      const library = new LibraryPage(page);
      await library.goto();
      await expect(page.getByTestId("sources-panel")).toBeVisible();
      await library.openSources();
      // every status the paper's row shows, as it changes (the stream's stages, then its outcome)
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { __stages: string[] }).__stages = seen;
        new MutationObserver(() => {
          const status = document
            .querySelector('[data-testid="source-item"][data-item="2106.09685"]')
            ?.getAttribute("data-status");
          if (status && seen.at(-1) !== status) seen.push(status);
        }).observe(document.body, { subtree: true, childList: true, attributes: true });
      });
      await page.getByTestId("arxiv-ids").fill(`${ARXIV_PAPER.id}\n2401.99999 not-an-id`);
      await page.getByTestId("arxiv-ids").press("Control+Enter");

      const item = sourceItem(page, ARXIV_PAPER.id);
      await expect(item).toBeVisible();
      await expect(item).toHaveAttribute("data-status", "ingested", { timeout: 60_000 });
      await expect(item).toContainText(ARXIV_PAPER.title);
      await expect(sourceItem(page, "2401.99999")).toHaveAttribute("data-status", "error");
      await expect(sourceItem(page, "2401.99999").getByTestId("source-item-status")).toHaveText(
        "arXiv has no paper 2401.99999.",
      );
      await expect(sourceItem(page, "not-an-id").getByTestId("source-item-status")).toContainText(
        "is not an arXiv id or URL",
      );
      // the row went through the pipeline's stages before its outcome
      const seen = await page.evaluate(() => (window as unknown as { __stages: string[] }).__stages);
      expect(seen.at(-1)).toBe("ingested");
      expect(seen.filter((s) => s !== "ingested" && s !== "waiting").length).toBeGreaterThan(0);
      expect(
        seen.every((s) =>
          [
            "waiting",
            "looking_up",
            "downloading",
            "validating",
            "extracting",
            "chunking",
            "summarizing",
            "embedding",
            "saving",
            "ingested",
          ].includes(s),
        ),
      ).toBe(true);

      const row = library.rowWithTitle(ARXIV_PAPER.title);
      await expect(row).toBeVisible();
      await expect(row.getByTestId("paper-arxiv-id")).toHaveText(`${ARXIV_PAPER.id}v${ARXIV_PAPER.version}`);
      await page.screenshot({ path: path.join(SHOTS, "arxiv-added.png"), fullPage: true });

      // the paper's page shows arXiv's journal reference as its venue
      await row.getByTestId("paper-title-link").click();
      await expect(page.getByTestId("meta-venue")).toHaveText("ICLR 2022");
      await expect(page.getByTestId("meta-doi")).toContainText("10.48550/arXiv.2106.09685");
      await library.goto();
      await library.openSources();

      // asked again: already there, nothing downloaded
      await page.getByTestId("arxiv-ids").fill(`https://arxiv.org/abs/${ARXIV_PAPER.id}`);
      await page.getByTestId("arxiv-add").click();
      await expect(sourceItem(page, `https://arxiv.org/abs/${ARXIV_PAPER.id}`)).toHaveAttribute(
        "data-status",
        "already_in_library",
      );
    });

    test("an arXiv search lists papers with Add buttons, and marks what the library has", async ({ page }) => {
      const library = new LibraryPage(page);
      await library.goto();
      await library.openSources();
      await page.getByTestId("arxiv-search-query").fill("retrieval generation");
      await page.getByTestId("arxiv-search-query").press("Enter");
      const result = page.getByTestId("arxiv-result").filter({ hasText: ARXIV_SECOND.title });
      await expect(result).toBeVisible();
      await result.getByTestId("arxiv-result-add").click();
      await expect(sourceItem(page, "2005.11401v4")).toHaveAttribute("data-status", "ingested", { timeout: 60_000 });
      await expect(library.rowWithTitle(ARXIV_SECOND.title)).toBeVisible();

      await page.getByTestId("arxiv-search-query").fill("low-rank adaptation");
      await page.getByTestId("arxiv-search").click();
      const lora = page.getByTestId("arxiv-result").filter({ hasText: ARXIV_PAPER.title });
      await expect(lora).toContainText("In library");
      await expect(lora.getByTestId("arxiv-result-add")).toHaveCount(0);
      await page.getByTestId("arxiv-results").screenshot({ path: path.join(SHOTS, "arxiv-search.png") });
    });

    test("a Zotero export with two PDFs and an entry without one is imported with a report", async ({ page }) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-e2e-zotero-"));
      try {
        const { bib, pdfs } = await writeZoteroExport(dir);
        const library = new LibraryPage(page);
        await library.goto();
        await library.openSources("import");
        await page.getByTestId("import-files").setInputFiles([bib, ...pdfs]);
        await expect(page.getByTestId("import-selection")).toHaveText("library.bib + 2 PDFs");
        await page.getByTestId("import-start").click();

        const [tides, soil] = ZOTERO_EXPORT.withPdf;
        await expect(sourceItem(page, tides.key)).toHaveAttribute("data-status", "ingested", { timeout: 60_000 });
        await expect(sourceItem(page, soil.key)).toHaveAttribute("data-status", "ingested", { timeout: 60_000 });
        const bookItem = sourceItem(page, ZOTERO_EXPORT.metadataOnly.key);
        await expect(bookItem).toHaveAttribute("data-status", "no_pdf");
        await expect(bookItem.getByTestId("source-item-status")).toHaveText("Metadata only, no PDF");
        const arxivItem = sourceItem(page, ZOTERO_EXPORT.arxivOnly.key);
        await expect(arxivItem).toHaveAttribute("data-status", "arxiv_available");
        await expect(page.getByTestId("import-summary")).toHaveText(
          "2 ingested, 0 already present, 1 no PDF, 1 on arXiv, 0 failed.",
        );
        // the export's metadata, not the PDF's first line ("Manuscript draft")
        const row = library.rowWithTitle(tides.title);
        await expect(row).toBeVisible();
        await expect(row).toContainText(tides.authors[0]);
        await page.screenshot({ path: path.join(SHOTS, "import.png"), fullPage: true });

        // the entry without a PDF, fetched from arXiv with one click
        await arxivItem.getByRole("button", { name: "Add from arXiv" }).click();
        await expect(sourceItem(page, ZOTERO_EXPORT.arxivOnly.arxivId)).toHaveAttribute("data-status", "ingested", {
          timeout: 60_000,
        });
        await expect(library.rowWithTitle(ZOTERO_EXPORT.arxivOnly.title)).toBeVisible();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
