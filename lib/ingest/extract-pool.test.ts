import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTestPdf } from "@/lib/testing/pdf";
import { extractPdf } from "./extract";
import { createExtractionPool, pdfReaderScript } from "./extract-pool";

const pool = createExtractionPool(2);
afterAll(() => pool.close());

describe("extraction pool", () => {
  it("runs the plain JavaScript reader from disk (what `next start` runs too)", () => {
    expect(pdfReaderScript()).toMatch(/lib[\\/]ingest[\\/]pdf-read\.mjs$/);
  });

  it("extracts several PDFs at once, each to its own result, with progress", async () => {
    const pdfs = await Promise.all(
      [1, 2, 3].map((n) => makeTestPdf({ pages: Array.from({ length: n }, (_, i) => `Document ${n} page ${i + 1}`) })),
    );
    const progress: [number, number][] = [];
    const results = await Promise.all(
      pdfs.map((b, i) => pool.extract(b, i === 2 ? { onProgress: (d, t) => progress.push([d, t]) } : undefined)),
    );
    expect(results.map((r) => r.pageCount)).toEqual([1, 2, 3]);
    expect(results[2]?.pages[2]).toContain("Document 3 page 3");
    expect(progress.at(-1)).toEqual([3, 3]);
    expect(pdfs[0]?.byteLength).toBeGreaterThan(0); // the caller's bytes are not detached
  });

  it("gives the same result as extraction in this thread, info dictionary included", async () => {
    const bytes = await makeTestPdf({ pages: ["Same text either way", "second page"], title: "A Titled PDF" });
    const [threaded, local] = await Promise.all([pool.extract(bytes), extractPdf(bytes)]);
    expect(threaded).toEqual(local);
  });

  it("fails one job with the same clear errors as in-process extraction, and keeps serving", async () => {
    const encrypted = new Uint8Array(fs.readFileSync(path.join(__dirname, "../testing/fixtures/encrypted.pdf")));
    await expect(pool.extract(encrypted)).rejects.toMatchObject({ code: "bad_request:pdf", message: /encrypted/ });
    const ok = await pool.extract(await makeTestPdf({ pages: ["still alive"] }));
    expect(ok.pages[0]).toContain("still alive");
  });

  it("a corrupt PDF among good ones fails alone, with the in-process error", async () => {
    const good = await makeTestPdf({ pages: ["good one"] });
    const corrupt = new TextEncoder().encode("%PDF-1.7\n1 0 obj garbage that is not a PDF at all\n%%EOF\n");
    const local = await extractPdf(corrupt).catch((e: unknown) => e);
    const outcomes = await Promise.allSettled([pool.extract(good), pool.extract(corrupt), pool.extract(good)]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const reason = (outcomes[1] as PromiseRejectedResult).reason;
    expect(reason).toMatchObject({ code: "bad_request:pdf", message: (local as Error).message });
  });

  it("an aborted job rejects with the signal's reason; the pool goes on", async () => {
    const big = await makeTestPdf({ pages: Array.from({ length: 40 }, (_, i) => `Long document page ${i + 1}`) });
    const ac = new AbortController();
    const reason = new Error("stopped by the test");
    const p = pool.extract(big, { signal: ac.signal, onProgress: () => ac.abort(reason) });
    await expect(p).rejects.toBe(reason);
    const ok = await pool.extract(await makeTestPdf({ pages: ["after the abort"] }));
    expect(ok.pages[0]).toContain("after the abort");
  });
});
