/**
 * Where stored PDFs live, behind one interface: a local directory (the default) or an S3-compatible object store.
 *
 * Keys are relative, `/`-separated paths — the papers' `file_path` column holds them (`pdfs/<sha256>.pdf`, see
 * keys.ts) — so a row names its object the same way in either store.
 */
export interface StoredObject {
  key: string;
  size: number;
  lastModified: Date;
}

/** Bytes `start` to `end`, both included (as in an HTTP `Range` header). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface PdfStorage {
  /** Where the objects are, for messages and the CLI: a directory, or `s3://bucket/prefix`. Never a credential. */
  readonly location: string;
  /**
   * Stores `bytes` under `key`, replacing what was there. All or nothing: the object appears under its key only once
   * complete (a temporary file renamed, or one S3 PUT), so a crash never leaves a truncated PDF under the final key.
   * Storing the same bytes again is harmless, and refreshes the object's last-modified time (see sweep.ts).
   */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The object's size and last-modified time, or null when there is none under `key`. */
  head(key: string): Promise<StoredObject | null>;
  /**
   * The object's bytes (`range`: only those), as a stream. A missing key is a `not_found:file` error, thrown here
   * before any byte is streamed. `signal` stops the read (a client that went away).
   */
  read(key: string, opts?: { range?: ByteRange; signal?: AbortSignal }): Promise<ReadableStream<Uint8Array>>;
  /** Removes the object; nothing under `key` is not an error. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `folder` (ending in `/`), in no particular order. */
  list(folder: string): AsyncIterable<StoredObject>;
}
