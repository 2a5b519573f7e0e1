import type { DbHandle } from "@/db";
import { type IngestBatchWithFiles, listActiveIngestBatches, QUEUE_CHANNEL } from "@/db/queries/jobs";
import { batchHasWork } from "./batch-state";

/** Finished batches stay in the queue this long, so a reload still shows what just ended. */
export const QUEUE_RECENT_MS = 10 * 60 * 1000;
/** The queue shows this many batches at most, newest first. */
export const QUEUE_LIMIT = 10;
/** The longest a page's request for the queue may wait for a change (GET /api/ingest/queue?wait=…). */
export const QUEUE_MAX_WAIT_MS = 30_000;
/** Waits one account may hold at once in a process; past them its requests are answered at once (a few tabs open). */
export const QUEUE_WAITS_PER_HOLDER = 4;

type Queue = IngestBatchWithFiles[];

/** The ingestion queue as the library page shows it: batches with work left and those that ended recently. */
export function readQueue(handle: Pick<DbHandle, "db">): Promise<Queue> {
  return listActiveIngestBatches(handle.db, { recentMs: QUEUE_RECENT_MS, limit: QUEUE_LIMIT });
}

/**
 * One listener on QUEUE_CHANNEL per database handle, shared by the process's waiting requests: a NOTIFY wakes them
 * all with one read of the queue between them (not one each), and a hundred open pages hold one subscription.
 */
interface Watch {
  waiters: Set<(queue: Promise<Queue>) => void>;
  /** Settles once the handle listens; false when it cannot (the waits then end by their timers). */
  listening: Promise<boolean>;
}
const watches = new WeakMap<object, Watch>();

function watchOf(handle: Pick<DbHandle, "db" | "listen">): Watch {
  const known = watches.get(handle.db);
  if (known) return known;
  const waiters: Watch["waiters"] = new Set();
  const listening = handle
    .listen(QUEUE_CHANNEL, () => {
      if (waiters.size === 0) return;
      const queue = readQueue(handle);
      queue.catch(() => {}); // each waiter sees the failure itself
      const woken = [...waiters];
      waiters.clear();
      for (const wake of woken) wake(queue);
    })
    .then(
      () => true,
      () => {
        watches.delete(handle.db); // the next wait tries again
        return false;
      },
    );
  const watch = { waiters, listening };
  watches.set(handle.db, watch);
  return watch;
}

/** Waits each holder has open, in this process. */
const held = new Map<string, number>();

/** How many waits `holder` has open in this process (what QUEUE_WAITS_PER_HOLDER bounds). */
export function waitsHeld(holder: string): number {
  return held.get(holder) ?? 0;
}

/**
 * The queue for a page that has it idle (nothing with work left; `newest` the id of the newest batch it shows, `""`
 * for none): at once when the queue is no longer that (a batch has work, or another is newest), else as soon as a
 * batch is queued (its NOTIFY on QUEUE_CHANNEL, from any instance, worker or the CLI), else after `waitMs` or when
 * `signal` aborts (the page went away). So an idle page learns of new work at once without asking every second.
 * Listening starts before the first read: a batch committed between the two is in that read. `holder` (an account)
 * may hold QUEUE_WAITS_PER_HOLDER waits at once; past them it gets the queue at once.
 */
export async function waitForQueueChange(
  handle: Pick<DbHandle, "db" | "listen">,
  { newest, waitMs, signal, holder }: { newest: string; waitMs: number; signal?: AbortSignal; holder?: string },
): Promise<Queue> {
  const watch = watchOf(handle);
  const changed = (queue: Queue) => (queue[0]?.id ?? "") !== newest || queue.some(batchHasWork);
  let wake!: (queue: Promise<Queue> | null) => void;
  let woken!: Promise<Promise<Queue> | null>;
  const arm = () => {
    woken = new Promise((resolve) => {
      wake = resolve;
    });
  };
  arm();
  let over = false;
  const ended = () => {
    over = true;
    wake(null);
  };
  // woken by a NOTIFY from before the first read on: one that comes during the read is not lost
  const listening = await watch.listening;
  if (listening) watch.waiters.add(wake);
  let holding = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    let now = await readQueue(handle);
    if (changed(now) || signal?.aborted) return now;
    if (holder !== undefined) {
      if ((held.get(holder) ?? 0) >= QUEUE_WAITS_PER_HOLDER) return now;
      held.set(holder, (held.get(holder) ?? 0) + 1);
      holding = true;
    }
    timer = setTimeout(ended, Math.max(0, waitMs));
    signal?.addEventListener("abort", ended, { once: true });
    for (;;) {
      const queue = await woken;
      if (!queue) return signal?.aborted ? now : await readQueue(handle);
      // listening again before the woken read settles (no NOTIFY can come in between: this runs in the waking
      // task's microtasks), so a batch committed after that read began still wakes this wait
      arm();
      if (listening) watch.waiters.add(wake);
      now = await queue;
      // a NOTIFY that changed nothing this page shows (one sent before this wait began and delivered late) does not
      // end the wait
      if (changed(now) || over) return now;
    }
  } finally {
    watch.waiters.delete(wake);
    clearTimeout(timer);
    signal?.removeEventListener("abort", ended);
    if (holding && holder !== undefined) {
      const n = (held.get(holder) ?? 1) - 1;
      if (n > 0) held.set(holder, n);
      else held.delete(holder);
    }
  }
}
