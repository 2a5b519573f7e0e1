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

export function batchActive(b: QueueBatch): boolean {
  return b.libraryStatus === "waiting" || b.libraryStatus === "running";
}
