/**
 * Fitting the sentence scorer's weights (lib/research/sentence-score.ts) from labelled candidates: used by
 * bench/fit-answer-weights.ts, which labels each question's candidates against its known evidence.
 */
import { normalizeText, QUOTE_COVERAGE, quoteCoverage, splitPlainSentences } from "./eval-answers";
import { FEATURES, type ScoreWeights } from "./sentence-score";

/** A candidate sentence: its features in FEATURES order, and whether it is its question's evidence. */
export interface LabelledCandidate {
  x: number[];
  y: boolean;
}

/**
 * Is a candidate sentence the evidence? It holds ≥ 80 % of a quote's words (the benchmark's test), or, for a quote of
 * several sentences, ≥ 90 % of its own words (at least 40 characters of them) are the quote's.
 */
export function isEvidenceSentence(text: string, quotes: string[]): boolean {
  return quotes.some(
    (q) =>
      quoteCoverage(q, text) >= QUOTE_COVERAGE ||
      (splitPlainSentences(normalizeText(q)).length > 1 && text.length > 40 && quoteCoverage(text, q) >= 0.9),
  );
}

/**
 * Pairwise logistic regression: every evidence candidate of a question against every other candidate of it (each
 * question weighing the same), on standardised features, by full-batch gradient descent from zero (deterministic); L2
 * penalty `l2`. The weights come back on the features' own scale. Questions without evidence among their candidates,
 * or with nothing else, teach nothing and are skipped.
 */
export function fitPairwise(groups: LabelledCandidate[][], l2: number, iterations = 300, rate = 0.5): ScoreWeights {
  const dim = FEATURES.length;
  const all = groups.flat();
  const n = Math.max(1, all.length);
  const mean = FEATURES.map((_, j) => all.reduce((s, r) => s + (r.x[j] as number), 0) / n);
  const sd = FEATURES.map(
    (_, j) => Math.sqrt(all.reduce((s, r) => s + ((r.x[j] as number) - (mean[j] as number)) ** 2, 0) / n) || 1,
  );
  const diffs: { d: number[]; w: number }[] = [];
  for (const g of groups) {
    const pos = g.filter((r) => r.y);
    const neg = g.filter((r) => !r.y);
    if (pos.length === 0 || neg.length === 0) continue;
    const w = 1 / (pos.length * neg.length);
    for (const p of pos)
      for (const q of neg) diffs.push({ d: p.x.map((v, j) => (v - (q.x[j] as number)) / (sd[j] as number)), w });
  }
  const totalWeight = diffs.reduce((s, p) => s + p.w, 0) || 1;
  const w = new Array<number>(dim).fill(0);
  for (let it = 0; it < iterations; it++) {
    const grad = new Array<number>(dim).fill(0);
    for (const { d, w: pw } of diffs) {
      let margin = 0;
      for (let j = 0; j < dim; j++) margin += (w[j] as number) * (d[j] as number);
      const s = 1 / (1 + Math.exp(margin));
      for (let j = 0; j < dim; j++) grad[j] = (grad[j] as number) - (pw * s * (d[j] as number)) / totalWeight;
    }
    for (let j = 0; j < dim; j++) w[j] = (w[j] as number) - rate * ((grad[j] as number) + l2 * (w[j] as number));
  }
  return Object.fromEntries(FEATURES.map((k, j) => [k, (w[j] as number) / (sd[j] as number)])) as ScoreWeights;
}
