import type { Database } from "@/db";
import { FINAL_FILE_STATUSES, getIngestBatch } from "@/db/queries/jobs";
import type { IngestFileRow } from "@/db/schema";
import type { LibraryStage, LibraryVectorsRefresh } from "@/lib/embeddings/library";
import type { IngestFileResult, IngestProgressEvent, IngestStage } from "@/lib/ingest/progress";

/** A file row's outcome in the pipeline's terms (the CLI's `--json` contract). */
export function fileResultOf(f: IngestFileRow): IngestFileResult {
  return {
    file: f.fileName,
    status: f.status === "queued" || f.status === "running" ? "error" : f.status,
    paper_id: f.paperId,
    title: f.title,
    pages: f.pages ?? 0,
    chunks: f.chunks ?? 0,
    error: f.status === "queued" || f.status === "running" ? "Not finished." : f.error,
    error_code: f.errorCode,
  };
}

type GraphDone = Omit<Extract<IngestProgressEvent, { type: "graph_done" }>, "type">;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

/**
 * Follows a queued batch from the database — from any process, whichever workers run its jobs — and reports it as
 * the pipeline's progress events (the upload stream and the CLI's progress bar read these): each file's start, stages
 * and outcome, then the library step. Resolves with the files' results when the batch and its library step have
 * ended; `null` when `signal` stops the following first (the jobs go on) or the batch does not exist.
 */
export async function followBatch(
  db: Database,
  batchId: string,
  opts: { onEvent: (e: IngestProgressEvent) => void; signal?: AbortSignal; intervalMs?: number },
): Promise<IngestFileResult[] | null> {
  const interval = opts.intervalMs ?? 250;
  const started = new Set<string>();
  const finished = new Set<string>();
  const stageSeen = new Map<string, string>();
  let libraryStageSeen = "";
  let libraryReported = false;
  while (!opts.signal?.aborted) {
    const batch = await getIngestBatch(db, { id: batchId });
    if (!batch) return null;
    const total = batch.files.length;
    for (const [index, f] of batch.files.entries()) {
      const final = FINAL_FILE_STATUSES.includes(f.status);
      if (!started.has(f.id) && (f.status === "running" || final)) {
        started.add(f.id);
        opts.onEvent({ type: "file_start", index, total, file: f.fileName });
      }
      if (f.status === "running" && f.stage) {
        const key = `${f.stage}:${f.stageDone}:${f.stageOf}`;
        if (stageSeen.get(f.id) !== key) {
          stageSeen.set(f.id, key);
          opts.onEvent({
            type: "file_stage",
            index,
            file: f.fileName,
            stage: f.stage as IngestStage,
            ...(f.stageDone !== null ? { done: f.stageDone } : {}),
            ...(f.stageOf !== null ? { of: f.stageOf } : {}),
          });
        }
      }
      if (final && !finished.has(f.id)) {
        finished.add(f.id);
        opts.onEvent({ type: "file_done", index, result: fileResultOf(f) });
      }
    }
    if (batch.libraryStatus === "running" && batch.libraryStage) {
      const key = `${batch.libraryStage}:${batch.libraryDone}:${batch.libraryOf}`;
      if (key !== libraryStageSeen) {
        libraryStageSeen = key;
        const progress = { done: batch.libraryDone ?? 0, of: batch.libraryOf ?? 0 };
        opts.onEvent(
          batch.libraryStage === "graph"
            ? { type: "graph_stage", ...progress }
            : { type: "library_stage", stage: batch.libraryStage as LibraryStage, ...progress },
        );
      }
    }
    const filesDone = finished.size === total;
    if (filesDone && !libraryReported && (batch.libraryStatus === "done" || batch.libraryStatus === "error")) {
      libraryReported = true;
      const { graph, graphError, ...vectors } = (batch.libraryResult ?? {}) as Record<string, unknown>;
      if (batch.libraryStatus === "done" && batch.libraryResult) {
        opts.onEvent({ type: "library_done", ...(vectors as unknown as LibraryVectorsRefresh) });
      } else if (batch.libraryStatus === "error") {
        opts.onEvent({ type: "library_error", error: batch.libraryError ?? "The library step failed." });
      }
      if (graph) opts.onEvent({ type: "graph_done", ...(graph as GraphDone) });
      if (typeof graphError === "string") opts.onEvent({ type: "graph_error", error: graphError });
    }
    if (filesDone && batch.libraryStatus !== "waiting" && batch.libraryStatus !== "running") {
      return batch.files.map(fileResultOf);
    }
    await sleep(interval, opts.signal);
  }
  return null;
}
