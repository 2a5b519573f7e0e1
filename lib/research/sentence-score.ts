/**
 * How the offline answer scores a candidate sentence for a question: a weighted sum of features read from the
 * sentence, its passage and the question (computed in `pickSentences`, lib/research/compose.ts). The weights are
 * fitted, not chosen by hand: `npx tsx bench/fit-answer-weights.ts` fits them on what the benchmark's answers were
 * composed from (`npm run bench:research -- … --save-evidence FILE`), by pairwise logistic regression that ranks each
 * question's evidence sentence above its other candidates, and reports a leave-one-set-out check of the answers it
 * gives (docs/benchmarks.md, "A fitted sentence scorer").
 */

export interface SentenceFeatures {
  /** Share of the question's key-term weight (rarer among the candidates: heavier) the sentence holds. */
  coverage: number;
  /** The question's adjacent term pairs the sentence repeats (0.08 each), capped at 0.16… */
  phrase: number;
  /** …and uncapped. */
  phraseRaw: number;
  /** Matches close together: 0.05 × matches / the span they cover. */
  proximity: number;
  /** It gives what the question's kind asks for (a reason, a number, a comparison, a mechanism): the kind's bonus. */
  kindCue: number;
  /** Its passage's retrieval rank: 0.2 / (1 + 0.2 rank)… */
  rankPrior: number;
  /** …rank / 20 (capped)… */
  rankLinear: number;
  /** …the first passage. */
  topRank: number;
  /** Share of the question's own (not its context's) key terms it holds, unweighted. */
  focusShare: number;
  /** Share of the question's named terms ("LoRA", "GPT-3") it holds whole. */
  named: number;
  /** log(1 + words) / 4. */
  length: number;
  /** Matched key terms per word. */
  density: number;
  /** The heaviest key term it holds, against the heaviest of the question. */
  idfMax: number;
  /** The sentence before it in its passage: its coverage (0 when none). */
  prevCoverage: number;
  /** Its whole passage's coverage. */
  passageCoverage: number;
  /** Written in the authors' voice ("we", "our"). */
  ourVoice: number;
  /** Holds a quantity (not a year, citation or figure number). */
  number: number;
  /** Gives a reason ("because", "in order to", …), whatever the question's kind. */
  reason: number;
  /** Compares ("than", "outperforms", …). */
  comparative: number;
  /** Defines ("X is a …", "refers to"). */
  definition: number;
  /** Cites other work ("[12]", "(Smith et al., 2020)"). */
  bracketCite: number;
  /** On a paper's first page (title, abstract, introduction). */
  firstPage: number;
  /** From another passage of a top passage's page, not retrieved itself. */
  pageContext: number;
  /** Leans on the sentence before it ("This …"), which is quoted with it. */
  leans: number;
}

export type ScoreWeights = Record<keyof SentenceFeatures, number>;

export const FEATURES = [
  "coverage",
  "phrase",
  "phraseRaw",
  "proximity",
  "kindCue",
  "rankPrior",
  "rankLinear",
  "topRank",
  "focusShare",
  "named",
  "length",
  "density",
  "idfMax",
  "prevCoverage",
  "passageCoverage",
  "ourVoice",
  "number",
  "reason",
  "comparative",
  "definition",
  "bracketCite",
  "firstPage",
  "pageContext",
  "leans",
] as const satisfies readonly (keyof SentenceFeatures)[];

/** The hand-set weights the answers used before the fit (coverage 0.65, the rest 1 or unused): the fit's baseline. */
export const HAND_WEIGHTS: ScoreWeights = {
  ...(Object.fromEntries(FEATURES.map((f) => [f, 0])) as ScoreWeights),
  coverage: 0.65,
  phrase: 1,
  proximity: 1,
  kindCue: 1,
  rankPrior: 1,
};

/**
 * Fitted by bench/fit-answer-weights.ts (l2 0.01) on the ten question sets the answers had been measured on, over the
 * corpus's library (2026-11-28). What weighs: giving the kind of answer asked for, the key terms' coverage (the
 * sentence's, the one before it, its passage's), the heaviest term, the passage's rank; a definition or a first-page
 * sentence counts against (the overview sentences a question's specific evidence competes with).
 */
export const SCORE_WEIGHTS: ScoreWeights = {
  coverage: 8.3,
  phrase: -0.196,
  phraseRaw: -0.338,
  proximity: -1.123,
  kindCue: 14.092,
  rankPrior: 7.424,
  rankLinear: -2.627,
  topRank: -0.339,
  focusShare: 0.338,
  named: -0.632,
  length: -0.789,
  density: 1.034,
  idfMax: 3.062,
  prevCoverage: 6.434,
  passageCoverage: 2.288,
  ourVoice: -0.209,
  number: -0.074,
  reason: 0.314,
  comparative: 0.334,
  definition: -1.569,
  bracketCite: -0.262,
  firstPage: -1.784,
  pageContext: -0.059,
  leans: 0.144,
};

export function scoreOf(f: SentenceFeatures, w: ScoreWeights = SCORE_WEIGHTS): number {
  let s = 0;
  for (const k of FEATURES) s += w[k] * f[k];
  return s;
}
