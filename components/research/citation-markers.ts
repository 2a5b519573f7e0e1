import { parseCitations, sameId } from "@/lib/research/citation-format";
import type { Citation } from "@/lib/research/types";

/**
 * The rendering side of `[PAPER_ID, page N]` citations: where they are in the answer's text, the claim each belongs
 * to, and which verified `Citation` a marker stands for. The syntax itself is lib/research/citation-format.ts's, the
 * one the orchestrator verifies with.
 */

export { sameId };

export interface MarkerCitation {
  paperId: string;
  page: number;
}

/** A bracket and the citations in it, at `start`..`end` of the text. */
export interface MarkerMatch {
  start: number;
  end: number;
  marker: string;
  citations: MarkerCitation[];
}

/** The citation brackets of a text, in order, each with its citations (`;` separates several in one bracket). */
export function findMarkers(text: string): MarkerMatch[] {
  const out: MarkerMatch[] = [];
  for (const c of parseCitations(text)) {
    const last = out[out.length - 1];
    if (last && last.start === c.at) {
      last.citations.push({ paperId: c.paperId, page: c.page });
      continue;
    }
    out.push({
      start: c.at,
      end: c.at + c.marker.length,
      marker: c.marker,
      citations: [{ paperId: c.paperId, page: c.page }],
    });
  }
  return out;
}

/**
 * A sentence ends at `.`, `!` or `?` (with closing quotes or brackets), white space, and a capital, digit or opening
 * quote: "e.g. long" and "0.81" stay inside their sentence.
 */
const SENTENCE_END = /[.!?]["”’)\]]*\s+(?=[\p{Lu}\p{N}"“‘(])/gu;

/**
 * The claim a marker belongs to, within `before` (the text in front of the marker since the previous marker or the
 * start of the paragraph): the last sentence, or the sentence before a full stop the marker follows
 * (`Claim. [ID, page 2]`). Returns its range in `before`; empty when the marker stands alone.
 */
export function claimRange(before: string): { start: number; end: number } {
  let end = before.length;
  while (end > 0 && /\s/.test(before[end - 1] as string)) end--;
  if (end === 0) return { start: 0, end: 0 };
  // the sentence's own final punctuation is part of it: look for an earlier sentence end
  let searchTo = end;
  while (searchTo > 0 && /[.!?"”’)\]]/.test(before[searchTo - 1] as string)) searchTo--;
  let start = 0;
  for (const m of before.slice(0, searchTo).matchAll(SENTENCE_END)) start = (m.index ?? 0) + m[0].length;
  // leading white space is not part of the claim
  while (start < end && /\s/.test(before[start] as string)) start++;
  return { start, end };
}

/** Content words of a text, for comparing a rendered claim with a citation's stored claim. */
function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .normalize("NFKD")
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 2),
  );
}

function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let hit = 0;
  for (const w of a) if (b.has(w)) hit++;
  return hit / Math.max(a.size, b.size);
}

/**
 * The verified citation a marker in the answer stands for: the same paper and page, and among several (a page cited
 * for different claims) the one whose claim is the marker's. Null while the answer is still streaming (no citations
 * yet) or when verification did not list it.
 */
export function resolveCitation(
  citations: readonly Citation[],
  marker: MarkerCitation,
  claim: string,
): Citation | null {
  const candidates = citations.filter((c) => c.page === marker.page && sameId(c.paperId, marker.paperId));
  if (candidates.length <= 1) return candidates[0] ?? null;
  const mine = words(claim);
  let best = candidates[0] as Citation;
  let bestScore = -1;
  for (const c of candidates) {
    const score = overlap(mine, words(c.claim));
    if (score > bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The answer without its `## References` section and the `## Web sources` after it (the page lists both itself, with
 * links). The heading
 * may be at any level; everything from it to the end goes.
 */
export function stripReferencesSection(markdown: string): string {
  const m = /^#{1,6}\s+(?:References|Web sources)\s*$/im.exec(markdown);
  return m ? markdown.slice(0, m.index).trimEnd() : markdown;
}

/** A short label for a paper id on a chip: arXiv ids as they are, long slugs cut at a word. */
export function shortPaperId(id: string, max = 24): string {
  if (id.length <= max) return id;
  const cut = id.slice(0, max);
  // (a cut that ends where a word does keeps that word: "automatically-correcting…", not "automatically…")
  if (id[max] === "-") return `${cut}…`;
  const at = cut.lastIndexOf("-");
  return `${at > max / 2 ? cut.slice(0, at) : cut}…`;
}
