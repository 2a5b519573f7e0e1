import { LecternError } from "@/lib/errors";

/** Longer input is not a question but a pasted document; we say so rather than search with it. */
export const MAX_QUERY_CHARS = 2000;
/** Multi-query input (expanded queries from the research orchestrator) is capped. */
export const MAX_QUERIES = 12;
/** Terms kept per query for full-text retrieval (the rest add latency, not recall). */
export const MAX_TERMS = 48;

/** Words: letters, digits and combining marks (so Devanagari or Thai words stay whole). Everything else separates. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * Plain words of a query, lower-cased and NFKC-normalised, each made only of letters, digits and marks. This is the
 * whole of our tsquery safety: no operator, quote, parenthesis, colon or backslash can survive it.
 */
export function queryTerms(text: string): string[] {
  const words = text.normalize("NFKC").toLowerCase().match(WORD) ?? [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of words) {
    const word = w.slice(0, 64);
    if (seen.has(word)) continue;
    seen.add(word);
    out.push(word);
    if (out.length >= MAX_TERMS) break;
  }
  return out;
}

/** A query after validation: the text as typed (trimmed) and its plain words. */
export interface ParsedQuery {
  text: string;
  terms: string[];
}

/**
 * Validates one query or several. Throws `bad_request:query` with a message fit for a user when there is nothing to
 * search for: empty, too long, or without a single letter or digit (only punctuation, symbols or emoji).
 */
export function parseQueries(input: string | string[]): ParsedQuery[] {
  const list = Array.isArray(input) ? input : [input];
  if (list.some((q) => typeof q !== "string")) {
    throw new LecternError("bad_request:query", "The query must be text.");
  }
  const texts = [...new Set(list.map((q) => q.trim()).filter((q) => q.length > 0))];
  if (texts.length === 0)
    throw new LecternError("bad_request:query", "Type a question or some keywords to search for.");
  if (texts.length > MAX_QUERIES) {
    throw new LecternError(
      "bad_request:query",
      `Too many queries at once (${texts.length}); the limit is ${MAX_QUERIES}.`,
    );
  }
  const parsed: ParsedQuery[] = [];
  for (const text of texts) {
    if (text.length > MAX_QUERY_CHARS) {
      throw new LecternError(
        "bad_request:query",
        `The query is too long (${text.length.toLocaleString("en")} characters); keep it under ${MAX_QUERY_CHARS.toLocaleString("en")}.`,
      );
    }
    parsed.push({ text, terms: queryTerms(text) });
  }
  if (parsed.every((q) => q.terms.length === 0)) {
    throw new LecternError("bad_request:query", "The query has no words to search for (only punctuation or symbols).");
  }
  // a query without words among others with words adds nothing
  return parsed.filter((q) => q.terms.length > 0);
}
