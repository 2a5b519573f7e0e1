import type { IngestContext } from "@/lib/ingest/pipeline";
import type { IngestFileResult } from "@/lib/ingest/progress";
import { followBatch } from "@/lib/jobs/follow";
import { enqueueIngest, type QueuedInput } from "@/lib/jobs/ingest";
import type { JobQueue } from "@/lib/jobs/queue";
import { emptyResult, type SourceItemResult, type SourceProgressEvent } from "./types";

/** A PDF to ingest for an item of a list (an arXiv id, a bibliography entry): a file at hand or one to download. */
export interface PlannedPdf {
  /** The item's index in the list the caller announced. */
  index: number;
  label: string;
  input: QueuedInput;
  arxivId: string | null;
}

/**
 * Where an importer's PDFs go: the job queue on the library's database, with a worker taking its jobs (this process's
 * own, or `npm run worker` processes) — the same queue as uploads.
 */
export interface SourceJobs {
  queue: JobQueue;
  /** What the batch is in the queue panel: "arxiv" or "bibliography". */
  origin: string;
}

export interface SourceRunOptions {
  onProgress?: (e: SourceProgressEvent) => void;
  /** Stops following the items (their jobs go on: the library page's queue shows them). */
  signal?: AbortSignal;
  /** Who adds (the audit trail); null or absent: the command line. */
  actor?: { id: string; email: string } | null;
  /** false: queue the PDFs and report them `queued` without waiting for their jobs (`--enqueue-only`). */
  follow?: boolean;
}

/** What the pipeline said of one file, as an item's result. */
export function itemResultOf(planned: Pick<PlannedPdf, "label" | "arxivId">, r: IngestFileResult): SourceItemResult {
  const common = { arxiv_id: planned.arxivId, paper_id: r.paper_id, title: r.title, pages: r.pages, chunks: r.chunks };
  if (r.status === "ingested" || r.status === "replaced") return emptyResult(planned.label, r.status, common);
  if (r.status === "unchanged") {
    return emptyResult(planned.label, "already_in_library", { ...common, detail: "The same PDF is in the library." });
  }
  return emptyResult(planned.label, "error", {
    arxiv_id: planned.arxivId,
    error: r.error,
    error_code: r.error_code,
  });
}

/**
 * Queues the planned PDFs as one batch of ingestion jobs (a download job first for those to fetch; each file on its
 * own: one failing never stops the others or leaves anything half-written; the library step runs after them) and
 * follows the batch, reporting each file as its item. Items not ended when `signal` stops the following are absent
 * from the map.
 */
export async function ingestPlanned(
  planned: PlannedPdf[],
  ctx: IngestContext,
  jobs: SourceJobs,
  opts: SourceRunOptions,
): Promise<Map<number, SourceItemResult>> {
  const emit = opts.onProgress ?? (() => {});
  const out = new Map<number, SourceItemResult>();
  if (planned.length === 0) return out;
  const { batchId } = await enqueueIngest(
    { db: ctx.db },
    jobs.queue,
    ctx.storage,
    planned.map((p) => p.input),
    { actor: opts.actor ?? null, origin: jobs.origin, maxUploadBytes: ctx.maxUploadBytes },
  );
  if (opts.follow === false) {
    for (const p of planned) {
      const result = emptyResult(p.label, "queued", { arxiv_id: p.arxivId, detail: `In batch ${batchId}.` });
      out.set(p.index, result);
      emit({ type: "item_done", index: p.index, result });
    }
    return out;
  }
  await followBatch(ctx.db, batchId, {
    signal: opts.signal,
    onEvent: (e) => {
      if (e.type === "file_stage") {
        const p = planned[e.index];
        if (p) emit({ type: "item_stage", index: p.index, stage: e.stage, done: e.done, of: e.of });
      } else if (e.type === "file_done") {
        const p = planned[e.index];
        if (!p) return;
        const result = itemResultOf(p, e.result);
        out.set(p.index, result);
        emit({ type: "item_done", index: p.index, result });
      } else if (e.type === "library_stage" || e.type === "library_done" || e.type === "library_error") {
        emit(e);
      }
    },
  });
  return out;
}
