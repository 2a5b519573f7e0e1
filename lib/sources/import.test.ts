import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { papers } from "@/db/schema";
import { createTestDatabase } from "@/db/testing";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import { createIngestContext, type IngestContext } from "@/lib/ingest/pipeline";
import { type ArxivStandin, startArxivStandin } from "@/lib/testing/arxiv-standin";
import { createFakeClock } from "@/lib/testing/clock";
import { makeTestPdf } from "@/lib/testing/pdf";
import { writeZoteroExport, ZOTERO_EXPORT } from "@/lib/testing/zotero-export";
import { createArxivClient } from "./arxiv";
import { parseBibliography } from "./bibliography";
import { importBibliography } from "./import";
import { findBibliographyFile, folderResolver } from "./import-files";
import type { SourceProgressEvent } from "./types";

let handle: DbHandle;
let ctx: IngestContext;
let dataDir: string;
let exportDir: string;
let standin: ArxivStandin;

const arxivAt = (apiUrl: string, pdfUrl: string) =>
  createArxivClient({ apiUrl, pdfUrl, userAgent: "Lectern/test", cacheDir: null, clock: createFakeClock() });

async function count(): Promise<number> {
  const [row] = await handle.db.select({ n: sql<number>`count(*)::int` }).from(papers);
  return row?.n ?? 0;
}

function load() {
  const { file, baseDir } = findBibliographyFile(exportDir);
  return { bib: parseBibliography(fs.readFileSync(file, "utf8")), resolver: folderResolver(baseDir) };
}

beforeAll(async () => {
  handle = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-import-"));
  exportDir = path.join(dataDir, "My Library");
  await writeZoteroExport(exportDir);
  ctx = createIngestContext(handle, {
    dataDir,
    maxUploadBytes: 5 * 1024 * 1024,
    embedder: createHashingEmbedder({ dimensions: 512 }),
    chatModel: null,
  });
  standin = await startArxivStandin([
    {
      id: "1706.03762",
      title: "Attention Is All You Need",
      authors: ["Ashish Vaswani", "Noam Shazeer"],
      abstract: "The dominant sequence transduction models are based on recurrent networks.",
      categories: ["cs.CL", "cs.LG"],
      versions: [
        {
          version: 7,
          date: "2017-06-12",
          pdf: await makeTestPdf({ pages: ["Self-attention replaces recurrence.", "A second page of attention."] }),
        },
      ],
    },
  ]);
});

afterAll(async () => {
  await standin?.close();
  await handle?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("importBibliography", () => {
  it("ingests the entries' PDFs with the export's metadata and lists the rest", async () => {
    const { bib, resolver } = load();
    const events: SourceProgressEvent[] = [];
    const report = await importBibliography(
      bib,
      resolver,
      { ctx, arxiv: arxivAt(standin.apiUrl, standin.pdfUrl) },
      { onProgress: (e) => events.push(e) },
    );
    expect(report.results.map((r) => [r.item, r.status])).toEqual([
      ["hoffmann2024tides", "ingested"],
      ["okafor2023soil", "ingested"],
      ["lee2019book", "no_pdf"],
      ["vaswani2017attention", "arxiv_available"],
    ]);
    expect(report.counts).toEqual({ ingested: 2, already_present: 0, no_pdf: 1, arxiv_available: 1, failed: 0 });
    expect(report.results[2]?.detail).toBeNull();
    expect(report.results[3]?.detail).toBe("On arXiv as 1706.03762.");
    expect(standin.requests).toEqual([]); // nothing asked of arXiv without --download-arxiv

    const [tides] = await handle.db
      .select()
      .from(papers)
      .where(eq(papers.id, report.results[0]?.paper_id ?? ""));
    const expected = ZOTERO_EXPORT.withPdf[0];
    expect(tides).toMatchObject({
      title: expected.title,
      authors: [...expected.authors],
      year: 2024,
      doi: expected.doi,
      venue: expected.venue,
      fileName: "Hoffmann - 2024 - Tidal Mixing.pdf",
    });
    expect(tides?.categories).toEqual(expect.arrayContaining(["oceanography", "estuary-dynamics"]));
    expect(events[0]?.type).toBe("items");
    expect(events.filter((e) => e.type === "item_done")).toHaveLength(4);
  });

  it("a second import finds what the library has (by DOI, or the same PDF)", async () => {
    const before = await count();
    const { bib, resolver } = load();
    const report = await importBibliography(bib, resolver, { ctx, arxiv: null });
    expect(report.results.slice(0, 2).map((r) => [r.status, r.detail])).toEqual([
      ["already_in_library", expect.stringMatching(/same DOI/)],
      ["already_in_library", "The same PDF is in the library."],
    ]);
    expect(await count()).toBe(before);
  });

  it("an arXiv entry whose download fails is that entry's error, the rest is unaffected", async () => {
    const gone = await startArxivStandin([]);
    await gone.close();
    const { bib, resolver } = load();
    const before = await count();
    const report = await importBibliography(
      bib,
      resolver,
      { ctx, arxiv: arxivAt(gone.apiUrl, gone.pdfUrl) },
      { downloadArxiv: true },
    );
    expect(report.results[3]).toMatchObject({
      status: "error",
      error_code: "unavailable:source",
      error: expect.stringMatching(/cannot be reached/),
    });
    expect(report.counts).toMatchObject({ already_present: 2, no_pdf: 1, failed: 1 });
    expect(await count()).toBe(before);
  });

  it("downloads the arXiv entries with --download-arxiv, with arXiv's metadata and the entry's tags", async () => {
    const { bib, resolver } = load();
    const record = bib.records.find((r) => r.key === "vaswani2017attention");
    if (record) record.tags = ["to read"];
    const report = await importBibliography(
      bib,
      resolver,
      { ctx, arxiv: arxivAt(standin.apiUrl, standin.pdfUrl) },
      { downloadArxiv: true },
    );
    expect(report.results[3]).toMatchObject({ status: "ingested", paper_id: "1706.03762v7", arxiv_id: "1706.03762v7" });
    const [row] = await handle.db.select().from(papers).where(eq(papers.id, "1706.03762v7"));
    expect(row).toMatchObject({
      authors: ["Ashish Vaswani", "Noam Shazeer"],
      categories: ["cs.CL", "cs.LG", "to-read"],
    });
  });

  it("says which linked file is missing from the export", async () => {
    const bibText = "@article{ghost, title={Ghost Paper}, file={PDF:files/99/ghost.pdf:application/pdf}}";
    const report = await importBibliography(parseBibliography(bibText), folderResolver(exportDir), {
      ctx,
      arxiv: null,
    });
    expect(report.results[0]).toMatchObject({
      status: "no_pdf",
      detail: "Its file files/99/ghost.pdf is not in the export.",
    });
  });
});
