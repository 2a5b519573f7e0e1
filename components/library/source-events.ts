import type { SourceItemResult, SourceProgressEvent } from "@/lib/sources/types";

/**
 * One line of the NDJSON stream of `POST /api/sources/arxiv` and `POST /api/sources/import`: each item's progress as
 * it happens, then `done` with every item's result — or `fatal` when nothing could be done (arXiv unreachable for the
 * lookup, the database unavailable, an unreadable bibliography).
 */
export type SourceStreamEvent =
  | SourceProgressEvent
  | { type: "done"; results: SourceItemResult[] }
  | { type: "fatal"; error: { code: string; message: string } };

/** The multipart field of the import upload: the bibliography (.bib or .json) and the PDFs, together. */
export const IMPORT_FILES_FIELD = "files";
