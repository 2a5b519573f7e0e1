import type { DbHandle } from "@/db";
import { reembedLibrary } from "@/lib/embeddings/guard";
import { refreshLibraryVectors } from "@/lib/embeddings/library";
import { getEnv } from "@/lib/env";
import { briefError } from "@/lib/errors";
import { type ExtractionPool, getSharedExtractionPool } from "@/lib/ingest/extract-pool";
import { createIngestContext, type IngestContext } from "@/lib/ingest/pipeline";
import { getArxivClient } from "@/lib/sources/arxiv";
import { DEFAULT_SWEEP_GRACE_MS, sweepOrphanObjects } from "@/lib/storage/sweep";
import { arxivDownloader, type PdfDownloader } from "./download";
import {
  type DownloadFileJobData,
  failAbandonedFiles,
  type IngestFileJobData,
  sweepOrphanUploads,
  workDownloadFile,
  workIngestFile,
  workLibraryStep,
} from "./ingest";
import { getJobQueue, type JobQueue, QUEUES, workContinuously } from "./queue";

/** Retries of a file's job after its first attempt (the ingest-file queue's retryLimit, queue.ts). */
const INGEST_RETRY_LIMIT = 3;
/** Retries of a download's job after its first attempt (the download-file queue's retryLimit, queue.ts). */
const DOWNLOAD_RETRY_LIMIT = 3;
/** The storage sweep's schedule (cron, UTC): hourly. */
const SWEEP_CRON = "17 * * * *";

export interface Worker {
  queue: JobQueue;
  /** What this worker has done so far. */
  stats: { files: number; librarySteps: number; sweeps: number };
  /** Stops taking jobs; waits for the running ones (up to `timeoutMs`), then closes the extraction pool. */
  stop(opts?: { timeoutMs?: number }): Promise<void>;
}

export interface WorkerOptions {
  /** Files ingested at once. */
  concurrency: number;
  /**
   * The worker threads PDF text extraction runs in (closed by `stop`); default: the process's shared pool
   * (`concurrency` threads at most, one per core), so the app's in-process worker never reads a PDF on its event loop.
   */
  pool?: ExtractionPool;
  /** How download-file jobs fetch PDFs; default: the process's arXiv client (LECTERN_ARXIV_*). */
  download?: PdfDownloader;
  /** The ingestion context (tests give their own); default: the process's, on `handle`. */
  ctx?: IngestContext;
  /** Seconds between polls when no NOTIFY wakes the worker (tests: short). */
  pollingIntervalSeconds?: number;
  log?: (line: string) => void;
}

/**
 * Works the job queue in this process: files (a few at once), downloads, the library step, the library refresh after
 * a deletion or an edit, re-embedding the library, the hourly storage sweep. At start
 * it asks for a library step, which finishes what a process that died left (batches whose step never ran; passages
 * without vectors are given theirs by the step itself).
 */
export async function startWorker(handle: DbHandle, opts: WorkerOptions): Promise<Worker> {
  const log = opts.log ?? ((line: string) => console.log(`[worker] ${line}`));
  const queue = await getJobQueue(handle);
  const ctx =
    opts.ctx ??
    createIngestContext(handle, {
      extract: (opts.pool ?? getSharedExtractionPool(opts.concurrency)).extract,
      lookahead: 0,
    });
  const stats = { files: 0, librarySteps: 0, sweeps: 0 };
  // the same interval when NOTIFY is on (PostgreSQL): pg-boss then waits its 30 s backstop between fetches unless a
  // notification wakes it, and one NOTIFY per sent batch woke each worker once — a backlog of 20 files took 30 s per
  // file per worker
  const pollingIntervalSeconds = opts.pollingIntervalSeconds ?? 2;
  const polling = { pollingIntervalSeconds, notifyPollingIntervalSeconds: pollingIntervalSeconds };
  // (a loop that finished a file takes the next at once: workContinuously)
  await workContinuously<IngestFileJobData>(
    queue.boss,
    QUEUES.ingestFile,
    { ...polling, concurrency: opts.concurrency },
    (job) => workIngestFile(job, { ctx, queue, retryLimit: INGEST_RETRY_LIMIT, log }),
  );
  const download = opts.download ?? arxivDownloader(getArxivClient(getEnv()));
  await workContinuously<DownloadFileJobData>(
    queue.boss,
    QUEUES.downloadFile,
    { ...polling, concurrency: opts.concurrency },
    (job) => workDownloadFile(job, { ctx, queue, download, retryLimit: DOWNLOAD_RETRY_LIMIT }),
  );
  await queue.boss.work(QUEUES.libraryStep, polling, async () => {
    const r = await workLibraryStep(ctx);
    if (r.ran) log(`library step done for ${r.batches} batch(es)`);
  });
  await queue.boss.work(QUEUES.libraryRefresh, polling, async () => {
    // thrown failures are retried by pg-boss (backoff, queue.ts)
    const r = await refreshLibraryVectors(ctx.db, ctx.embedder);
    if (r.fitted || r.embedded > 0 || r.neighbours > 0) {
      log(
        `library vectors refreshed: ${r.fitted ? "refitted, " : ""}${r.embedded} vectors, ${r.neighbours} neighbours`,
      );
    }
  });
  await queue.boss.work(QUEUES.libraryReembed, polling, async ([job]) => {
    let last = 0;
    const r = await reembedLibrary(ctx.db, ctx.embedder, {
      signal: job?.signal,
      onProgress: (p) => {
        if (Date.now() - last < 2000 && p.done < p.total) return;
        last = Date.now();
        log(`re-embedding ${p.table} ${p.done}/${p.total}`);
      },
    });
    log(`re-embedded ${r.chunks} passages and ${r.summaryChunks} summary passages`);
    // the job's output (what `cli reembed` prints)
    return r;
  });
  await queue.boss.work(QUEUES.storageSweep, polling, async () => {
    const objects = await sweepOrphanObjects(ctx.storage, ctx.db, { graceMs: DEFAULT_SWEEP_GRACE_MS });
    const uploads = await sweepOrphanUploads(ctx.storage, { db: ctx.db }, { graceMs: DEFAULT_SWEEP_GRACE_MS });
    const n = objects.removed.length + uploads.removed.length;
    if (n > 0) log(`sweep removed ${n} orphaned object(s) from ${objects.location}`);
    const abandoned = await failAbandonedFiles(ctx, queue);
    if (abandoned.length > 0) log(`sweep failed ${abandoned.length} file(s) no job will finish`);
  });
  await queue.boss.schedule(QUEUES.storageSweep, SWEEP_CRON, {}, { tz: "UTC" });
  await queue.boss.send(QUEUES.libraryStep, {}).catch((e) => log(`library step not queued: ${briefError(e)}`));
  let stopped = false;
  return {
    queue,
    stats,
    async stop({ timeoutMs = 30_000 } = {}) {
      if (stopped) return;
      stopped = true;
      await queue.stop({ graceful: true, timeoutMs });
      await opts.pool?.close();
    },
  };
}
