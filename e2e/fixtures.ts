import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, test as base, expect, type Page } from "@playwright/test";
// Relative import: Playwright does not resolve the `@/` alias.
import { makeTestPdf } from "../lib/testing/pdf";
import { LibraryPage } from "./pages/library";
import { OWNER_STATE } from "./run";

/**
 * Shared e2e fixtures:
 *
 * - `pdfFiles`: generated PDFs written to a fresh temp directory per test (deleted afterwards), for tests of the upload
 *   itself.
 *
 *     test("upload", async ({ page, pdfFiles }) => {
 *       await page.getByLabel("Upload").setInputFiles(pdfFiles.paper);
 *     });
 *
 * - `library`: the papers a spec file's tests search and cite, uploaded through the library page before the file's
 *   first test and deleted after its last (by `libraryPapers`), so a file neither needs nor disturbs the papers of
 *   other files.
 *
 *     test.use({ library: { papers: [{ id: "2402.04321v1", fileName: "x.pdf", title, author, pages }] } });
 */

// ---- The owner account (made through the UI by e2e/auth.setup.ts; every spec runs signed in as it) -------------

export const OWNER = { name: "Ada Owner", email: "owner@e2e.example", password: "e2e owner password 1" } as const;
export { OWNER_STATE };

// ---- The main test paper (3 pages, arXiv-like) --------------------------------------------------------------------

export const PAPER_ARXIV_ID = "2401.01234v2";
export const PAPER_ARXIV_STAMP = `arXiv:${PAPER_ARXIV_ID} [cs.CL] 5 Jan 2024`;
export const PAPER_TITLE = "Sparse Retrieval for Long Scientific Documents";
export const PAPER_AUTHORS = ["Ada Lovelace", "Alan Turing"] as const;
export const PAPER_ABSTRACT =
  "We study retrieval over long scientific documents and show that page-level chunking improves recall of cited evidence by a wide margin. Our hybrid retriever combines lexical and dense rankings and cites every claim with the page it came from.";
export const PAPER_FILE_NAME = "sparse-retrieval.pdf";
export const PAPER_PAGE_COUNT = 3;
/**
 * A distinctive sentence on page 2, on a line of its own (short enough not to wrap), for citation/highlight tests.
 * Its words ("reciprocal rank fusion", "lexicographic") appear nowhere else in the paper.
 */
export const HIGHLIGHT_SENTENCE =
  "Reciprocal rank fusion of the lexicographic and dense lists lifts recall at five to 0.81.";
export const HIGHLIGHT_PAGE = 2;

export const PAPER_PAGES: readonly string[] = [
  [
    PAPER_ARXIV_STAMP,
    PAPER_TITLE,
    PAPER_AUTHORS.join(", "),
    "Abstract",
    PAPER_ABSTRACT,
    "1 Introduction",
    "Researchers ask questions whose answers hide in a single page of a long paper. Finding that page quickly, and showing it, is the task we study here.",
  ].join("\n"),
  [
    "2 Method",
    "The retriever splits every page into overlapping passages of about two hundred words and keeps exact character offsets for each passage.",
    HIGHLIGHT_SENTENCE,
    "Diversification with maximal marginal relevance then removes near-duplicate passages from the top results.",
  ].join("\n"),
  [
    "3 Conclusion",
    "Page-aware chunking with exact character offsets lets every citation open the PDF at the right page with the passage highlighted.",
    "References",
    "[1] G. Salton and M. McGill. Introduction to Modern Information Retrieval. 1983.",
  ].join("\n"),
];

// ---- A second, different paper (no arXiv stamp) -------------------------------------------------------------------

export const SECOND_TITLE = "Gradient Checkpointing for Small Accelerators";
export const SECOND_FILE_NAME = "gradient-checkpointing.pdf";
export const SECOND_PAGES: readonly string[] = [
  [
    SECOND_TITLE,
    "Grace Hopper",
    "Abstract",
    "Recomputing activations during the backward pass trades compute for memory and lets large models train on small accelerators.",
  ].join("\n"),
  "2 Results\nCheckpointing every fourth layer cut peak memory by sixty percent at a cost of a quarter more training time.",
];

// ---- A file named .pdf that is not a PDF --------------------------------------------------------------------------

export const NOT_PDF_FILE_NAME = "notes.pdf";
export const NOT_PDF_TEXT = "These are plain-text meeting notes, not a PDF.\nTODO: read the retrieval papers.\n";

export function makePaperPdf(): Promise<Uint8Array> {
  return makeTestPdf({ pages: [...PAPER_PAGES], title: PAPER_TITLE, author: PAPER_AUTHORS.join(", ") });
}

export function makeSecondPdf(): Promise<Uint8Array> {
  return makeTestPdf({ pages: [...SECOND_PAGES], title: SECOND_TITLE, author: "Grace Hopper" });
}

