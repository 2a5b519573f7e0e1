import { randomUUID } from "node:crypto";
import type { Job } from "pg-boss";
import type { DbHandle } from "@/db";
import {
  batchesReadyForLibrary,
  claimIngestFile,
  FINAL_FILE_STATUSES,
  finishIngestFile,
  getIngestFile,
  insertIngestBatch,
  listStaleIngestFiles,
  pendingUploadKeys,
  requeueIngestFile,
  setIngestFileStage,
  setIngestFileUpload,
  setLibraryStep,
} from "@/db/queries/jobs";
import type { NewIngestFile } from "@/db/schema";
import { briefError, isLecternError } from "@/lib/errors";
import { type IngestContext, ingestFiles, runLibraryStep } from "@/lib/ingest/pipeline";
import type { IngestInput, IngestProgressEvent, TrustedMetadata } from "@/lib/ingest/progress";
import type { PdfStorage, StoredObject } from "@/lib/storage";
import type { PdfDownloader } from "./download";
import { type JobQueue, QUEUES } from "./queue";

/** Where uploads wait for their job, in the PDF store (so any worker on any machine reads them). */
export const UPLOAD_FOLDER = "uploads/";

export function uploadKey(fileId: string): string {
  return `${UPLOAD_FOLDER}${fileId}.pdf`;
}

export interface IngestFileJobData {
  fileId: string;
  actor: { id: string; email: string } | null;
}

/** A download-file job's data: the file row whose PDF is to be fetched (its source is in the row). */
export type DownloadFileJobData = IngestFileJobData;

/** Where a queued PDF is to be fetched from: an arXiv version (`2106.09685v2`). */
export interface PdfDownload {
  source: "arxiv";
  id: string;
}

/** A file to ingest that is not at hand yet: a download job fetches it into the store, then it is ingested. */
export interface QueuedDownload {
  name: string;
  download: PdfDownload;
  metadata?: TrustedMetadata;
  replaces?: string;
}

/** What can be queued: a file at hand (read into the store at once) or one to download. */
export type QueuedInput = IngestInput | QueuedDownload;

export function isQueuedDownload(input: QueuedInput): input is QueuedDownload {
  return "download" in input;
}

/** What a file row's `metadata` column holds: what an importer knows of the file, and where to download it. */
export interface QueuedFileSource {
  metadata?: TrustedMetadata;
  replaces?: string;
  download?: PdfDownload;
}

export interface EnqueuedBatch {
  batchId: string;
  fileIds: string[];
}

/**
 * Queues files for ingestion: each file at hand is stored in the PDF store under `uploads/`, the batch and its files
 * are written in one transaction, then one job per file is sent — an ingest-file job, or for a file to download a
 * download-file job (which fetches it into the store, then sends its ingest-file job). A file that cannot be read or
 * stored is recorded as failed at once (the rest go on); a failure to send the jobs marks the batch's files failed,
 * nothing is left waiting for a job that does not exist.
 */
