import { describe, expect, it } from "vitest";
import { bestSentenceScore } from "./sentences";

// a chunk of three sentences of 4, 6 and 5 terms, behind a title of 2 terms (positions 1–2)
const base = {
  lexemes: ["cache", "throughput"],
  idf: [2, 3],
  headerTerms: 2,
  sentenceEnds: [4, 10, 15],
  averageLength: 5,
};

describe("bestSentenceScore", () => {
  it("scores the sentence holding the query's words together above the same words spread over sentences", () => {
    // together: both words in the second sentence (body terms 4–9 → positions 7–12)
    const together = bestSentenceScore({ ...base, positions: { cache: [8], throughput: [10] } });
    // apart: the same two occurrences, one in the first sentence and one in the third
    const apart = bestSentenceScore({ ...base, positions: { cache: [3], throughput: [15] } });
    expect(together).toBeGreaterThan(apart);
    // apart, the best sentence is the one with the rarer word alone
    const k1 = 1.2;
    const norm = (length: number) => k1 * (1 - 0.75 + (0.75 * length) / 5);
    expect(apart).toBeCloseTo((3 * (k1 + 1)) / (1 + norm(5)), 10);
  });

  it("leaves the title's words out: they head every passage of the paper", () => {
    expect(bestSentenceScore({ ...base, positions: { cache: [1], throughput: [2] } })).toBe(0);
  });

  it("normalises by sentence length: the same words count more in a shorter sentence", () => {
    const short = bestSentenceScore({ ...base, positions: { cache: [3] } }); // first sentence, 4 terms
    const long = bestSentenceScore({ ...base, positions: { cache: [9] } }); // second sentence, 6 terms
    expect(short).toBeGreaterThan(long);
  });

  it("is 0 without sentences, a usable mean length, or any query word", () => {
    expect(bestSentenceScore({ ...base, sentenceEnds: [], positions: { cache: [3] } })).toBe(0);
    expect(bestSentenceScore({ ...base, averageLength: 0, positions: { cache: [3] } })).toBe(0);
    expect(bestSentenceScore({ ...base, positions: {} })).toBe(0);
    // a position past the stored sentences (a chunk whose ends were computed from other text) counts nowhere
    expect(bestSentenceScore({ ...base, positions: { cache: [40] } })).toBe(0);
  });
});
