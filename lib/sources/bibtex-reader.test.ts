import { describe, expect, it } from "vitest";
import { LecternError } from "@/lib/errors";
import { zoteroBibtex } from "@/lib/testing/zotero-export";
import { MAX_BIBLIOGRAPHY_ENTRIES, parseBibliography } from "./bibliography";
import { splitBibtex } from "./bibtex-read.mjs";
import { bibtexReaderScript, readBibtexInThread } from "./bibtex-reader";

/** One entry whose title is `kb` KB of math and macros: the parser takes ≈45 ms per KB of it. */
function slowEntry(kb: number, key = "slow"): string {
  const unit = String.raw`$x^{2}$ \emph{a} `;
  return `@article{${key}, title = {${unit.repeat(Math.ceil((kb * 1024) / unit.length))}}}\n`;
}

describe("splitBibtex", () => {
  it("leaves a file whose entries are within the limit as it is, and counts its entries", () => {
    const text =
      "% exported\n@string{jcr = {J. Coastal Res.}}\n@article{a, title={A}, note={mail a@b.org}}\n  @book(b,\ntitle={B})\n";
    expect(splitBibtex(text, 1000)).toEqual({ text, oversized: [], entryCount: 2 });
  });

  it("takes out an entry over the limit, names it, and keeps the entries around it", () => {
    const big = `@article{big, title={${"x".repeat(500)}}}\n`;
    const split = splitBibtex(`@article{a, title={A}}\n${big}@article{c, title={C}}\n`, 200);
    expect(split.oversized).toEqual([{ key: "big", chars: big.length }]);
    expect(split.text).toBe("@article{a, title={A}}\n\n@article{c, title={C}}\n");
  });

  it("keeps a long @comment (JabRef's groups), which is no entry", () => {
    const text = `@comment{jabref-meta: ${"g".repeat(500)}}\n@article{a, title={A}}\n`;
    expect(splitBibtex(text, 200)).toEqual({ text, oversized: [], entryCount: 1 });
  });
});

describe("readBibtexInThread", () => {
  it("has its thread's script beside it", () => {
    expect(bibtexReaderScript()).toMatch(/lib[\\/]sources[\\/]bibtex-read\.mjs$/);
  });

  it("parses an ordinary export in its thread", async () => {
    const library = await readBibtexInThread(zoteroBibtex());
    expect(library.errors).toEqual([]);
    expect(library.entries.map((e) => e.key)).toEqual([
      "hoffmann2024tides",
      "okafor2023soil",
      "lee2019book",
      "vaswani2017attention",
    ]);
    // plain data: creators as objects (bibliography.ts normalizes their text)
    expect(library.entries[0]?.fields.author).toEqual([
      expect.objectContaining({ lastName: "Hoffmann" }),
      expect.objectContaining({ lastName: "Byron", firstName: "Ada" }),
    ]);
  });

  it("stops a file that takes longer than the limit and says so", async () => {
    // ≈9 s of parsing (as one entry under a raised entry limit); the thread is stopped at 0.5 s
    const slow = readBibtexInThread(slowEntry(200), { timeoutMs: 500, maxEntryChars: 1024 * 1024 });
    await expect(slow).rejects.toBeInstanceOf(LecternError);
    await expect(slow).rejects.toMatchObject({
      code: "bad_request:source",
      message: expect.stringMatching(/^This BibTeX file took too long to read \(more than 500 ms\)/),
    });
  });

  it("leaves this thread's event loop free while a slow file is parsed", async () => {
    let ticks = 0;
    const interval = setInterval(() => ticks++, 5);
    try {
      // ≈1 s of parsing in the thread: on this thread no timer would fire until it ended
      const library = await readBibtexInThread(slowEntry(20), { maxEntryChars: 1024 * 1024 });
      expect(library.entries.map((e) => e.key)).toEqual(["slow"]);
      expect(ticks).toBeGreaterThan(0);
    } finally {
      clearInterval(interval);
    }
  });

  it("stops the thread when the caller aborts", async () => {
    const controller = new AbortController();
    const reading = readBibtexInThread(slowEntry(200), {
      maxEntryChars: 1024 * 1024,
      signal: controller.signal,
    });
    controller.abort(new Error("the request went away"));
    await expect(reading).rejects.toThrow("the request went away");
  });
});

describe("parseBibliography: long and large BibTeX files", () => {
  it("reports an entry over the length limit as a failure and reads the others", async () => {
    const text = `@article{good, title={Good}}\n${slowEntry(8, "huge")}@article{after, title={After}}\n`;
    const bib = await parseBibliography(text, { maxEntryChars: 4 * 1024 });
    expect(bib.records.map((r) => r.key)).toEqual(["good", "after"]);
    expect(bib.failures).toEqual([
      { key: "huge", error: "Not read: the entry is 9 KB long, more than the 4 KB allowed." },
    ]);
  });

  it("refuses a file of more entries than allowed before parsing it", async () => {
    const text = Array.from({ length: MAX_BIBLIOGRAPHY_ENTRIES + 1 }, (_, i) => `@misc{k${i}, title={T}}\n`).join("");
    await expect(parseBibliography(text)).rejects.toThrow(`more than ${MAX_BIBLIOGRAPHY_ENTRIES} entries`);
  });
});