export async function enqueueIngest(
  handle: Pick<DbHandle, "db">,
  queue: JobQueue,
  storage: PdfStorage,
  inputs: QueuedInput[],
  opts: { actor: { id: string; email: string } | null; origin: string; maxUploadBytes: number },
): Promise<EnqueuedBatch> {
  const batchId = randomUUID();
  const rows: Omit<NewIngestFile, "batchId">[] = [];
  for (const [position, input] of inputs.entries()) {
    const id = randomUUID();
    const source: QueuedFileSource = {};
    if (input.metadata) source.metadata = input.metadata;
    if (input.replaces) source.replaces = input.replaces;
    if (isQueuedDownload(input)) source.download = input.download;
    const row: Omit<NewIngestFile, "batchId"> = {
      id,
      position,
      fileName: input.name,
      size: isQueuedDownload(input) ? null : (input.size ?? null),
      metadata: Object.keys(source).length > 0 ? (source as Record<string, unknown>) : null,
    };
    if (isQueuedDownload(input)) {
      rows.push(row);
      continue;
    }
    try {
      if (input.size !== undefined && input.size > opts.maxUploadBytes) {
        throw new Error(`over the ${Math.round(opts.maxUploadBytes / 1024 / 1024)} MB limit`);
      }
      const bytes = await input.read();
      await storage.put(uploadKey(id), bytes);
      row.uploadKey = uploadKey(id);
      row.size = bytes.byteLength;
    } catch (e) {
      Object.assign(row, {
        status: "error",
        error: isLecternError(e) ? e.message : `The file could not be read: ${briefError(e)}`,
        errorCode: isLecternError(e) ? e.code : "bad_request:file",
        finishedAt: new Date(),
      });
    }
    rows.push(row);
  }
  try {
    await insertIngestBatch(handle.db, { id: batchId, actorId: opts.actor?.id ?? null, origin: opts.origin }, rows);
  } catch (e) {
    await Promise.all(rows.map((r) => (r.uploadKey ? storage.delete(r.uploadKey).catch(() => {}) : null)));
    throw e;
  }
  const toDownload = rows.filter((r) => (r.metadata as QueuedFileSource | null)?.download && !r.status);
  const queued = rows.filter((r) => r.uploadKey);
  try {
    if (queued.length > 0) {
      await queue.boss.insert(
        QUEUES.ingestFile,
        queued.map((r) => ({ data: { fileId: r.id, actor: opts.actor } satisfies IngestFileJobData })),
      );
    }
    if (toDownload.length > 0) {
      await queue.boss.insert(
        QUEUES.downloadFile,
        toDownload.map((r) => ({ data: { fileId: r.id, actor: opts.actor } satisfies DownloadFileJobData })),
      );
    }
    if (queued.length === 0 && toDownload.length === 0) {
      // nothing to ingest: the batch's library step has nothing to do either
      await queue.boss.send(QUEUES.libraryStep, {});
    }
  } catch (e) {
    for (const r of [...queued, ...toDownload]) {
      await finishIngestFile(handle.db, {
        id: r.id,
        status: "error",
        paperId: null,
        title: null,
        pages: 0,
        chunks: 0,
        error: `The file could not be queued: ${briefError(e)}`,
        errorCode: "unavailable:database",
      }).catch(() => {});
      if (r.uploadKey) await storage.delete(r.uploadKey).catch(() => {});
    }
    throw e;
  }
  return { batchId, fileIds: rows.map((r) => r.id) };
}

