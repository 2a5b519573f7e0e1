import { LecternError } from "@/lib/errors";

/** How far into the file the `%PDF-` header may start (PDF readers tolerate leading junk up to about 1 KB). */
const HEADER_WINDOW = 1024;
const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

function formatMb(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 10 ? `${Math.round(mb)} MB` : `${mb.toFixed(1)} MB`;
}

/** Size checks that need no bytes: usable before reading an upload. */
export function checkUploadSize(size: number, maxBytes: number): void {
  if (size <= 0) throw new LecternError("bad_request:pdf", "The file is empty (0 bytes).");
  if (size > maxBytes) {
    throw new LecternError(
      "bad_request:pdf",
      `The file is too large (${formatMb(size)}; the limit is ${formatMb(maxBytes)}, set by LECTERN_MAX_UPLOAD_MB).`,
    );
  }
}

/** True when `%PDF-` starts within the first KB. Judged by content: a file's name or type says nothing. */
export function hasPdfHeader(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, HEADER_WINDOW) - PDF_MAGIC.length;
  outer: for (let i = 0; i <= end; i++) {
    for (let j = 0; j < PDF_MAGIC.length; j++) {
      if (bytes[i + j] !== PDF_MAGIC[j]) continue outer;
    }
    return true;
  }
  return false;
}

export function validatePdfBytes(bytes: Uint8Array, opts: { maxBytes: number }): void {
  checkUploadSize(bytes.length, opts.maxBytes);
  if (!hasPdfHeader(bytes)) {
    throw new LecternError("bad_request:pdf", "This file is not a PDF (its content does not start with a PDF header).");
  }
}

/** Word characters (letters and digits in any script) in a page's text. */
function countWordChars(text: string): number {
  return text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
}

/**
 * Refuses a PDF without a usable text layer (a scan without OCR). The rule: fewer than 20 word characters (letters or
 * digits) per page on average. A page of a paper has 2,000-4,000 and even a title slide has ~50, while a scan has 0 or
 * only a short stamp (a scanner's or repository's one-line mark). An average, rather than a total, so that a long scan
 * with such a stamp on every page is still refused; it also refuses a tiny one-page document of a few words, which
 * could not be searched usefully anyway.
 */
export const MIN_WORD_CHARS_PER_PAGE = 20;

/** Word characters per page, on average, of a PDF whose cleaning left too little that is not a scan (see below). */
const REPEATED_TEXT_WORD_CHARS_PER_PAGE = 10 * MIN_WORD_CHARS_PER_PAGE;

export function assertTextLayer(pages: string[], extracted: string[] = pages): void {
  if (averageWordChars(pages) >= MIN_WORD_CHARS_PER_PAGE) return;
  // `pages` are the cleaned pages: text the PDF has, but that repeats page after page, is removed as running heads
  // and footers — a different failure from a scan's, with a different remedy. Only when that text is a page's worth:
  // a scan's stamp on every page ("Downloaded from … by guest on …", ~60 word characters) is removed the same way,
  // and a scan it stays.
  if (averageWordChars(extracted) >= REPEATED_TEXT_WORD_CHARS_PER_PAGE) {
    throw new LecternError(
      "bad_request:pdf",
      "This PDF's text repeats from page to page (it is read as running heads, footers or watermarks), and little " +
        "is left once those are removed, so there is nothing to index.",
    );
  }
  throw new LecternError(
    "bad_request:pdf",
    "This PDF has no text layer (it looks scanned). Run OCR on it first (e.g. ocrmypdf) and upload the result.",
  );
}

function averageWordChars(pages: string[]): number {
  const total = pages.reduce((sum, p) => sum + countWordChars(p), 0);
  return pages.length > 0 ? total / pages.length : 0;
}
