import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { getIngestBatch } from "@/db/queries/jobs";
import { papers } from "@/db/schema";
import { createTestDatabase } from "@/db/testing";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import { createIngestContext, type IngestContext } from "@/lib/ingest/pipeline";
import { arxivDownloader } from "@/lib/jobs/download";
import { getJobQueue, type JobQueue } from "@/lib/jobs/queue";
import { startWorker, type Worker } from "@/lib/jobs/worker";
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
let queue: JobQueue;
let worker: Worker;

const arxivAt = (apiUrl: string, pdfUrl: string) =>
  createArxivClient({ apiUrl, pdfUrl, userAgent: "Lectern/test", cacheDir: null, clock: createFakeClock() });

async function count(): Promise<number> {
  const [row] = await handle.db.select({ n: sql<number>`count(*)::int` }).from(papers);
  return row?.n ?? 0;
}

async function load() {
  const { file, baseDir } = findBibliographyFile(exportDir);
  return { bib: await parseBibliography(fs.readFileSync(file, "utf8")), resolver: folderResolver(baseDir) };
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
  queue = await getJobQueue(handle);
  // the PDFs go through the job queue: this worker copies, downloads and ingests them
  worker = await startWorker(handle, {
    concurrency: 2,
    ctx,
    download: arxivDownloader(arxivAt(standin.apiUrl, standin.pdfUrl)),
    pollingIntervalSeconds: 0.5,
    log: () => {},
  });
});

afterAll(async () => {
  await worker?.stop({ timeoutMs: 5000 });
  await queue?.stop({ timeoutMs: 5000 });
  await standin?.close();
  await handle?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("importBibliography", () => {
  it("ingests the entries' PDFs with the export's metadata and lists the rest", async () => {
    const { bib, resolver } = await load();
    const events: SourceProgressEvent[] = [];
    const report = await importBibliography(
      bib,
      resolver,
      { ctx, arxiv: arxivAt(standin.apiUrl, standin.pdfUrl), queue },
      { onProgress: (e) => events.push(e) },
    );
    expect(report.results.map((r) => [r.item, r.status])).toEqual([
      ["hoffmann2024tides", "ingested"],
      ["okafor2023soil", "ingested"],
      ["lee2019book", "no_pdf"],
      ["vaswani2017attention", "arxiv_available"],
    ]);
    expect(report.counts).toEqual({
      ingested: 2,
      queued: 0,
      already_present: 0,
      no_pdf: 1,
      arxiv_available: 1,
      failed: 0,
    });
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
    const { bib, resolver } = await load();
    const report = await importBibliography(bib, resolver, { ctx, arxiv: null, queue });
    expect(report.results.slice(0, 2).map((r) => [r.status, r.detail])).toEqual([
      ["already_in_library", expect.stringMatching(/same DOI/)],
      ["already_in_library", "The same PDF is in the library."],
    ]);
    expect(await count()).toBe(before);
  });

  it("an arXiv entry whose download fails is that entry's error, the rest is unaffected", async () => {
    const gone = await startArxivStandin([]);
    await gone.close();
    const { bib, resolver } = await load();
    const before = await count();
    const report = await importBibliography(
      bib,
      resolver,
      { ctx, arxiv: arxivAt(gone.apiUrl, gone.pdfUrl), queue },
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
    const { bib, resolver } = await load();
    const record = bib.records.find((r) => r.key === "vaswani2017attention");
    if (record) record.tags = ["to read"];
    const report = await importBibliography(
      bib,
      resolver,
      { ctx, arxiv: arxivAt(standin.apiUrl, standin.pdfUrl), queue },
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
    const report = await importBibliography(await parseBibliography(bibText), folderResolver(exportDir), {
      ctx,
      arxiv: null,
      queue,
    });
    expect(report.results[0]).toMatchObject({
      status: "no_pdf",
      detail: "Its file files/99/ghost.pdf is not in the export.",
    });
  });

  it("without following (--enqueue-only), reports the PDFs queued; the jobs ingest them after", async () => {
    const bibText =
      "@article{queued2025, title={A Queued Import}, author={Rivera, Ana}, year={2025}, file={PDF:queued.pdf:application/pdf}}";
    const folder = fs.mkdtempSync(path.join(dataDir, "queued-"));
    fs.writeFileSync(
      path.join(folder, "queued.pdf"),
      await makeTestPdf({ pages: ["A Queued Import\nAna Rivera\nAbstract\nJobs ingest this after the command ends."] }),
    );
    const report = await importBibliography(
      await parseBibliography(bibText),
      folderResolver(folder),
      { ctx, arxiv: null, queue },
      { follow: false },
    );
    expect(report.results[0]).toMatchObject({ status: "queued", detail: expect.stringMatching(/^In batch /) });
    expect(report.counts.queued).toBe(1);
    const batchId = (report.results[0]?.detail ?? "").replace(/^In batch (.+)\.$/, "$1");
    for (;;) {
      const batch = await getIngestBatch(handle.db, { id: batchId });
      const f = batch?.files[0];
      if (f && f.status !== "queued" && f.status !== "running") {
        expect(f).toMatchObject({ status: "ingested", title: "A Queued Import" });
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  });
});