export interface PdfFiles {
  /** The temp directory holding the files. */
  dir: string;
  /** 3-page arXiv-like paper (see PAPER_* and HIGHLIGHT_SENTENCE). */
  paper: string;
  /** A different 2-page paper without an arXiv stamp. */
  second: string;
  /** `notes.pdf`: plain text, not a PDF — the upload must be rejected with a clear error. */
  notPdf: string;
}

/** Writes the test files into `dir` (created if needed) and returns their paths. */
export async function writePdfFiles(dir: string): Promise<PdfFiles> {
  fs.mkdirSync(dir, { recursive: true });
  const files: PdfFiles = {
    dir,
    paper: path.join(dir, PAPER_FILE_NAME),
    second: path.join(dir, SECOND_FILE_NAME),
    notPdf: path.join(dir, NOT_PDF_FILE_NAME),
  };
  const [paper, second] = await Promise.all([makePaperPdf(), makeSecondPdf()]);
  fs.writeFileSync(files.paper, paper);
  fs.writeFileSync(files.second, second);
  fs.writeFileSync(files.notPdf, NOT_PDF_TEXT);
  return files;
}

// ---- Papers a spec file uploads for its tests -----------------------------------------------------------------------

/** A generated paper for the `library` option. */
export interface LibraryPaper {
  /** The arXiv id stamped on its first page: the paper's id in the library. */
  id: string;
  /** The upload's file name (unique to the spec, so its upload row is its own). */
  fileName: string;
  title: string;
  author: string;
  /** Text of each page (see makeTestPdf). */
  pages: readonly string[];
}

/** Uploads the papers through the library page, one after the other, and waits until each is listed. */
async function uploadPapers(page: Page, papers: readonly LibraryPaper[]): Promise<void> {
  const library = new LibraryPage(page);
  await library.goto();
  for (const paper of papers) {
    const bytes = await makeTestPdf({ pages: [...paper.pages], title: paper.title, author: paper.author });
    await page
      .getByTestId("upload-input")
      .setInputFiles({ name: paper.fileName, mimeType: "application/pdf", buffer: Buffer.from(bytes) });
    // another run may have left the paper in (a stopped test run, a reused server): then it is replaced or unchanged
    await expect(library.uploadItem(paper.fileName)).toHaveAttribute("data-status", /^(ingested|replaced|unchanged)$/, {
      timeout: 60_000,
    });
    await expect(library.row(paper.id)).toBeVisible();
  }
}

/** Deletes the papers that are still in the library (a test may have deleted one itself). */
async function removePapers(page: Page, papers: readonly LibraryPaper[]): Promise<void> {
  const library = new LibraryPage(page);
  await library.goto();
  for (const paper of papers) {
    if (await library.row(paper.id).isVisible()) {
      await library.deletePaper(paper.id);
      await expect(library.row(paper.id)).toHaveCount(0);
    }
  }
}

/** A page of its own (signed in as the owner), outside any test's context, closed afterwards. */
async function withPage(browser: Browser, baseURL: string | undefined, fn: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ baseURL, storageState: OWNER_STATE });
  try {
    await fn(await context.newPage());
  } finally {
    await context.close();
  }
}

export const test = base.extend<
  { pdfFiles: PdfFiles },
  {
    /**
     * What this spec file's tests need in the library, set with a top-level `test.use({ library: { papers } })`. (An
     * object, not the array itself: Playwright reads an array given to `test.use` as a [value, options] pair.)
     */
    library: { papers: readonly LibraryPaper[] };
    /** Uploads `library.papers` before the file's first test and deletes them after its last (automatic). */
    libraryPapers: readonly LibraryPaper[];
  }
>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructured first argument
  pdfFiles: async ({}, use) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-e2e-"));
    try {
      await use(await writePdfFiles(dir));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },

  library: [{ papers: [] }, { scope: "worker", option: true }],

  // A worker fixture, so the papers are uploaded once for the file rather than for every test. A file's own
  // `test.use({ library })` gives it a worker of its own (Playwright starts a new worker for each set of worker
  // options), and Playwright stops the previous worker — running this teardown — before that one starts: the next
  // file finds the library without these papers (library.spec.ts starts from an empty library).
  libraryPapers: [
    async ({ library: { papers }, browser }, use, workerInfo) => {
      const { baseURL } = workerInfo.project.use;
      if (papers.length === 0) return use(papers);
      try {
        await withPage(browser, baseURL, (page) => uploadPapers(page, papers));
        await use(papers);
      } finally {
        // also after a failed upload: the papers that did go in come out again
        await withPage(browser, baseURL, (page) => removePapers(page, papers));
      }
    },
    // uploads take a few seconds each on 2 cores, up to a minute each when the server is cold
    { scope: "worker", auto: true, timeout: 180_000 },
  ],
});

export { expect };
