import type { IngestContext } from "@/lib/ingest/pipeline";
import { ingestFiles } from "@/lib/ingest/pipeline";
import type { IngestFileResult, IngestInput } from "@/lib/ingest/progress";
import { emptyResult, type SourceItemResult, type SourceProgressEvent } from "./types";

/** A PDF to ingest for an item of a list (an arXiv id, a bibliography entry). */
export interface PlannedPdf {
  /** The item's index in the list the caller announced. */
  index: number;
  label: string;
  input: IngestInput;
  arxivId: string | null;
}

export interface SourceRunOptions {
  onProgress?: (e: SourceProgressEvent) => void;
  signal?: AbortSignal;
  /** Who adds (the audit trail); null or absent: the command line. */
  actor?: { id: string; email: string } | null;
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
 * Ingests the planned PDFs as one batch of the ingestion pipeline (each file on its own: one failing never stops the
 * others or leaves anything half-written; the library step runs once at the end), reporting each as its item.
 */
export async function ingestPlanned(
  planned: PlannedPdf[],
  ctx: IngestContext,
  opts: SourceRunOptions,
): Promise<Map<number, SourceItemResult>> {
  const emit = opts.onProgress ?? (() => {});
  const out = new Map<number, SourceItemResult>();
  if (planned.length === 0) return out;
  await ingestFiles(
    planned.map((p) => p.input),
    ctx,
    {
      signal: opts.signal,
      actor: opts.actor,
      onProgress: (e) => {
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
    },
  );
  return out;
}
