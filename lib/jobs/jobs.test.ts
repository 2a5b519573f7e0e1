import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { claimIngestFile, getIngestBatch, getIngestFile, type IngestBatchWithFiles } from "@/db/queries/jobs";
import { papers } from "@/db/schema";
import { createTestDatabase } from "@/db/testing";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { LecternError } from "@/lib/errors";
import { createExtractionPool } from "@/lib/ingest/extract-pool";
import { createIngestContext, type IngestContext } from "@/lib/ingest/pipeline";
import type { IngestInput, IngestProgressEvent } from "@/lib/ingest/progress";
import { removePaper } from "@/lib/library/remove";
import { makeTestPdf } from "@/lib/testing/pdf";
import type { PdfDownloader } from "./download";
import { followBatch } from "./follow";
import {
  enqueueIngest,
  sweepOrphanUploads,
  UPLOAD_FOLDER,
  uploadKey,
  workDownloadFile,
  workIngestFile,
} from "./ingest";
import { getJobQueue, type JobQueue, QUEUES } from "./queue";
import { startWorker, type Worker } from "./worker";

const PAGES = [
  "Queued Ingestion of Scientific Papers\nGrace Hopper\nAbstract\nWe show that a durable job queue lets several workers ingest a library of papers without losing any of them when one of the workers is killed.",
  "2 Method\nEach uploaded file becomes a job of its own; a worker claims it, extracts its text, chunks it, summarises and embeds it, and saves it in one transaction.",
];

function input(name: string, bytes: Uint8Array): IngestInput {
  return { name, size: bytes.byteLength, read: async () => bytes };
}

async function listUploads(ctx: IngestContext): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of ctx.storage.list(UPLOAD_FOLDER)) keys.push(o.key);
  return keys;
}

/** Polls until the batch's files and its library step have ended (the test's own timeout bounds it). */
async function settled(handle: DbHandle, batchId: string): Promise<IngestBatchWithFiles> {
  for (;;) {
    const batch = await getIngestBatch(handle.db, { id: batchId });
    if (
      batch?.files.every((f) => !["queued", "running"].includes(f.status)) &&
      !["waiting", "running"].includes(batch.libraryStatus)
    )
      return batch;
    await new Promise((r) => setTimeout(r, 100));
  }
}

let handle: DbHandle;
let dataDir: string;
let ctx: IngestContext;
let queue: JobQueue;
let pdf: Uint8Array;

beforeAll(async () => {
  handle = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-jobs-"));
  ctx = createIngestContext(handle, {
    dataDir,
    maxUploadBytes: 5 * 1024 * 1024,
    embedder: createHashingEmbedder({ dimensions: 512 }),
    chatModel: null,
  });
  queue = await getJobQueue(handle);
  pdf = await makeTestPdf({ pages: PAGES, title: "Queued Ingestion of Scientific Papers" });
});

