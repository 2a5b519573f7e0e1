import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { getIngestBatch } from "@/db/queries/jobs";
import { ingestBatches, papers } from "@/db/schema";
import { createTestDatabase } from "@/db/testing";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import { createIngestContext, type IngestContext } from "@/lib/ingest/pipeline";
import { arxivDownloader } from "@/lib/jobs/download";
import { getJobQueue, type JobQueue } from "@/lib/jobs/queue";
import { startWorker, type Worker } from "@/lib/jobs/worker";
import { editPaperMetadata } from "@/lib/library/metadata";
import { type ArxivStandin, type StandinPaper, startArxivStandin } from "@/lib/testing/arxiv-standin";
import { createFakeClock } from "@/lib/testing/clock";
import { makeTestPdf } from "@/lib/testing/pdf";
import { type ArxivClient, createArxivClient } from "./arxiv";
import { addFromArxiv } from "./arxiv-add";
import type { SourceProgressEvent } from "./types";

/** A PDF whose own text says little (no stamp, a vague first line): what arXiv says must win. */
async function pdfWith(text: string): Promise<Uint8Array> {
  return makeTestPdf({
    pages: [
      `Draft manuscript\n${text}`,
      `Section two of the draft. ${text} continues with more words on a second page.`,
    ],
  });
}

let standin: ArxivStandin;
let handle: DbHandle;
let ctx: IngestContext;
let dataDir: string;
let arxiv: ArxivClient;
let queue: JobQueue;
let worker: Worker;
/** What addFromArxiv is given: the test's database and store, the current client, the queue its worker takes. */
const deps = () => ({ ctx, arxiv, queue });

const LORA: StandinPaper = {
  id: "2106.09685",
  title: "LoRA: Low-Rank Adaptation of Large Language Models",
  authors: ["Edward J. Hu", "Yelong Shen"],
  abstract: "We propose Low-Rank Adaptation, which freezes the pre-trained weights and injects trainable matrices.",
  categories: ["cs.CL", "cs.LG"],
  doi: "10.48550/arXiv.2106.09685",
  journalRef: "ICLR 2022",
  versions: [],
};
const ATTENTION: StandinPaper = {
  id: "1706.03762",
  title: "Attention Is All You Need",
  authors: ["Ashish Vaswani", "Noam Shazeer"],
  abstract: "The dominant sequence transduction models are based on recurrent or convolutional networks.",
  categories: ["cs.CL"],
  versions: [],
};

async function count(): Promise<number> {
  const [row] = await handle.db.select({ n: sql<number>`count(*)::int` }).from(papers);
  return row?.n ?? 0;
}