/** How often a running file's stage is written (the UI polls; every page of extraction need not be a write). */
const STAGE_WRITE_MS = 400;

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of stream as unknown as AsyncIterable<Uint8Array>) {
    parts.push(part);
    size += part.byteLength;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/**
 * Works one file's job: claims the file, ingests it (without the library step), records its outcome and removes the
 * upload, then asks for the library step. The same job delivered again after its outcome was recorded changes nothing
 * of the file; it removes the upload if still there and asks for the library step again.
 * A failure of the file itself (not a PDF, no text) is its outcome; only a failure of everything (the database went
 * away) is thrown, for pg-boss to retry the job — after the last attempt the file is recorded as failed.
 */
export async function workIngestFile(
  job: Pick<Job<IngestFileJobData>, "data" | "retryCount" | "signal">,
  deps: IngestFileDeps,
): Promise<void> {
  // A job delivered again while this process still works on its file (its heartbeat was late: a long stretch of
  // synchronous work) waits for that attempt instead of ingesting the same file beside it.
  const running = inProcess.get(job.data.fileId);
  if (running) await running.catch(() => {});
  const attempt = workClaimed(job, deps);
  inProcess.set(job.data.fileId, attempt);
  try {
    await attempt;
  } finally {
    if (inProcess.get(job.data.fileId) === attempt) inProcess.delete(job.data.fileId);
  }
}

/** The files this process is working on, by id (on `globalThis`: Next.js bundles routes and instrumentation apart). */
const IN_PROCESS_KEY = Symbol.for("lectern.ingestFilesInProcess");
const shared = globalThis as unknown as Record<symbol, Map<string, Promise<void>> | undefined>;
const inProcess: Map<string, Promise<void>> = shared[IN_PROCESS_KEY] ?? new Map();
shared[IN_PROCESS_KEY] = inProcess;

/** What a file's job is worked with. */
export interface IngestFileDeps {
  ctx: IngestContext;
  queue: JobQueue;
  retryLimit: number;
  /** A line per claimed file and per outcome (a worker's output: which file it holds, and how that ended). */
  log?: (line: string) => void;
}

async function workClaimed(
  job: Pick<Job<IngestFileJobData>, "data" | "retryCount" | "signal">,
  deps: IngestFileDeps,
): Promise<void> {
  const { ctx, queue } = deps;
  const row = await claimIngestFile(ctx.db, { id: job.data.fileId });
  if (!row) {
    // finished already, by an attempt killed after recording the outcome: what it did not get to do is done here —
    // the upload it left is removed, and the library step it did not ask for is asked for
    await ctx.storage.delete(uploadKey(job.data.fileId)).catch(() => {});
    await queue.boss.send(QUEUES.libraryStep, {});
    return;
  }
  if (!row.uploadKey) {
    await finishIngestFile(ctx.db, {
      id: row.id,
      status: "error",
      paperId: null,
      title: null,
      pages: 0,
      chunks: 0,
      error: "The uploaded file is no longer stored; upload it again.",
      errorCode: "not_found:file",
    });
    return;
  }
  // this attempt's number: only the attempt holding the file writes its stage and outcome (an older one that another
  // process still runs after its claim lapsed is refused)
  const attempt = row.attempts;
  const key = row.uploadKey;
  const started = Date.now();
  const log = deps.log ?? (() => {});
  log(`file ${row.id} ${JSON.stringify(row.fileName)}: working, attempt ${attempt}`);
  const source = (row.metadata ?? {}) as QueuedFileSource;
  const input: IngestInput = {
    name: row.fileName,
    size: row.size ?? undefined,
    read: async () => readAll(await ctx.storage.read(key, { signal: job.signal })),
    ...(source.metadata ? { metadata: source.metadata } : {}),
    ...(source.replaces ? { replaces: source.replaces } : {}),
  };
  let lastWrite = 0;
  let pending: Promise<void> = Promise.resolve();
  const onProgress = (e: IngestProgressEvent) => {
    if (e.type !== "file_stage") return;
    const now = Date.now();
    const final = e.done !== undefined && e.of !== undefined && e.done >= e.of;
    if (now - lastWrite < STAGE_WRITE_MS && !final && e.done !== undefined && e.done > 0) return;
    lastWrite = now;
    pending = pending
      .then(() =>
        setIngestFileStage(ctx.db, { id: row.id, attempt, stage: e.stage, done: e.done ?? null, of: e.of ?? null }),
      )
      .catch(() => {});
  };
  let result: Awaited<ReturnType<typeof ingestFiles>>[number] | undefined;
  try {
    [result] = await ingestFiles([input], ctx, {
      onProgress,
      signal: job.signal,
      actor: job.data.actor,
      libraryStep: false,
    });
  } catch (e) {
    await pending;
    const message = isLecternError(e) ? e.message : `Ingestion failed: ${briefError(e)}`;
    if (job.retryCount >= deps.retryLimit) {
      await finishIngestFile(ctx.db, {
        id: row.id,
        attempt,
        status: "error",
        paperId: null,
        title: null,
        pages: 0,
        chunks: 0,
        error: message,
        errorCode: isLecternError(e) ? e.code : "internal:pdf",
      });
      log(`file ${row.id}: failed after ${attempt} attempt(s): ${message}`);
      await ctx.storage.delete(key).catch(() => {});
      await queue.boss.send(QUEUES.libraryStep, {});
      return;
    }
    await requeueIngestFile(ctx.db, { id: row.id, attempt, error: `${message} (trying again)` }).catch(() => {});
    log(`file ${row.id}: failed, to be tried again: ${message}`);
    throw e;
  }
  await pending;
  if (!result) throw new Error("the pipeline returned no result");
  await finishIngestFile(ctx.db, {
    id: row.id,
    attempt,
    status: result.status,
    paperId: result.paper_id,
    title: result.title,
    pages: result.pages,
    chunks: result.chunks,
    error: result.error,
    errorCode: result.error_code,
  });
  const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  log(`file ${row.id}: ${result.status} in ${took}${result.error ? `: ${result.error}` : ""}`);
  await ctx.storage.delete(key).catch((e) => console.error(`[jobs] upload ${key} not removed: ${briefError(e)}`));
  // stately: if a step is already waiting, this one joins it
  await queue.boss.send(QUEUES.libraryStep, {});
}

/** A download's failure that another attempt may not have: the source unreachable, busy or slow. */
function isTransient(e: unknown): boolean {
  if (!isLecternError(e)) return true;
  return e.code.startsWith("unavailable:") || e.code.startsWith("timeout:");
}

/**
 * Works one file's download job: claims the file, fetches its PDF (stage `downloading`) into the store under
 * `uploads/`, records the upload and sends the file's ingest-file job — the same job an uploaded file gets. A source
 * that does not have the PDF (404) or sends one over the size limit fails the file at once; an unreachable or busy
 * source is retried with backoff (the download-file queue, queue.ts), and after the last attempt the file is failed
 * with that error. The others of its batch go on either way. A job delivered again after the file was handed on only
 * sends the ingest-file job again (its claim makes that harmless).
 */
export async function workDownloadFile(
  job: Pick<Job<DownloadFileJobData>, "data" | "retryCount" | "signal">,
  deps: { ctx: IngestContext; queue: JobQueue; download: PdfDownloader; retryLimit: number },
): Promise<void> {
  const { ctx, queue } = deps;
  const fileId = job.data.fileId;
  const current = await getIngestFile(ctx.db, { id: fileId });
  if (!current || FINAL_FILE_STATUSES.includes(current.status)) return;
  if (current.uploadKey) {
    // fetched by an attempt that stopped before sending the ingest-file job
    await queue.boss.send(QUEUES.ingestFile, { fileId, actor: job.data.actor } satisfies IngestFileJobData);
    return;
  }
  const fail = async (attempt: number | undefined, error: string, errorCode: string) => {
    await finishIngestFile(ctx.db, {
      id: fileId,
      attempt,
      status: "error",
      paperId: null,
      title: null,
      pages: 0,
      chunks: 0,
      error,
      errorCode,
    });
    await queue.boss.send(QUEUES.libraryStep, {});
  };
  const source = (current.metadata ?? {}) as QueuedFileSource;
  if (!source.download) return fail(undefined, "Nothing says where to download this file from.", "internal:source");
  const row = await claimIngestFile(ctx.db, { id: fileId });
  if (!row) return;
  const attempt = row.attempts;
  await setIngestFileStage(ctx.db, { id: fileId, attempt, stage: "downloading", done: null, of: null });
  const key = uploadKey(fileId);
  try {
    const bytes = await deps.download(source.download, { maxBytes: ctx.maxUploadBytes, signal: job.signal });
    // a store or database that fails from here is retried the same way as an unreachable source
    await ctx.storage.put(key, bytes);
    // refused when a later attempt took the file over: that attempt hands it on (the object under the same key is its)
    if (!(await setIngestFileUpload(ctx.db, { id: fileId, attempt, uploadKey: key, size: bytes.byteLength }))) return;
  } catch (e) {
    const message = isLecternError(e) ? e.message : `The download failed: ${briefError(e)}`;
    if (!isTransient(e) || job.retryCount >= deps.retryLimit) {
      await fail(attempt, message, isLecternError(e) ? e.code : "unavailable:source");
      await ctx.storage.delete(key).catch(() => {});
      return;
    }
    await requeueIngestFile(ctx.db, { id: fileId, attempt, error: `${message} (trying again)` }).catch(() => {});
    throw e;
  }
  await queue.boss.send(QUEUES.ingestFile, { fileId, actor: job.data.actor } satisfies IngestFileJobData);
}

/**
 * The library step for every batch whose files are all done: once for all of them (it covers the whole library).
 * Batches with nothing new are marked skipped. Progress and outcome are written on the batches.
 */
export async function workLibraryStep(ctx: IngestContext): Promise<{ batches: number; ran: boolean }> {
  const ready = await batchesReadyForLibrary(ctx.db);
  if (ready.length === 0) return { batches: 0, ran: false };
  const skipped = ready.filter((b) => b.changed === 0).map((b) => b.id);
  await setLibraryStep(ctx.db, skipped, { libraryStatus: "skipped" });
  const ids = ready.filter((b) => b.changed > 0).map((b) => b.id);
  if (ids.length === 0) return { batches: ready.length, ran: false };
  await setLibraryStep(ctx.db, ids, { libraryStatus: "running", libraryError: null });
  let lastWrite = 0;
  let pending: Promise<void> = Promise.resolve();
  let outcome: { status: "done" | "error"; result?: Record<string, unknown>; error?: string } = { status: "done" };
  await runLibraryStep(ctx, (e) => {
    if (e.type === "library_stage") {
      const now = Date.now();
      if (now - lastWrite < STAGE_WRITE_MS && e.done !== 0 && e.done < e.of) return;
      lastWrite = now;
      pending = pending
        .then(() => setLibraryStep(ctx.db, ids, { libraryStage: e.stage, libraryDone: e.done, libraryOf: e.of }))
        .catch(() => {});
    } else if (e.type === "graph_stage") {
      const now = Date.now();
      if (now - lastWrite < STAGE_WRITE_MS && e.done !== 0 && e.done < e.of) return;
      lastWrite = now;
      pending = pending
        .then(() => setLibraryStep(ctx.db, ids, { libraryStage: "graph", libraryDone: e.done, libraryOf: e.of }))
        .catch(() => {});
    } else if (e.type === "library_done") {
      const { type: _t, ...result } = e;
      outcome = { status: "done", result: { ...outcome.result, ...result } };
    } else if (e.type === "library_error") {
      outcome = { status: "error", error: e.error, result: outcome.result };
    } else if (e.type === "graph_done") {
      const { type: _t, ...graph } = e;
      outcome = { ...outcome, result: { ...outcome.result, graph } };
    } else if (e.type === "graph_error") {
      // the papers and their vectors are fine: the graph is built again by the next step
      outcome = { ...outcome, result: { ...outcome.result, graphError: e.error } };
    }
  });
  await pending;
  await setLibraryStep(ctx.db, ids, {
    libraryStatus: outcome.status,
    libraryStage: null,
    libraryResult: outcome.result ?? null,
    libraryError: outcome.error ?? null,
  });
  return { batches: ready.length, ran: true };
}

/** An upload no unfinished file names, older than the grace period, is removed (a crash between store and row). */
export async function sweepOrphanUploads(
  storage: PdfStorage,
  handle: Pick<DbHandle, "db">,
  opts: { graceMs: number; now?: Date },
): Promise<{ checked: number; removed: StoredObject[] }> {
  const cutoff = (opts.now ?? new Date()).getTime() - opts.graceMs;
  const objects: StoredObject[] = [];
  for await (const o of storage.list(UPLOAD_FOLDER)) objects.push(o);
  const needed = await pendingUploadKeys(handle.db);
  const removed: StoredObject[] = [];
  for (const o of objects) {
    if (needed.has(o.key) || o.lastModified.getTime() >= cutoff) continue;
    await storage.delete(o.key);
    removed.push(o);
  }
  return { checked: objects.length, removed };
}

/** What a file left without a job says (its worker died on its last attempt, or its job was lost). */
export const ABANDONED_FILE_ERROR =
  "The worker stopped while working on this file and its retries are used up; add the file again.";
/** A file whose row has not changed for this long is checked for a live job. */
export const ABANDONED_FILE_GRACE_MS = 10 * 60_000;

/**
 * Ends the files that no job will finish: queued or running, unchanged for `graceMs`, and with no ingest-file or
 * download-file job still waiting, retrying or active for them — a worker killed during the last attempt leaves its
 * job failed by expiry and its file `running` for ever. Each is failed with ABANDONED_FILE_ERROR, its upload removed,
 * and the library step asked for (its batch may now be complete). Part of the scheduled sweep.
 */
export async function failAbandonedFiles(
  ctx: Pick<IngestContext, "db" | "storage">,
  queue: JobQueue,
  { graceMs = ABANDONED_FILE_GRACE_MS, now = new Date() }: { graceMs?: number; now?: Date } = {},
): Promise<string[]> {
  const stale = await listStaleIngestFiles(ctx.db, { updatedBefore: new Date(now.getTime() - graceMs) });
  const failed: string[] = [];
  for (const f of stale) {
    const jobs = (
      await Promise.all(
        [QUEUES.ingestFile, QUEUES.downloadFile].map((name) =>
          queue.boss.findJobs(name, { data: { fileId: f.id } satisfies Partial<IngestFileJobData> }),
        ),
      )
    ).flat();
    if (jobs.some((j) => j.state === "created" || j.state === "retry" || j.state === "active")) continue;
    const ended = await finishIngestFile(ctx.db, {
      id: f.id,
      status: "error",
      paperId: null,
      title: null,
      pages: 0,
      chunks: 0,
      error: ABANDONED_FILE_ERROR,
      errorCode: "internal:interrupted",
    });
    if (!ended) continue;
    failed.push(f.id);
    if (f.uploadKey) await ctx.storage.delete(f.uploadKey).catch(() => {});
  }
  if (failed.length > 0) await queue.boss.send(QUEUES.libraryStep, {});
  return failed;
}