afterAll(async () => {
  await queue?.stop({ graceful: false });
  await handle?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("ingestion as jobs", () => {
  it("a worker ingests each queued file, records its outcome, runs the library step once and removes the uploads", async () => {
    const batch = await enqueueIngest(
      handle,
      queue,
      ctx.storage,
      [input("paper.pdf", pdf), input("notes.pdf", new TextEncoder().encode("not a pdf at all"))],
      { actor: null, origin: "cli", maxUploadBytes: ctx.maxUploadBytes },
    );
    expect(batch.fileIds).toHaveLength(2);
    // the uploads wait in the store for their jobs
    expect((await listUploads(ctx)).sort()).toEqual(batch.fileIds.map(uploadKey).sort());
    let worker: Worker | undefined;
    const events: IngestProgressEvent[] = [];
    const following = followBatch(handle.db, batch.batchId, { onEvent: (e) => events.push(e), intervalMs: 20 });
    try {
      worker = await startWorker(handle, { concurrency: 2, ctx, pollingIntervalSeconds: 0.5, log: () => {} });
      const results = await following;
      const done = await settled(handle, batch.batchId);
      // whoever follows the batch (an upload's stream, another instance) sees the pipeline's events
      expect(results?.map((r) => [r.file, r.status])).toEqual([
        ["paper.pdf", "ingested"],
        ["notes.pdf", "error"],
      ]);
      expect(events.filter((e) => e.type === "file_start")).toHaveLength(2);
      expect(events.filter((e) => e.type === "file_done")).toHaveLength(2);
      expect(events.map((e) => e.type)).toContain("library_done");
      // the library step builds the new paper's knowledge graph too (offline rules)
      expect(events.map((e) => e.type)).toContain("graph_done");
      const [paper, notes] = done.files;
      expect(paper).toMatchObject({ status: "ingested", fileName: "paper.pdf", attempts: 1, uploadKey: null });
      expect(paper?.paperId).toBeTruthy();
      expect(paper?.pages).toBe(2);
      expect(notes).toMatchObject({ status: "error", errorCode: "bad_request:pdf", uploadKey: null });
      expect(notes?.error).toMatch(/PDF/);
      expect(done.libraryStatus).toBe("done");
      const [row] = await handle.db
        .select()
        .from(papers)
        .where(eq(papers.id, paper?.paperId as string));
      expect(row?.title).toBe("Queued Ingestion of Scientific Papers");
      expect(await listUploads(ctx)).toEqual([]);
    } finally {
      await worker?.stop();
      queue = await getJobQueue(handle);
    }
  }, 120_000);

  it("with extraction in worker threads (the app's own worker), a corrupt PDF fails only its file", async () => {
    const pool = createExtractionPool(2);
    const threaded = { ...ctx, extract: pool.extract };
    const one = await makeTestPdf({
      pages: ["Threads Keep the Loop Free\nAbstract\nPDF text is read in a worker thread, off the event loop."],
      title: "Threads Keep the Loop Free",
    });
    const two = await makeTestPdf({
      pages: ["A Second Threaded Paper\nAbstract\nAnother PDF read in a worker thread while the first is saved."],
      title: "A Second Threaded Paper",
    });
    // a PDF header and nothing a PDF reader can parse: it passes the byte check and fails in the thread
    const corrupt = new TextEncoder().encode("%PDF-1.7\n1 0 obj << /Type /Catalog garbage\n%%EOF\n");
    const batch = await enqueueIngest(
      handle,
      queue,
      ctx.storage,
      [input("one.pdf", one), input("corrupt.pdf", corrupt), input("two.pdf", two)],
      { actor: null, origin: "web", maxUploadBytes: ctx.maxUploadBytes },
    );
    const worker = await startWorker(handle, {
      concurrency: 2,
      ctx: threaded,
      pollingIntervalSeconds: 0.5,
      log: () => {},
    });
    try {
      const results = await followBatch(handle.db, batch.batchId, { onEvent: () => {}, intervalMs: 50 });
      expect(results?.map((r) => [r.file, r.status, r.error_code])).toEqual([
        ["one.pdf", "ingested", null],
        ["corrupt.pdf", "error", "bad_request:pdf"],
        ["two.pdf", "ingested", null],
      ]);
      expect(results?.[1]?.error).toMatch(/corrupt or unreadable/);
    } finally {
      await worker.stop();
      await pool.close();
      queue = await getJobQueue(handle);
    }
  }, 120_000);

  it("a download job stores the PDF and hands the file to an ingest-file job; a busy source is retried, then failed", async () => {
    const bytes = await makeTestPdf({
      pages: ["Downloaded Papers\nAbstract\nA download job fetches the PDF into the store before it is ingested."],
      title: "Downloaded Papers",
    });
    const batch = await enqueueIngest(
      handle,
      queue,
      ctx.storage,
      [
        { name: "2501.00001v1.pdf", download: { source: "arxiv", id: "2501.00001v1" } },
        { name: "2501.00002v1.pdf", download: { source: "arxiv", id: "2501.00002v1" } },
      ],
      { actor: null, origin: "arxiv", maxUploadBytes: ctx.maxUploadBytes },
    );
    const [fetched, busy] = batch.fileIds as [string, string];
    // nothing is read at queueing time: the files wait for their download jobs
    expect((await getIngestBatch(handle.db, { id: batch.batchId }))?.files.map((f) => [f.status, f.uploadKey])).toEqual(
      [
        ["queued", null],
        ["queued", null],
      ],
    );
    const asked: string[] = [];
    const download: PdfDownloader = async (d) => {
      asked.push(d.id);
      if (d.id === "2501.00002v1") throw new LecternError("unavailable:source", "arXiv answered HTTP 503.");
      return bytes;
    };
    const signal = new AbortController().signal;
    const deps = { ctx, queue, download, retryLimit: 1 };
    // drain what earlier tests queued, so the ingest-file job sent below is the one fetched
    for (;;) {
      const old = await queue.boss.fetch(QUEUES.ingestFile, { batchSize: 50 });
      if (old.length === 0) break;
      await queue.boss.complete(
        QUEUES.ingestFile,
        old.map((j) => j.id),
      );
    }

    // the store failing after the download: the attempt is retried like an unreachable source, nothing recorded
    const storeDown = {
      ...ctx,
      storage: {
        ...ctx.storage,
        put: async () => {
          throw new Error("the bucket is unreachable");
        },
      },
    };
    await expect(
      workDownloadFile({ data: { fileId: fetched, actor: null }, retryCount: 0, signal }, { ...deps, ctx: storeDown }),
    ).rejects.toThrow(/bucket/);
    expect(await getIngestFile(handle.db, { id: fetched })).toMatchObject({ status: "queued", uploadKey: null });
    await workDownloadFile({ data: { fileId: fetched, actor: null }, retryCount: 1, signal }, deps);
    expect(await getIngestFile(handle.db, { id: fetched })).toMatchObject({
      status: "queued",
      uploadKey: uploadKey(fetched),
      size: bytes.byteLength,
      attempts: 2,
    });
    expect(await listUploads(ctx)).toContain(uploadKey(fetched));
    const [handedOn] = await queue.boss.fetch<{ fileId: string }>(QUEUES.ingestFile);
    expect(handedOn?.data.fileId).toBe(fetched);
    // delivered again after handing on: no second download, the ingest-file job is sent again
    await workDownloadFile({ data: { fileId: fetched, actor: null }, retryCount: 1, signal }, deps);
    expect(asked.filter((id) => id === "2501.00001v1")).toHaveLength(2);

    await expect(
      workDownloadFile({ data: { fileId: busy, actor: null }, retryCount: 0, signal }, deps),
    ).rejects.toMatchObject({ code: "unavailable:source" });
    expect(await getIngestFile(handle.db, { id: busy })).toMatchObject({
      status: "queued",
      error: "arXiv answered HTTP 503. (trying again)",
    });
    await workDownloadFile({ data: { fileId: busy, actor: null }, retryCount: 1, signal }, deps);
    expect(await getIngestFile(handle.db, { id: busy })).toMatchObject({
      status: "error",
      errorCode: "unavailable:source",
      error: "arXiv answered HTTP 503.",
      attempts: 2,
    });
    expect(asked.filter((id) => id === "2501.00002v1")).toHaveLength(2);
  });

  it("a file whose worker died mid-attempt is taken again and finished; a job delivered again after that does nothing", async () => {
    const other = await makeTestPdf({
      pages: [
        "Recovering Killed Workers\nAbstract\nA job whose worker was killed is taken again by another.",
        PAGES[1] as string,
      ],
      title: "Recovering Killed Workers",
    });
    const batch = await enqueueIngest(handle, queue, ctx.storage, [input("second.pdf", other)], {
      actor: null,
      origin: "cli",
      maxUploadBytes: ctx.maxUploadBytes,
    });
    const fileId = batch.fileIds[0] as string;
    // the first attempt claimed it and died (a SIGKILL): running, one attempt, the upload still there
    expect(await claimIngestFile(handle.db, { id: fileId })).toMatchObject({ status: "running", attempts: 1 });
    const job = { data: { fileId, actor: null }, retryCount: 1, signal: new AbortController().signal };
    const lines: string[] = [];
    await workIngestFile(job, { ctx, queue, retryLimit: 3, log: (line) => lines.push(line) });
    const after = await getIngestFile(handle.db, { id: fileId });
    expect(after).toMatchObject({ status: "ingested", attempts: 2, uploadKey: null });
    // the worker's output says which file it took, and how that ended
    expect(lines).toEqual([
      `file ${fileId} "second.pdf": working, attempt 2`,
      expect.stringMatching(new RegExp(`^file ${fileId}: ingested in \\d+\\.\\d s$`)),
    ]);
    // delivered again (an attempt killed after recording the outcome, before removing the upload): the row stays as it
    // was, and the upload left behind is removed
    await ctx.storage.put(uploadKey(fileId), other);
    const waiting = await queue.boss.fetch(QUEUES.libraryStep);
    if (waiting.length > 0)
      await queue.boss.complete(
        QUEUES.libraryStep,
        waiting.map((j) => j.id),
      );
    await workIngestFile(job, { ctx, queue, retryLimit: 3 });
    expect(await getIngestFile(handle.db, { id: fileId })).toEqual(after);
    expect(await listUploads(ctx)).not.toContain(uploadKey(fileId));
    // and the library step the killed attempt did not ask for is asked for
    expect(await queue.boss.fetch(QUEUES.libraryStep)).toHaveLength(1);
  });

  it("a job delivered again while this process still works on the file waits for that attempt: one ingest, not two", async () => {
    const bytes = await makeTestPdf({
      pages: ["Late Heartbeats\nAbstract\nA job delivered twice must not be ingested twice at the same time."],
      title: "Late Heartbeats",
    });
    const batch = await enqueueIngest(handle, queue, ctx.storage, [input("late.pdf", bytes)], {
      actor: null,
      origin: "cli",
      maxUploadBytes: ctx.maxUploadBytes,
    });
    const fileId = batch.fileIds[0] as string;
    const signal = new AbortController().signal;
    await Promise.all([
      workIngestFile({ data: { fileId, actor: null }, retryCount: 0, signal }, { ctx, queue, retryLimit: 3 }),
      workIngestFile({ data: { fileId, actor: null }, retryCount: 1, signal }, { ctx, queue, retryLimit: 3 }),
    ]);
    expect(await getIngestFile(handle.db, { id: fileId })).toMatchObject({ status: "ingested", attempts: 1 });
  });

  it("an attempt that fails for want of the database is retried; after the last one the file is failed, with its reason", async () => {
    const down: EmbeddingProvider = {
      ...createHashingEmbedder({ dimensions: 512 }),
      embed: async () => {
        throw new LecternError("unavailable:database", "The database is not available: connection refused");
      },
    };
    const failing = { ...ctx, embedder: down };
    const bytes = await makeTestPdf({
      pages: ["Retrying Without a Database\nAbstract\nAn attempt that cannot reach the database is tried again."],
      title: "Retrying Without a Database",
    });
    const batch = await enqueueIngest(handle, queue, ctx.storage, [input("third.pdf", bytes)], {
      actor: null,
      origin: "web",
      maxUploadBytes: ctx.maxUploadBytes,
    });
    const fileId = batch.fileIds[0] as string;
    const signal = new AbortController().signal;
    await expect(
      workIngestFile({ data: { fileId, actor: null }, retryCount: 0, signal }, { ctx: failing, queue, retryLimit: 1 }),
    ).rejects.toThrow(/not available/);
    expect(await getIngestFile(handle.db, { id: fileId })).toMatchObject({ status: "queued", attempts: 1 });
    expect((await getIngestFile(handle.db, { id: fileId }))?.error).toMatch(/trying again/);
    await workIngestFile(
      { data: { fileId, actor: null }, retryCount: 1, signal },
      { ctx: failing, queue, retryLimit: 1 },
    );
    const failed = await getIngestFile(handle.db, { id: fileId });
    expect(failed).toMatchObject({ status: "error", attempts: 2, errorCode: "unavailable:database", uploadKey: null });
    expect(await listUploads(ctx)).not.toContain(uploadKey(fileId));
  });

  it("a file over the limit or unreadable is recorded as failed at once, and the rest of the batch is queued", async () => {
    const batch = await enqueueIngest(
      handle,
      queue,
      ctx.storage,
      [
        { name: "huge.pdf", size: 10 * 1024 * 1024, read: async () => pdf },
        {
          name: "gone.pdf",
          read: async () => {
            throw new Error("ENOENT: no such file");
          },
        },
        input("fine.pdf", pdf),
      ],
      { actor: null, origin: "cli", maxUploadBytes: ctx.maxUploadBytes },
    );
    const stored = await getIngestBatch(handle.db, { id: batch.batchId });
    expect(stored?.files.map((f) => [f.fileName, f.status])).toEqual([
      ["huge.pdf", "error"],
      ["gone.pdf", "error"],
      ["fine.pdf", "queued"],
    ]);
    expect(stored?.files[0]?.error).toMatch(/limit/);
    expect(stored?.files[1]?.error).toMatch(/could not be read: ENOENT/);
  });

  it("the sweep removes an upload nobody waits for, once past the grace period, and keeps a queued file's", async () => {
    await ctx.storage.put(`${UPLOAD_FOLDER}orphan.pdf`, pdf);
    const pending = await getIngestBatch(handle.db, {
      id: (
        await enqueueIngest(handle, queue, ctx.storage, [input("waiting.pdf", pdf)], {
          actor: null,
          origin: "cli",
          maxUploadBytes: ctx.maxUploadBytes,
        })
      ).batchId,
    });
    const waiting = pending?.files[0]?.uploadKey as string;
    const young = await sweepOrphanUploads(ctx.storage, handle, { graceMs: 60 * 60 * 1000 });
    expect(young.removed).toEqual([]);
    const later = new Date(Date.now() + 2 * 60 * 60 * 1000);
    const swept = await sweepOrphanUploads(ctx.storage, handle, { graceMs: 60 * 60 * 1000, now: later });
    expect(swept.removed.map((o) => o.key)).toEqual([`${UPLOAD_FOLDER}orphan.pdf`]);
    expect(await listUploads(ctx)).toContain(waiting);
  });

  it("a deletion with the queue sends the library refresh as a job, which a worker runs", async () => {
    const [paper] = await handle.db.select({ id: papers.id }).from(papers).limit(1);
    const removal = await removePaper(
      { db: handle.db, dataDir, embedder: ctx.embedder, storage: ctx.storage, queue },
      paper?.id as string,
    );
    expect(removal).toEqual({ vectors: null });
    const [job] = await queue.boss.fetch(QUEUES.libraryRefresh);
    expect(job).toBeTruthy();
    await queue.boss.fail(QUEUES.libraryRefresh, job?.id as string, new Error("handed to the worker below"));
    // sent again (a deletion after a failed one): the worker takes it and completes it
    const id = await queue.boss.send(QUEUES.libraryRefresh, {});
    const worker = await startWorker(handle, { concurrency: 1, ctx, pollingIntervalSeconds: 0.5, log: () => {} });
    try {
      for (;;) {
        const state = (await queue.boss.getJobById(QUEUES.libraryRefresh, id as string))?.state;
        if (state === "completed") break;
        expect(state).not.toBe("failed");
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await worker.stop();
      queue = await getJobQueue(handle);
    }
  });
});
