/** The contract between the ingestion pipeline and its callers (web upload stream, CLI progress bar, tests). */

import type { LibraryStage, LibraryVectorsRefresh } from "@/lib/embeddings/library";

export type IngestStatus = "ingested" | "unchanged" | "replaced" | "error";

/** One file's outcome. Field names are the CLI's `--json` contract. */
export interface IngestFileResult {
  file: string;
  status: IngestStatus;
  paper_id: string | null;
  title: string | null;
  pages: number;
  chunks: number;
  error: string | null;
  /** Stable error code (`bad_request:pdf`, …) when status is `error`. */
  error_code: string | null;
}

/** `downloading`: a queued download's job fetching the PDF (lib/jobs, arXiv); the pipeline's own stages follow. */
export type IngestStage =
  | "downloading"
  | "validating"
  | "extracting"
  | "chunking"
  | "summarizing"
  | "embedding"
  | "saving";

/** Steps of the library step after a batch (defined with it, lib/embeddings/library.ts). */
export type { LibraryStage };

export type IngestProgressEvent =
  | { type: "file_start"; index: number; total: number; file: string }
  | { type: "file_stage"; index: number; file: string; stage: IngestStage; done?: number; of?: number }
  | { type: "file_done"; index: number; result: IngestFileResult }
  /**
   * After the files: the library's vectors brought up to date — with the offline latent embedder, the new passages'
   * vectors (its model refitted when the library has grown) — then the new vectors' hubness (lib/embeddings/hubness.ts).
   */
  | { type: "library_stage"; stage: LibraryStage; done: number; of: number }
  | ({ type: "library_done" } & LibraryVectorsRefresh)
  /** The papers are stored and found by full text; their vectors come with the next batch (or `reembed`). */
  | { type: "library_error"; error: string }
  /**
   * Then the knowledge graph for the batch's new and replaced papers (lib/graph, offline rules): progress per paper,
   * its counts, or why it failed (the papers stay stored; the next library step or `graph build` tries again).
   */
  | { type: "graph_stage"; done: number; of: number }
  | { type: "graph_done"; papers: number; accepted: number; review: number; rejected: number; ms: number }
  | { type: "graph_error"; error: string };

export interface IngestInput {
  /** Display name (the uploaded or on-disk file name). */
  name: string;
  /** Loaded lazily so a batch of large files is never all in memory at once. */
  read(): Promise<Uint8Array>;
  /** Size in bytes, when known before reading (checked against the limit without reading). */
  size?: number;
  /**
   * Metadata from a source trusted over the PDF's own text (the arXiv API, a reference manager's export): each field
   * given replaces what the heuristics read off the PDF. Fields a user corrected on a paper this one replaces still win.
   */
  metadata?: TrustedMetadata;
  /**
   * The id of a stored paper this file is a new version of, when its id differs (`2106.09685v1` replaced by the
   * `2106.09685v2` PDF): that paper is replaced in the same transaction, as a same-id paper would be.
   */
  replaces?: string;
}

/** Bibliographic fields a trusted source gives; every one optional, blank ones ignored. */
export interface TrustedMetadata {
  title?: string;
  authors?: string[];
  abstract?: string;
  categories?: string[];
  /** ISO date `YYYY-MM-DD`. */
  publishedDate?: string;
  year?: number;
  doi?: string;
  /** With version when known (`1706.03762v5`): it becomes the paper's id. */
  arxivId?: string;
  /** Journal, proceedings, or arXiv's journal reference. */
  venue?: string;
}
