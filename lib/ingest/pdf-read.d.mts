/** Types of pdf-read.mjs (plain JavaScript so it runs as a worker thread's entry without a loader). */

export interface RawPdf {
  pageCount: number;
  /** The info dictionary's string, number and boolean values (`Title`, `Author`, `CreationDate`, …). */
  info: Record<string, string | number | boolean>;
  /** Raw text per page, index 0 = page 1. */
  pages: string[];
}

export interface ReadPdfOptions {
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (donePages: number, totalPages: number) => void;
  /** What the file's compressed streams other than images may expand to in all (default `INFLATE_LIMIT_MB`). */
  inflateLimitBytes?: number;
}

export function readPdf(bytes: Uint8Array, opts?: ReadPdfOptions): Promise<RawPdf>;

export const PDF_READER_ROLE: "lectern-pdf-reader";

export const INFLATE_LIMIT_MB: number;

/** Throws an error named `PdfBombException` when the file's compressed streams (images left out) expand past the
 *  limit; else the bytes they expand to. */
export function checkInflatedSize(bytes: Uint8Array, limitBytes?: number): number;
