import type { DbHandle } from "@/db";
import { type IngestBatchWithFiles, listActiveIngestBatches, QUEUE_CHANNEL } from "@/db/queries/jobs";

/** Finished batches stay in the queue this long, so a reload still shows what just ended. */
export const QUEUE_RECENT_MS = 10 * 60 * 1000;
/** The queue shows this many batches at most, newest first. */
export const QUEUE_LIMIT = 10;
/** The longest a page's request for the queue may wait for a change (GET /api/ingest/queue?wait=…). */
export const QUEUE_MAX_WAIT_MS = 30_000;

/** Has the batch work left (files or its library step)? */
export function batchHasWork(b: Pick<IngestBatchWithFiles, "libraryStatus">): boolean {
  return b.libraryStatus === "waiting" || b.libraryStatus === "running";
}

/** The ingestion queue as the library page shows it: batches with work left and those that ended recently. */
export function readQueue(handle: Pick<DbHandle, "db">): Promise<IngestBatchWithFiles[]> {
  return listActiveIngestBatches(handle.db, { recentMs: QUEUE_RECENT_MS, limit: QUEUE_LIMIT });
}

/**
 * The queue for a page that has it idle (nothing with work left; `newest` the id of the newest batch it shows, `""`
 * for none): at once when the queue is no longer that (a batch has work, or another is newest), else as soon as a
 * batch is queued (its NOTIFY on QUEUE_CHANNEL, from any instance, worker or the CLI), else after `waitMs` or when
 * `signal` aborts (the page went away). So an idle page learns of new work at once without
 * asking every second. Listening starts before the first read: a batch committed between the two is in that read.
 */
export async function waitForQueueChange(
  handle: Pick<DbHandle, "db" | "listen">,
  { newest, waitMs, signal }: { newest: string; waitMs: number; signal?: AbortSignal },
): Promise<IngestBatchWithFiles[]> {
  let wake = () => {};
  const woken = new Promise<void>((resolve) => {
    wake = resolve;
  });
  // without notifications (a lost listening connection) the page still gets the queue when the wait ends
  const stop = await handle.listen(QUEUE_CHANNEL, () => wake()).catch(() => null);
  const timer = setTimeout(wake, Math.max(0, waitMs));
  signal?.addEventListener("abort", wake, { once: true });
  try {
    const now = await readQueue(handle);
    if ((now[0]?.id ?? "") !== newest || now.some(batchHasWork)) return now;
    await woken;
    return signal?.aborted ? now : await readQueue(handle);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", wake);
    await stop?.();
  }
}
