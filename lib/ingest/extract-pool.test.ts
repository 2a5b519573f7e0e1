import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTestPdf } from "@/lib/testing/pdf";
import { createExtractionPool } from "./extract-pool";

const pool = createExtractionPool(2);
afterAll(() => pool.close());

describe("extraction pool", () => {
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

  it("fails one job with the same clear errors as in-process extraction, and keeps serving", async () => {
    const encrypted = new Uint8Array(fs.readFileSync(path.join(__dirname, "../testing/fixtures/encrypted.pdf")));
    await expect(pool.extract(encrypted)).rejects.toMatchObject({ code: "bad_request:pdf", message: /encrypted/ });
    const ok = await pool.extract(await makeTestPdf({ pages: ["still alive"] }));
    expect(ok.pages[0]).toContain("still alive");
  });
});
