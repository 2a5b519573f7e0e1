import { batchHasWork } from "@/lib/jobs/batch-state";

/** One file of a queued batch, as the library page's queue shows it (GET /api/ingest/queue). */
export interface QueueFile {
  id: string;
  /** The file's name (never a server path). */
  name: string;
  status: "queued" | "running" | "ingested" | "unchanged" | "replaced" | "error";
  stage: string | null;
  done: number | null;
  of: number | null;
  attempts: number;
  paperId: string | null;
  title: string | null;
  error: string | null;
}

export interface QueueBatch {
  id: string;
  origin: string;
  createdAt: string;
  libraryStatus: "waiting" | "running" | "done" | "error" | "skipped";
  libraryStage: string | null;
  libraryDone: number | null;
  libraryOf: number | null;
  libraryError: string | null;
  files: QueueFile[];
}

/** Has the batch work left (its files, or its library step after them)? */
export const batchActive: (b: QueueBatch) => boolean = batchHasWork;

/**
 * The batches of `batches` that have ended (their library step done, failed or skipped) and are not in `seen`, which
 * is given them. A page refreshes its paper list when this is not empty: a batch can start and end between two of the
 * queue's polls (a few small files, fast workers), so the list cannot wait to see it running first.
 */
export function newlyFinished(batches: readonly QueueBatch[], seen: Set<string>): string[] {
  const fresh = batches.filter((b) => !batchActive(b) && !seen.has(b.id)).map((b) => b.id);
  for (const id of fresh) seen.add(id);
  return fresh;
}

/**
 * Whether the queue's list is open before the user opens or closes it: while a batch has work left (its files or its
 * library step), or when something failed (a file, or a library step) — a list of finished work is folded to its count.
 */
export function queueOpenByDefault(batches: readonly QueueBatch[]): boolean {
  return batches.some(
    (b) => batchActive(b) || b.libraryStatus === "error" || b.files.some((f) => f.status === "error"),
  );
}
