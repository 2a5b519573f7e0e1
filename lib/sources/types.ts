import type { IngestProgressEvent, IngestStage } from "@/lib/ingest/progress";

/**
 * What adding papers from outside (arXiv ids, an imported bibliography) reports, item by item: the CLI prints it,
 * the library page shows it, `--json` prints the results as they are.
 */

export type SourceItemStatus =
  /** Stored as a new paper. */
  | "ingested"
  /** Stored as a new version of a paper the library had. */
  | "replaced"
  /** The library has it (same arXiv id and version, same DOI or the same PDF bytes): nothing written. */
  | "already_in_library"
  /** The library has an older arXiv version: replace it by asking again with `replace`. */
  | "update_available"
  /** A bibliography entry without a PDF, but on arXiv: it can be downloaded from there. */
  | "arxiv_available"
  /** A bibliography entry with neither a PDF nor an arXiv id: its metadata only, nothing stored. */
  | "no_pdf"
  /** Queued and not followed (`--enqueue-only`): its jobs download and ingest it (the library page's queue). */
  | "queued"
  | "error";

/** One item's outcome. Field names are the CLI's `--json` contract. */
export interface SourceItemResult {
  /** What the item is: the id or URL as given, or the bibliography entry's key. */
  item: string;
  status: SourceItemStatus;
  /** The arXiv id concerned, with version when known. */
  arxiv_id: string | null;
  /** The paper stored (ingested, replaced) or found (already_in_library, update_available). */
  paper_id: string | null;
  title: string | null;
  pages: number;
  chunks: number;
  /** A sentence on what was found or what can be done (`arXiv has v2; the library has v1`). */
  detail: string | null;
  error: string | null;
  error_code: string | null;
}

export type SourceStage = "looking_up" | IngestStage;

export type SourceProgressEvent =
  /** Every item, before any work: the list the UI and the CLI fill in. */
  | { type: "items"; items: { index: number; label: string }[] }
  | { type: "item_stage"; index: number; stage: SourceStage; done?: number; of?: number }
  | { type: "item_done"; index: number; result: SourceItemResult }
  | Extract<IngestProgressEvent, { type: "library_stage" | "library_done" | "library_error" }>;

export function emptyResult(item: string, status: SourceItemStatus, fields: Partial<SourceItemResult> = {}) {
  return {
    item,
    status,
    arxiv_id: null,
    paper_id: null,
    title: null,
    pages: 0,
    chunks: 0,
    detail: null,
    error: null,
    error_code: null,
    ...fields,
  } satisfies SourceItemResult;
}
