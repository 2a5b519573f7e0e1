import type { IngestFileResult, IngestProgressEvent } from "@/lib/ingest/progress";

/**
 * One line of the NDJSON stream of `POST /api/ingest`: the pipeline's progress events as they happen, then `done`
 * with every file's result — or `fatal` when nothing could be done (e.g. the database is unavailable).
 */
export type IngestStreamEvent =
  /** First: the files are queued as this batch (lib/jobs); the library page's queue shows it from any instance. */
  | { type: "queued"; batch_id: string }
  | IngestProgressEvent
  | { type: "done"; results: IngestFileResult[] }
  | { type: "fatal"; error: { code: string; message: string } };

/** The multipart field the upload sends its files in. */
export const INGEST_FILES_FIELD = "files";
