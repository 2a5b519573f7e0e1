import { createHash } from "node:crypto";
import type { PageChunk } from "@/lib/ingest/types";
import { searchText } from "@/lib/text/terms";

/**
 * Token estimate used everywhere in Lectern (chunk sizes, LLM budgets): each run of letters/digits counts one token
 * per 6 characters begun ("model" 1, "representations" 3), each other non-space character counts one. On English
 * scientific text this lands within ~15% of OpenAI's cl100k counts, which is all a chunk size needs.
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const m of text.matchAll(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu)) {
    const len = m[0].length;
    tokens += len === 1 ? 1 : Math.ceil(len / 6);
  }
  return tokens;
}

/** Words that end with a period without ending a sentence. */
const ABBREVIATIONS = new Set([
  "al.",
  "e.g.",
  "i.e.",
  "cf.",
  "vs.",
  "fig.",
  "figs.",
  "eq.",
  "eqs.",
  "sec.",
  "secs.",
  "tab.",
  "no.",
  "nos.",
  "vol.",
  "pp.",
  "p.",
  "ch.",
  "approx.",
  "resp.",
  "dr.",
  "mr.",
  "ms.",
  "prof.",
  "st.",
  "ref.",
  "refs.",
  "appx.",
  "app.",
]);

/** True when a whitespace-delimited word ends a sentence ("model.", "done?\"", "(see above).") */
export function endsSentence(word: string): boolean {
  if (!/[.!?][\])"'’”]*$/u.test(word)) return false;
  const bare = word
    .replace(/^[(["'‘“]+/u, "")
    .replace(/[\])"'’”]+$/u, "")
    .toLowerCase();
  if (ABBREVIATIONS.has(bare)) return false;
  // initials ("N." in "Aidan N. Gomez") and enumerations ("(a)." is rare, "a." common in lists)
  if (/^\p{L}\.$/u.test(bare)) return false;
  // an ellipsis inside a formula "x1, . . ." is not an end either
  if (/^\.+$/.test(bare)) return false;
  return true;
}

interface Unit {
  start: number;
  end: number;
  tokens: number;
  /** A sentence ends with this unit. */
  sentenceEnd: boolean;
  /** A line ends right after this unit. */
  lineEnd: boolean;
}

/** Whitespace-delimited words with offsets; words longer than `maxChars` are cut so no unit exceeds a chunk. */
function toUnits(text: string, maxChars: number): Unit[] {
  const units: Unit[] = [];
  for (const m of text.matchAll(/\S+/g)) {
    const word = m[0];
    const at = m.index ?? 0;
    const after = text.slice(at + word.length, at + word.length + 3);
    const lineEnd = /^[ \t]*(\n|$)/.test(after);
    for (let off = 0; off < word.length; off += maxChars) {
      const piece = word.slice(off, off + maxChars);
      const last = off + maxChars >= word.length;
      units.push({
        start: at + off,
        end: at + off + piece.length,
        tokens: Math.max(1, estimateTokens(piece)),
        sentenceEnd: last && endsSentence(word),
        lineEnd: last && lineEnd,
      });
    }
  }
  return units;
}

export interface ChunkOptions {
  /** Target size of a chunk (default 512 estimated tokens). */
  targetTokens?: number;
  /** Tokens repeated from the end of one chunk at the start of the next (default 100; at most half the target). */
  overlapTokens?: number;
}

/**
 * Splits one page's text into overlapping chunks near `targetTokens`, within the page only. Chunks end at a sentence
 * end when one lies in the last 40% of the target window, else at a line end there, else at a word boundary; a chunk
 * may run up to 15% over the target to avoid leaving a tiny remainder. The next chunk starts about `overlapTokens`
 * before the previous end, moved forward to a sentence start when one is in that overlap.
 * Offsets are exact: `text.slice(c.charStart, c.charEnd) === c.text`, and chunks never start or end with whitespace.
 */
export function chunkPage(text: string, opts: ChunkOptions = {}): PageChunk[] {
  const target = Math.max(8, Math.floor(opts.targetTokens ?? 512));
  const overlap = Math.max(0, Math.min(Math.floor(opts.overlapTokens ?? 100), Math.floor(target / 2)));
  const units = toUnits(text, target);
  if (units.length === 0) return [];

  // prefix[i] = tokens in units[0..i)
  const prefix = new Array<number>(units.length + 1);
  prefix[0] = 0;
  for (let i = 0; i < units.length; i++) prefix[i + 1] = (prefix[i] as number) + (units[i] as Unit).tokens;
  const tokensBetween = (a: number, b: number) => (prefix[b + 1] as number) - (prefix[a] as number); // inclusive

  const chunks: PageChunk[] = [];
  let start = 0;
  let previousEnd = -1;
  while (start < units.length) {
    let end: number;
    if (tokensBetween(start, units.length - 1) <= target * 1.15) {
      end = units.length - 1;
    } else {
      // the furthest unit that keeps the chunk within the target (at least one unit)
      let far = start;
      while (far + 1 < units.length && tokensBetween(start, far + 1) <= target) far++;
      const minTokens = target * 0.6;
      end = far;
      let lineBreak = -1;
      let found = false;
      for (let i = far; i > previousEnd && i > start && tokensBetween(start, i) >= minTokens; i--) {
        const u = units[i] as Unit;
        if (u.sentenceEnd) {
          end = i;
          found = true;
          break;
        }
        if (lineBreak < 0 && u.lineEnd) lineBreak = i;
      }
      if (!found && lineBreak >= 0) end = lineBreak;
      if (end <= previousEnd) end = Math.min(units.length - 1, previousEnd + 1);
    }

    const charStart = (units[start] as Unit).start;
    const charEnd = (units[end] as Unit).end;
    const chunkText = text.slice(charStart, charEnd);
    chunks.push({
      chunkIndex: chunks.length,
      text: chunkText,
      charStart,
      charEnd,
      tokenCount: estimateTokens(chunkText),
    });
    if (end >= units.length - 1) break;

    // next start: the earliest unit whose tail up to `end` fits in the overlap, snapped to a sentence start
    let next = end + 1;
    while (next - 1 > start && tokensBetween(next - 1, end) <= overlap) next--;
    for (let i = next; i <= end; i++) {
      if (i > start && (units[i - 1] as Unit).sentenceEnd) {
        next = i;
        break;
      }
    }
    previousEnd = end;
    start = Math.max(next, start + 1);
  }
  return chunks;
}

/** Stable id of a chunk: sha256 of `${docId}:${page}:${index}:${charStart}:${charEnd}`, hex, first 32 characters. */
export function chunkUid(docId: string, page: number, index: number, charStart: number, charEnd: number): string {
  return createHash("sha256").update(`${docId}:${page}:${index}:${charStart}:${charEnd}`).digest("hex").slice(0, 32);
}

export interface SentenceSpan {
  text: string;
  start: number;
  end: number;
}

/**
 * Splits text into sentences by the same rule the chunker uses (`endsSentence`). Line breaks inside a sentence are
 * kept in the span; `text` is the slice with whitespace runs collapsed to single spaces. A blank-line-free heading
 * line without final punctuation stays attached to the following sentence, as in the source.
 */
export function splitSentences(text: string): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  let start = -1;
  let end = -1;
  for (const m of text.matchAll(/\S+/g)) {
    const at = m.index ?? 0;
    if (start < 0) start = at;
    end = at + m[0].length;
    if (endsSentence(m[0])) {
      out.push({ text: text.slice(start, end).replace(/\s+/g, " "), start, end });
      start = -1;
    }
  }
  if (start >= 0) out.push({ text: text.slice(start, end).replace(/\s+/g, " "), start, end });
  return out;
}

/**
 * Where each sentence of a chunk ends, counted in the chunk's search terms (`searchText`: the words full text indexes,
 * stop words left out): `[12, 30, 41]` is three sentences of 12, 18 and 11 terms. With the tsvector's positions (term
 * indexes in the search text, after the title's terms) it tells which sentence each query word is in, so content
 * search can score a page by its best sentence (lib/search/sentences.ts). Sentences split at whitespace, as
 * `splitSentences` does, so the last end is the chunk's own term count.
 */
export function sentenceTermEnds(text: string): number[] {
  const ends: number[] = [];
  let total = 0;
  for (const s of splitSentences(text)) {
    const terms = searchText(s.text);
    if (!terms) continue;
    total += terms.split(" ").length;
    ends.push(total);
  }
  return ends;
}
