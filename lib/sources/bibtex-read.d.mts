/** Types of bibtex-read.mjs (plain JavaScript so it runs as a worker thread's entry without a loader). */

/** An entry as @retorquere/bibtex-parser gives it: creators as objects, keywords and publishers as lists. */
export interface RawBibtexEntry {
  key: string;
  fields: Record<string, unknown>;
}

export interface RawBibtex {
  entries: RawBibtexEntry[];
  /** The parser's errors; `input` is the start of the text it could not read. */
  errors: { error: string; input: string }[];
  /** Entries not read for their length (characters of source text). */
  oversized: { key: string; chars: number }[];
  /** Set, and nothing parsed, when the file has more entries than allowed. */
  tooManyEntries?: number;
}

export interface BibtexLimits {
  maxEntryChars: number;
  maxEntries: number;
}

export function splitBibtex(
  text: string,
  maxEntryChars: number,
): { text: string; oversized: RawBibtex["oversized"]; entryCount: number };

export function readBibtex(text: string, limits: BibtexLimits): RawBibtex;

export const BIBTEX_READER_ROLE: "lectern-bibtex-reader";
