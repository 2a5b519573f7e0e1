import { PDFParse } from "pdf-parse";
import { LecternError } from "@/lib/errors";
import type { ExtractedPdf, PdfInfo } from "@/lib/ingest/types";

export interface ExtractOptions {
  /** Pages read per pdf.js pass (default 50): bounds the text held by pdf.js at once for very long PDFs. */
  batchSize?: number;
  /** Checked before each batch; an aborted signal rejects with `signal.reason`. */
  signal?: AbortSignal;
  onProgress?: (donePages: number, totalPages: number) => void;
}

const DEFAULT_BATCH = 50;
/** Pages per pdf.js call inside a batch; the event loop gets a turn after each (≈0.1-0.3 s of work for papers). */
const STEP = 10;

/**
 * Reads a PDF's info dictionary and the text of every physical page (index 0 = page 1, as pdf.js counts).
 * Text is read in page batches so a PDF with thousands of pages never has all its pdf.js page text in flight at once;
 * pdf-parse releases each page (`page.cleanup()`) after reading it, and the document is destroyed at the end.
 *
 * The caller's `bytes` stay intact: pdf.js takes ownership of (detaches) the buffer it is given, so it gets a copy.
 */
export async function extractPdf(bytes: Uint8Array, opts: ExtractOptions = {}): Promise<ExtractedPdf> {
  const batchSize = Math.max(1, Math.floor(opts.batchSize ?? DEFAULT_BATCH));
  opts.signal?.throwIfAborted();
  const parser = new PDFParse({ data: bytes.slice() });
  try {
    const infoResult = await parser.getInfo();
    const pageCount = infoResult.total;
    const info = parseInfoDict(infoResult.info);
    const pages: string[] = Array.from({ length: pageCount }, () => "");
    opts.onProgress?.(0, pageCount);
    for (let first = 1; first <= pageCount; first += batchSize) {
      const last = Math.min(pageCount, first + batchSize - 1);
      for (let from = first; from <= last; from += STEP) {
        opts.signal?.throwIfAborted();
        const to = Math.min(last, from + STEP - 1);
        // `first` + `last` together select the inclusive range first..last (pdf-parse 2 ParseParameters).
        const result = await parser.getText({ first: from, last: to, pageJoiner: "" });
        for (const page of result.pages) {
          if (page.num >= 1 && page.num <= pageCount) pages[page.num - 1] = page.text;
        }
        // pdf.js's in-process worker runs on promises alone: without this, timers and other requests would wait for
        // the whole document
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      opts.onProgress?.(last, pageCount);
    }
    return { pageCount, info, pages };
  } catch (e) {
    throw mapPdfError(e, opts.signal);
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}

const CORRUPT_NAMES = new Set([
  "InvalidPDFException",
  "FormatError",
  "UnknownErrorException",
  "MissingPDFException",
  "UnexpectedResponseException",
]);

function mapPdfError(e: unknown, signal?: AbortSignal): unknown {
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
