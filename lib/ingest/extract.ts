import { LecternError } from "@/lib/errors";
import type { ExtractedPdf, PdfInfo } from "@/lib/ingest/types";
import { type RawPdf, readPdf } from "./pdf-read.mjs";

export interface ExtractOptions {
  /** Pages read per pdf.js pass (default 50): bounds the text held by pdf.js at once for very long PDFs. */
  batchSize?: number;
  /** Checked before each batch; an aborted signal rejects with `signal.reason`. */
  signal?: AbortSignal;
  onProgress?: (donePages: number, totalPages: number) => void;
}

/**
 * Reads a PDF's info dictionary and the text of every physical page (index 0 = page 1, as pdf.js counts), in this
 * thread (pdf-read.mjs; the worker threads of extract-pool.ts run the same reader). Text is read in page batches so
 * a PDF with thousands of pages never has all its pdf.js page text in flight at once. The caller's `bytes` stay intact.
 */
export async function extractPdf(bytes: Uint8Array, opts: ExtractOptions = {}): Promise<ExtractedPdf> {
  try {
    return extractedOf(await readPdf(bytes, opts));
  } catch (e) {
    throw mapPdfError(e, opts.signal);
  }
}

/** What the reader returned (here or in a thread), in the pipeline's terms. */
export function extractedOf(raw: RawPdf): ExtractedPdf {
  return { pageCount: raw.pageCount, info: parseInfoDict(raw.info), pages: raw.pages };
}

const CORRUPT_NAMES = new Set([
  "InvalidPDFException",
  "FormatError",
  "UnknownErrorException",
  "MissingPDFException",
  "UnexpectedResponseException",
]);

/**
 * A reader's failure as the file's error: encrypted or corrupt PDFs are the file's fault (`bad_request:pdf`), a reader
 * that cannot start is ours (`internal:pdf`); an abort stays an abort. Errors from a thread arrive as `{ name, message }`
 * rebuilt into an Error, and map the same way.
 */
export function mapPdfError(e: unknown, signal?: AbortSignal): unknown {
  if (e instanceof LecternError) return e;
  if (signal?.aborted && (e === signal.reason || isAbort(e))) return e;
  const name = e instanceof Error ? e.name : "";
  const message = e instanceof Error ? e.message : String(e);
  if (name === "PasswordException") {
    return new LecternError(
      "bad_request:pdf",
      "This PDF is encrypted (password-protected). Remove the password and upload it again.",
      { cause: e },
    );
  }
  if (name === "PdfBombException") {
    return new LecternError("bad_request:pdf", `Lectern does not read this PDF: ${shortDetail(message)}.`, {
      cause: e,
    });
  }
  if (isAbort(e)) return e;
  // A reader that cannot start (missing worker in a bundled build) is our fault, not the file's.
  if (!CORRUPT_NAMES.has(name) && /worker/i.test(message)) {
    return new LecternError("internal:pdf", "The PDF reader failed to start.", { cause: e });
  }
  return new LecternError("bad_request:pdf", `This PDF is corrupt or unreadable: ${shortDetail(message)}`, {
    cause: e,
  });
}

function isAbort(e: unknown): boolean {
  return e instanceof Error && (e.name === "AbortError" || e.name === "AbortException");
}

function shortDetail(message: string): string {
  const oneLine = message.replace(/\s+/g, " ").trim() || "unknown error";
  return oneLine.length > 120 ? `${oneLine.slice(0, 117)}...` : oneLine;
}

function infoString(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  // Some producers leave NULs or BOM remnants in info strings.
  const s = Array.from(v, (c) => (c.charCodeAt(0) < 0x20 || c === "\ufeff" ? " " : c))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
  return s || undefined;
}

/** Maps pdf.js's info dictionary (`Title`, `Author`, …) to our PdfInfo, dropping empty fields. */
export function parseInfoDict(raw: unknown): PdfInfo {
  const d = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const info: PdfInfo = {};
  const title = infoString(d.Title);
  const author = infoString(d.Author);
  const subject = infoString(d.Subject);
  const keywords = infoString(d.Keywords);
  const creationDate = typeof d.CreationDate === "string" ? parsePdfDate(d.CreationDate) : undefined;
  if (title) info.title = title;
  if (author) info.author = author;
  if (subject) info.subject = subject;
  if (keywords) info.keywords = keywords;
  if (creationDate) info.creationDate = creationDate;
  return info;
}

/**
 * Parses a PDF date string (`D:YYYYMMDDHHmmSSOHH'mm'`, every part after the year optional; O is `+`, `-` or `Z`).
 * Returns undefined for anything that is not one, or an impossible date.
 */
export function parsePdfDate(s: string): Date | undefined {
  const m = /^\s*(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*([+\-Zz])?\s*(\d{2})?'?\s*(\d{2})?'?/.exec(s);
  if (!m) return undefined;
  const num = (v: string | undefined, dflt: number) => (v === undefined ? dflt : Number(v));
  const year = num(m[1], 0);
  const month = num(m[2], 1);
  const day = num(m[3], 1);
  const hour = num(m[4], 0);
  const minute = num(m[5], 0);
  const second = num(m[6], 0);
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  let offsetMinutes = 0;
  if (m[7] === "+" || m[7] === "-") {
    offsetMinutes = (num(m[8], 0) * 60 + num(m[9], 0)) * (m[7] === "+" ? 1 : -1);
  }
  const utc = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60_000;
  const date = new Date(utc);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
