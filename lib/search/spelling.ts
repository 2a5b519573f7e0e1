import { typoAllowance, typoDistance } from "@/lib/text/distance";

/**
 * Spelling correction of search terms: a term of the query that no row of the library holds, and that is a typing
 * slip away from a term many rows hold ("retreival" → "retrieval", "atention" → "attention"), is searched as that
 * term. Only plain lower-case words of seven letters or more are corrected (a name, an acronym or a word with digits —
 * "Loihi", "ERA5", "GPT-5" — is what it is), within one typing slip (lib/text/distance.ts), to
 * the term at the least distance, the more frequent of equals — never to the word with letters added or
 * removed at either end.
 */
export interface Vocabulary {
  /** Terms enough rows hold to be corrected to, by length, each with the number of rows holding it. */
  byLength: Map<number, [string, number][]>;
  /** Every term of the library. */
  all: ReadonlySet<string>;
}

/** The shortest term corrected: shorter words are too often another word of one letter's difference ("flood" and
 *  "food", "round" and "found", "decide" and "decode"). */
const MIN_CORRECTED = 7;
/** A correction must be a term this many rows hold: a rare term is as likely another typo. */
export const MIN_CORRECTION_ROWS = 3;

export function vocabularyOf(terms: ReadonlyMap<string, number>): Vocabulary {
  const byLength = new Map<number, [string, number][]>();
  const all = new Set(terms.keys());
  for (const [term, rows] of terms) {
    if (rows < MIN_CORRECTION_ROWS || !/^\p{Ll}+$/u.test(term)) continue;
    const list = byLength.get(term.length) ?? [];
    list.push([term, rows]);
    byLength.set(term.length, list);
  }
  return { byLength, all };
}

/** Whether a term of the query may be corrected at all. */
export function correctable(term: string): boolean {
  return term.length >= MIN_CORRECTED && /^\p{Ll}+$/u.test(term);
}

/** The library's term a missing query term was most likely meant to be, or null. */
export function correctionOf(term: string, vocabulary: Vocabulary): string | null {
  if (!correctable(term)) return null;
  // a form of a word the library holds, which the stemmer left longer ("stepping" → "stepp", the library's "step"):
  // not a typo
  for (let cut = 1; cut <= 2 && term.length - cut >= 4; cut++) if (vocabulary.all.has(term.slice(0, -cut))) return null;
  const max = typoAllowance(term);
  let best: { term: string; distance: number; rows: number } | null = null;
  for (let length = term.length - max; length <= term.length + max; length++) {
    for (const [candidate, rows] of vocabulary.byLength.get(length) ?? []) {
      const distance = typoDistance(term, candidate, max);
      if (distance > max || distance === 0) continue;
      // a longer or shorter form of the word ("speculativ" / "speculat", "sintel" / "intel") is another word
      if (candidate.startsWith(term) || term.startsWith(candidate)) continue;
      if (candidate.endsWith(term) || term.endsWith(candidate)) continue;
      if (!best || distance < best.distance || (distance === best.distance && rows > best.rows)) {
        best = { term: candidate, distance, rows };
      }
    }
  }
  return best?.term ?? null;
}
