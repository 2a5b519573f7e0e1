/**
 * A page's best sentence, scored by BM25 with each sentence taken as a document: the fact a question asks for is
 * usually stated in one sentence of the page that answers, while an introduction or abstract mentions the question's
 * words too, spread over several sentences. Computed from what the database already holds: the tsvector's positions
 * of the query's words in a chunk (its search terms, the paper's title first) and the chunk's sentence ends in those
 * terms (`chunks.sentence_ends`, lib/ingest/chunk.ts `sentenceTermEnds`). The two agree on every chunk of the corpus
 * but one: Postgres's parser reads a term like "6207e5d3fec5" (a hash that looks like a number with an exponent) as
 * two tokens, and the positions after it shift by one — which can move a word across a sentence end only at its edge.
 */

/** BM25's constants, as for whole chunks (db/queries/search.ts). */
const K1 = 1.2;
const B = 0.75;

export interface SentenceScoreInput {
  /** The query's lexemes with their IDF (same order). */
  lexemes: readonly string[];
  idf: readonly number[];
  /** The chunk's 1-based term positions of each lexeme, title terms first (from its tsvector). */
  positions: ReadonlyMap<string, readonly number[]>;
  /** How many of those positions are the title's (the search text's header), not the chunk's. */
  headerTerms: number;
  /** Cumulative sentence ends in the chunk's own terms; the last is its term count. */
  sentenceEnds: readonly number[];
  /** The library's mean sentence length in terms. */
  averageLength: number;
}

/** The index of the sentence holding body term `i` (0-based): the first whose end lies beyond it; -1 past the last. */
function sentenceOf(ends: readonly number[], i: number): number {
  let lo = 0;
  let hi = ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ends[mid] as number) > i) hi = mid;
    else lo = mid + 1;
  }
  return lo < ends.length ? lo : -1;
}

/** The best BM25 of the chunk's sentences against the query; 0 when no query word is in any sentence. */
export function bestSentenceScore(input: SentenceScoreInput): number {
  const { lexemes, idf, positions, headerTerms, sentenceEnds: ends, averageLength } = input;
  if (ends.length === 0 || !(averageLength > 0)) return 0;
  // term frequencies per sentence, for the query's lexemes only
  const tf = new Map<number, Map<number, number>>();
  lexemes.forEach((lexeme, li) => {
    for (const p of positions.get(lexeme) ?? []) {
      const s = sentenceOf(ends, p - 1 - headerTerms);
      if (p - 1 - headerTerms < 0 || s < 0) continue; // a title word, or past the stored sentences
      let counts = tf.get(s);
      if (!counts) {
        counts = new Map();
        tf.set(s, counts);
      }
      counts.set(li, (counts.get(li) ?? 0) + 1);
    }
  });
  let best = 0;
  for (const [s, counts] of tf) {
    const length = (ends[s] as number) - (s > 0 ? (ends[s - 1] as number) : 0);
    const norm = K1 * (1 - B + (B * length) / averageLength);
    let score = 0;
    for (const [li, f] of counts) score += ((idf[li] ?? 0) * f * (K1 + 1)) / (f + norm);
    if (score > best) best = score;
  }
  return best;
}
