import { typoAllowance, typoDistance } from "@/lib/text/distance";

/**
 * Spelling correction of search terms: a term of the query that no row of the library holds, and that is a typing
 * slip away from a term many rows hold ("retreival" → "retrieval", "atention" → "attention"), is searched as that
 * term. Only plain lower-case words are corrected (a name, an acronym or a word with digits — "Loihi", "ERA5",
 * "GPT-5" — is what it is): one of seven letters or more alone, one of three to six only to a term the library writes
 * beside the query's neighbouring word ("multi-hed" → "multi head"); within one typing slip (lib/text/distance.ts),
 * to the term at the least distance, the more frequent of equals — never to the word with letters added or removed
 * at either end, nor when the library holds the word with its last letter or two cut (the stemmer's longer form of a
 * word it has).
 */
export interface Vocabulary {
  /** Terms enough rows hold to be corrected to, by length, each with the number of rows holding it. */
  byLength: Map<number, [string, number][]>;
}

/** The shortest term corrected: shorter words are too often another word of one letter's difference ("flood" and
 *  "food", "round" and "found", "decide" and "decode"). */
const MIN_CORRECTED = 7;
/** A correction must be a term this many rows hold: a rare term is as likely another typo. */
export const MIN_CORRECTION_ROWS = 3;

/** The terms to correct to (`terms`: each with the number of rows holding it, at least MIN_CORRECTION_ROWS). */
export function vocabularyOf(terms: ReadonlyMap<string, number>): Vocabulary {
  const byLength = new Map<number, [string, number][]>();
  for (const [term, rows] of terms) {
    if (rows < MIN_CORRECTION_ROWS || !/^\p{Ll}+$/u.test(term)) continue;
    const list = byLength.get(term.length) ?? [];
    list.push([term, rows]);
    byLength.set(term.length, list);
  }
  return { byLength };
}

/** Whether a word may be a misspelling at all: plain lower-case letters, seven or more. */
export function correctable(term: string): boolean {
  return term.length >= MIN_CORRECTED && /^\p{Ll}+$/u.test(term);
}

/** The word with its last letter or two cut, as the stemmer may have left a form of a word longer ("stepp"). */
export function cutForms(term: string): string[] {
  return [1, 2].filter((cut) => term.length - cut >= 4).map((cut) => term.slice(0, -cut));
}

/** Whether `word` is one typing slip from `known`, and not `known` with letters added or removed at either end. */
export function isSlipOf(word: string, known: string): boolean {
  if (word === known) return false;
  if (known.startsWith(word) || word.startsWith(known) || known.endsWith(word) || word.endsWith(known)) return false;
  const max = typoAllowance(word);
  return typoDistance(word, known, max) <= max;
}

/** The shortest term respelled by the words beside it (a shorter one is too often another word). */
const MIN_PHRASE_CORRECTED = 3;
/** The most candidates a short term's neighbours are checked with. */
const MAX_PHRASE_CANDIDATES = 12;

/**
 * Whether a word is too short to be respelled alone but may be by the word beside it: plain lower-case letters,
 * three to six. "hed" is one slip from "head", "had", "bed" and "fed"; in "multi-hed" the library's "multi head"
 * tells which (`phraseCandidates`, then the search checks which phrase the library holds).
 */
export function phraseCorrectable(term: string): boolean {
  return term.length >= MIN_PHRASE_CORRECTED && term.length < MIN_CORRECTED && /^\p{Ll}+$/u.test(term);
}

/** A short term's candidates: the vocabulary's terms one slip from it, nearest then most frequent first. */
export function phraseCandidates(term: string, vocabulary: Vocabulary, held: (t: string) => boolean): string[] {
  if (!phraseCorrectable(term) || cutForms(term).some(held)) return [];
  return slipsOf(term, vocabulary)
    .slice(0, MAX_PHRASE_CANDIDATES)
    .map((c) => c.term);
}

/** The vocabulary's terms one typing slip from `term`, nearest then most frequent first. */
function slipsOf(term: string, vocabulary: Vocabulary): { term: string; distance: number; rows: number }[] {
  const max = typoAllowance(term);
  const out: { term: string; distance: number; rows: number }[] = [];
  for (let length = term.length - max; length <= term.length + max; length++) {
    for (const [candidate, rows] of vocabulary.byLength.get(length) ?? []) {
      if (isSlipOf(term, candidate)) out.push({ term: candidate, distance: typoDistance(term, candidate, max), rows });
    }
  }
  return out.sort((x, y) => x.distance - y.distance || y.rows - x.rows);
}

/**
 * The library's term a missing query term was most likely meant to be, or null. `held` says whether the library holds
 * a term at all (any number of rows): asked for the term's cut forms.
 */
export function correctionOf(term: string, vocabulary: Vocabulary, held: (t: string) => boolean): string | null {
  if (!correctable(term)) return null;
  if (cutForms(term).some(held)) return null;
  return slipsOf(term, vocabulary)[0]?.term ?? null;
}
