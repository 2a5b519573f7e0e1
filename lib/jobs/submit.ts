import { getDbHandle } from "@/db";
import { createIngestContext } from "@/lib/ingest/pipeline";
import type { IngestFileResult, IngestInput, IngestProgressEvent } from "@/lib/ingest/progress";
import { followBatch } from "./follow";
import { enqueueIngest } from "./ingest";
import { ensureInlineWorker } from "./inline";
import { getJobQueue, type JobQueue } from "./queue";

/**
 * The process's job queue, with a worker to take its jobs: this process's own (`LECTERN_WORKER=inline`, started here
 * if the server's start could not), or `npm run worker` processes. What the importers (arXiv, a bibliography) queue on.
 */
export async function getWorkedQueue(): Promise<JobQueue> {
  const handle = await getDbHandle();
  await ensureInlineWorker(handle);
  return getJobQueue(handle);
}

/**
 * Queues files on the process's database and follows their batch until it ends (an upload's stream): the jobs run on
 * whichever worker takes them — this process's own (`LECTERN_WORKER=inline`) or `npm run worker` processes. `signal`
 * stops the following, not the jobs: an upload whose page was closed is still ingested, and the library page shows
 * it. Throws when nothing can be queued (the database is unavailable); null when the following was stopped.
 */
export async function submitIngest(
  inputs: IngestInput[],
  opts: {
    actor: { id: string; email: string } | null;
    origin: string;
    signal?: AbortSignal;
    onEvent: (e: IngestProgressEvent) => void;
    onQueued?: (batchId: string) => void;
  },
): Promise<IngestFileResult[] | null> {
  const handle = await getDbHandle();
  const ctx = createIngestContext(handle);
  await ensureInlineWorker(handle);
  const queue = await getJobQueue(handle);
  const { batchId } = await enqueueIngest(handle, queue, ctx.storage, inputs, {
    actor: opts.actor,
    origin: opts.origin,
    maxUploadBytes: ctx.maxUploadBytes,
  });
  opts.onQueued?.(batchId);
  return followBatch(handle.db, batchId, { onEvent: opts.onEvent, signal: opts.signal });
}
