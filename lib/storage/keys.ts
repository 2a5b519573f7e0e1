import { LecternError } from "@/lib/errors";

/** The folder of the stored PDFs, in either store; the sweep looks only here. */
export const PDF_FOLDER = "pdfs/";

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * A PDF's key: `pdfs/<sha256 of its bytes>.pdf`. Content-addressed, so storing the same bytes twice is harmless and
 * no key comes from user input. The papers' `file_path` column holds it.
 */
export function pdfKey(docId: string): string {
  if (!SHA256_HEX.test(docId)) throw new LecternError("bad_request:file", "Invalid document id.");
  return `${PDF_FOLDER}${docId}.pdf`;
}

/** A segment starts with a letter, digit, `_` or `-` (so never `.` or `..`) and holds no separator. */
const KEY = /^(?:[\w-][\w.-]*\/)*[\w-][\w.-]*$/;

/** Refuses a key that could name something outside the store (`..`, an absolute path, a backslash, an empty part). */
export function assertStorageKey(key: string): void {
  if (key.length > 512 || !KEY.test(key)) throw new LecternError("bad_request:file", "Invalid file path.");
}

/** Refuses a folder to list that is not a key followed by `/`. */
export function assertStorageFolder(folder: string): void {
  if (!folder.endsWith("/")) throw new LecternError("bad_request:file", "Invalid folder.");
  assertStorageKey(folder.slice(0, -1));
}

/** The error of reading a key with nothing stored under it (either store). */
export function missingObject(key: string): LecternError {
  return new LecternError("not_found:file", `No PDF is stored under "${key}".`);
}
