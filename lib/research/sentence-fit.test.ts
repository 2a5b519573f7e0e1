import { describe, expect, it } from "vitest";
import { fitPairwise, isEvidenceSentence, type LabelledCandidate } from "./sentence-fit";
import { FEATURES, HAND_WEIGHTS, SCORE_WEIGHTS, type SentenceFeatures, scoreOf } from "./sentence-score";

const at = (k: (typeof FEATURES)[number]) => FEATURES.indexOf(k);

/** A candidate with the given features set (the rest 0). */
function candidate(y: boolean, set: Partial<Record<(typeof FEATURES)[number], number>>): LabelledCandidate {
  const x = FEATURES.map(() => 0);
  for (const [k, v] of Object.entries(set)) x[at(k as (typeof FEATURES)[number])] = v as number;
  return { x, y };
}

describe("fitPairwise", () => {
  // each question: its evidence covers more of the question's terms and is no definition; the others vary
  const groups: LabelledCandidate[][] = Array.from({ length: 12 }, (_, i) => [
    candidate(true, { coverage: 0.8 + (i % 3) * 0.05, definition: 0, length: 0.5 }),
    candidate(false, { coverage: 0.4, definition: 1, length: 0.5 + (i % 2) * 0.1 }),
    candidate(false, { coverage: 0.6, definition: i % 2, length: 0.6 }),
    candidate(false, { coverage: 0.3, definition: 0, length: 0.4 }),
  ]);

  it("learns what tells a question's evidence from its other candidates", () => {
    const w = fitPairwise(groups, 0.01);
    expect(w.coverage).toBeGreaterThan(0);
    expect(w.definition).toBeLessThan(0);
    // a feature that never varies gets no weight
    expect(w.named).toBe(0);
    for (const g of groups) {
      const score = (c: LabelledCandidate) =>
        c.x.reduce((s, v, j) => s + v * (w[FEATURES[j] as keyof typeof w] ?? 0), 0);
      const best = [...g].sort((a, b) => score(b) - score(a))[0];
      expect(best?.y).toBe(true);
    }
  });

  it("is deterministic and skips questions with nothing to learn from", () => {
    const once = fitPairwise(groups, 0.01);
    const again = fitPairwise(
      [...groups, [candidate(false, { coverage: 0.9 })], [candidate(true, { coverage: 0.1 })]],
      0.01,
    );
    expect(fitPairwise(groups, 0.01)).toEqual(once);
    // the two one-candidate questions change nothing but the standardisation's statistics
    expect(Math.sign(again.coverage)).toBe(Math.sign(once.coverage));
    expect(fitPairwise([], 0.01)).toEqual(Object.fromEntries(FEATURES.map((k) => [k, 0])));
  });

  it("fits on standardised features and returns the weights on the features' own scale", () => {
    // one pair: the evidence differs by 1 in coverage (spread 0.5) and by 4 in length (spread 2); descent from zero on
    // the standardised differences (2, 2) moves along them, so back on the own scale w = c·d/sd²: coverage 1/0.25,
    // length 4/4, a ratio of 4 (1 if the weights stayed standardised, 1/4 without standardising)
    const w = fitPairwise([[candidate(true, { coverage: 1, length: 4 }), candidate(false, {})]], 0.01);
    expect(w.coverage).toBeGreaterThan(0);
    expect(w.coverage / w.length).toBeCloseTo(4, 6);
  });

  it("shrinks the weights as the penalty grows", () => {
    const loose = fitPairwise(groups, 0.001);
    const tight = fitPairwise(groups, 1);
    expect(Math.abs(tight.coverage)).toBeLessThan(Math.abs(loose.coverage));
  });
});

describe("isEvidenceSentence", () => {
  const quote = "We scale the dot products by 1/sqrt(dk) to counteract this effect.";
  it("holds most of a quote's words", () => {
    expect(isEvidenceSentence("To counteract this effect, we scale the dot products by 1/sqrt(dk).", [quote])).toBe(
      true,
    );
    expect(isEvidenceSentence("We scale the outputs.", [quote])).toBe(false);
  });
  it("is one sentence of a quote that spans several", () => {
    const two =
      "The dot products grow large in magnitude for large values of dk. We scale them by 1/sqrt(dk) to counteract this.";
    expect(isEvidenceSentence("The dot products grow large in magnitude for large values of dk.", [two])).toBe(true);
    expect(isEvidenceSentence("The dot products grow.", [two])).toBe(false);
  });
});

describe("the sentence scorer", () => {
  it("weighs every feature, and sums weight times feature", () => {
    expect(Object.keys(SCORE_WEIGHTS).sort()).toEqual([...FEATURES].sort());
    expect(Object.keys(HAND_WEIGHTS).sort()).toEqual([...FEATURES].sort());
    const f = Object.fromEntries(FEATURES.map((k) => [k, 0])) as unknown as SentenceFeatures;
    expect(scoreOf({ ...f, coverage: 1, rankPrior: 0.2 }, HAND_WEIGHTS)).toBeCloseTo(0.65 + 0.2);
    expect(scoreOf({ ...f, kindCue: 0.15 })).toBeCloseTo(0.15 * SCORE_WEIGHTS.kindCue);
  });
});