beforeAll(async () => {
  LORA.versions = [
    { version: 1, date: "2021-06-17", pdf: await pdfWith("Low rank adapters for transformers, first version.") },
    { version: 2, date: "2021-10-16", pdf: await pdfWith("Low rank adapters for transformers, revised version.") },
  ];
  ATTENTION.versions = [
    { version: 1, date: "2017-06-12", pdf: await pdfWith("Self-attention replaces recurrence entirely, version one.") },
    { version: 2, date: "2017-06-19", pdf: await pdfWith("Self-attention replaces recurrence entirely, version two.") },
  ];
  standin = await startArxivStandin([LORA, ATTENTION]);
  handle = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-arxiv-add-"));
  ctx = createIngestContext(handle, {
    dataDir,
    maxUploadBytes: 5 * 1024 * 1024,
    embedder: createHashingEmbedder({ dimensions: 512 }),
    chatModel: null,
  });
  queue = await getJobQueue(handle);
  // the PDFs are fetched by download-file jobs, through the client of the test that runs
  worker = await startWorker(handle, {
    concurrency: 2,
    ctx,
    download: (d, o) => arxivDownloader(arxiv)(d, o),
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

beforeEach(() => {
  // a fresh client: no cache, its own fake clock (the spacing is tested in arxiv.test.ts)
  arxiv = createArxivClient({
    apiUrl: standin.apiUrl,
    pdfUrl: standin.pdfUrl,
    userAgent: "Lectern/test",
    cacheDir: null,
    clock: createFakeClock(),
  });
  standin.requests.length = 0;
});

describe("addFromArxiv", () => {
  it("adds papers by id and URL with arXiv's metadata, and reports each item", async () => {
    const events: SourceProgressEvent[] = [];
    const results = await addFromArxiv(
      ["2106.09685", "https://arxiv.org/abs/1706.03762v1", "not-an-id", "2401.99999"],
      deps(),
      { onProgress: (e) => events.push(e) },
    );
    expect(results.map((r) => [r.item, r.status, r.paper_id])).toEqual([
      ["2106.09685", "ingested", "2106.09685v2"],
      ["https://arxiv.org/abs/1706.03762v1", "ingested", "1706.03762v1"],
      ["2401.99999", "error", null],
      ["not-an-id", "error", null],
    ]);
    expect(results[2]).toMatchObject({ error_code: "not_found:source", error: "arXiv has no paper 2401.99999." });
    expect(results[3]?.error).toMatch(/is not an arXiv id or URL/);

    const [lora] = await handle.db.select().from(papers).where(eq(papers.id, "2106.09685v2"));
    expect(lora).toMatchObject({
      arxivId: "2106.09685v2",
      title: LORA.title,
      authors: LORA.authors,
      abstract: LORA.abstract,
      categories: ["cs.CL", "cs.LG"],
      doi: "10.48550/arXiv.2106.09685",
      publishedDate: "2021-06-17",
      year: 2021,
      venue: "ICLR 2022",
      fileName: "2106.09685v2.pdf",
    });

    // one lookup for both ids, then the two downloads — jobs, worked side by side, so in either order
    const paths = standin.requests.map((r) => r.path);
    expect(paths[0]).toBe("/api/query");
    expect(paths.slice(1).sort()).toEqual(["/pdf/1706.03762v1", "/pdf/2106.09685v2"]);
    // progress per item: the list, looking up, downloading, the pipeline's stages, each item's end
    expect(events[0]).toEqual({
      type: "items",
      items: ["2106.09685", "https://arxiv.org/abs/1706.03762v1", "2401.99999", "not-an-id"].map((label, index) => ({
        index,
        label,
      })),
    });
    // the lookup is reported at once; the jobs' stages as the batch is followed (polled, so a short one may be missed)
    const stagesOf0 = events.flatMap((e) => (e.type === "item_stage" && e.index === 0 ? [e.stage] : []));
    expect(stagesOf0[0]).toBe("looking_up");
    expect(events.filter((e) => e.type === "item_done")).toHaveLength(4);
    // the PDFs went through the job queue: one batch of arXiv's, its two files downloaded then ingested
    const [batch] = await handle.db.select().from(ingestBatches).where(eq(ingestBatches.origin, "arxiv"));
    const files = (await getIngestBatch(handle.db, { id: batch?.id as string }))?.files ?? [];
    expect(files.map((f) => [f.fileName, f.status, f.uploadKey])).toEqual([
      ["2106.09685v2.pdf", "ingested", null],
      ["1706.03762v1.pdf", "ingested", null],
    ]);
  });

  it("finds what the library has without downloading it again", async () => {
    const results = await addFromArxiv(["2106.09685v2", "arXiv:2106.09685"], deps());
    expect(results.map((r) => r.status)).toEqual(["already_in_library", "already_in_library"]);
    expect(results[0]?.paper_id).toBe("2106.09685v2");
    expect(standin.requests.every((r) => r.path === "/api/query")).toBe(true);
  });

  it("offers a newer version, and replaces the old one on request keeping the user's corrections", async () => {
    await editPaperMetadata({ db: handle.db, embedder: null }, "1706.03762v1", { title: "Attention (my title)" });
    const before = await count();
    const [offer] = await addFromArxiv(["1706.03762"], deps());
    expect(offer).toMatchObject({
      status: "update_available",
      paper_id: "1706.03762v1",
      arxiv_id: "1706.03762v2",
      detail: "arXiv has 1706.03762v2; the library has 1706.03762v1. Replace it to update.",
    });
    expect(await count()).toBe(before);

    const [replaced] = await addFromArxiv(["1706.03762"], deps(), { replace: true });
    expect(replaced).toMatchObject({ status: "replaced", paper_id: "1706.03762v2" });
    expect(await count()).toBe(before);
    const rows = await handle.db.select().from(papers).where(sql`${papers.id} like '1706.03762%'`);
    expect(rows.map((r) => [r.id, r.arxivId, r.title])).toEqual([
      ["1706.03762v2", "1706.03762v2", "Attention (my title)"],
    ]);
    expect(rows[0]?.editedFields).toEqual(["title"]);
    expect(rows[0]?.authors).toEqual(ATTENTION.authors);

    // asking for the older version now: the library already has a newer one
    const [older] = await addFromArxiv(["1706.03762v1"], deps());
    expect(older).toMatchObject({ status: "already_in_library", paper_id: "1706.03762v2" });
  });

  it("writes nothing when arXiv cannot be reached", async () => {
    const gone = await startArxivStandin([]);
    await gone.close();
    const offline = createArxivClient({
      apiUrl: gone.apiUrl,
      pdfUrl: gone.pdfUrl,
      userAgent: "Lectern/test",
      cacheDir: null,
      clock: createFakeClock(),
    });
    const before = await count();
    await expect(addFromArxiv(["2301.00001"], { ctx, arxiv: offline, queue })).rejects.toMatchObject({
      code: "unavailable:source",
    });
    expect(await count()).toBe(before);
  });

  it("a PDF that cannot be downloaded is that item's error; the others go on", async () => {
    standin.papers.set("2301.00001", {
      id: "2301.00001",
      title: "A Paper Whose PDF Is Gone",
      authors: ["Nobody"],
      abstract: "Nothing.",
      categories: ["cs.IR"],
      versions: [{ version: 1, date: "2023-01-01", pdf: new Uint8Array() }],
    });
    standin.papers.set("2301.00002", {
      id: "2301.00002",
      title: "A Paper That Downloads",
      authors: ["Somebody"],
      abstract: "Something.",
      categories: ["cs.IR"],
      versions: [{ version: 1, date: "2023-01-02", pdf: await pdfWith("Retrieval of scientific text works.") }],
    });
    const before = await count();
    const results = await addFromArxiv(["2301.00001", "2301.00002"], deps());
    expect(results[0]).toMatchObject({ status: "error", error_code: "bad_request:pdf" });
    expect(results[1]).toMatchObject({ status: "ingested", title: "A Paper That Downloads" });
    expect(await count()).toBe(before + 1);
  });

  it("a download job that gets a 404 fails that item only; the others are downloaded and ingested", async () => {
    standin.papers.set("2302.00001", {
      id: "2302.00001",
      title: "A Paper Whose PDF Answers 404",
      authors: ["Nobody"],
      abstract: "Nothing.",
      categories: ["cs.IR"],
      versions: [{ version: 1, date: "2023-02-01", pdf: null }],
    });
    for (const n of [2, 3]) {
      standin.papers.set(`2302.0000${n}`, {
        id: `2302.0000${n}`,
        title: `A Paper That Downloads, Number ${n}`,
        authors: ["Somebody"],
        abstract: "Something.",
        categories: ["cs.IR"],
        versions: [{ version: 1, date: "2023-02-02", pdf: await pdfWith(`Dense retrieval, experiment ${n}.`) }],
      });
    }
    const before = await count();
    const results = await addFromArxiv(["2302.00002", "2302.00001", "2302.00003"], deps());
    expect(results.map((r) => [r.status, r.error_code])).toEqual([
      ["ingested", null],
      ["error", "not_found:source"],
      ["ingested", null],
    ]);
    expect(results[1]?.error).toBe("arXiv has no PDF for that version.");
    expect(await count()).toBe(before + 2);
    // a 404 is not retried: one request for that PDF
    expect(standin.requests.filter((r) => r.path === "/pdf/2302.00001v1")).toHaveLength(1);
  });
});
