import { describe, expect, it } from "vitest";
import { bestSentenceScore } from "./sentences";

// a chunk of three sentences of 4, 6 and 5 terms, behind a title of 2 terms (positions 1–2)
/** Positions as getContentRows returns them. */
const pos = (o: Record<string, number[]>) => new Map(Object.entries(o));

const base = {
  lexemes: ["cache", "throughput"],
  idf: [2, 3],
  headerTerms: 2,
  sentenceEnds: [4, 10, 15],
  averageLength: 5,
};

describe("bestSentenceScore", () => {
  it("puts a word on a sentence's last term in that sentence, its next word in the next one", () => {
    // body terms 0–3 are the first sentence: term 3 (position 6) is its last, term 4 (position 7) the second's first
    const last = bestSentenceScore({ ...base, positions: pos({ cache: [6], throughput: [7] }) });
    const both = bestSentenceScore({ ...base, positions: pos({ cache: [6], throughput: [5] }) });
    expect(both).toBeGreaterThan(last);
    // without a title, body term 0 is position 1
    const noTitle = { ...base, headerTerms: 0 };
    expect(bestSentenceScore({ ...noTitle, positions: pos({ cache: [1], throughput: [4] }) })).toBeCloseTo(both, 10);
  });

  it("looks words up safely: a query word named like an object's member is just a word", () => {
    const input = { ...base, lexemes: ["constructor", "tostring", "cache"], idf: [1, 1, 2] };
    expect(bestSentenceScore({ ...input, positions: pos({ cache: [3] }) })).toBeGreaterThan(0);
    expect(bestSentenceScore({ ...input, positions: pos({}) })).toBe(0);
  });

  it("scores the sentence holding the query's words together above the same words spread over sentences", () => {
    // together: both words in the second sentence (body terms 4–9 → positions 7–12)
    const together = bestSentenceScore({ ...base, positions: pos({ cache: [8], throughput: [10] }) });
    // apart: the same two occurrences, one in the first sentence and one in the third
    const apart = bestSentenceScore({ ...base, positions: pos({ cache: [3], throughput: [15] }) });
    expect(together).toBeGreaterThan(apart);
    // apart, the best sentence is the one with the rarer word alone
    const k1 = 1.2;
    const norm = (length: number) => k1 * (1 - 0.75 + (0.75 * length) / 5);
    expect(apart).toBeCloseTo((3 * (k1 + 1)) / (1 + norm(5)), 10);
  });

  it("leaves the title's words out: they head every passage of the paper", () => {
    expect(bestSentenceScore({ ...base, positions: pos({ cache: [1], throughput: [2] }) })).toBe(0);
  });

  it("normalises by sentence length: the same words count more in a shorter sentence", () => {
    const short = bestSentenceScore({ ...base, positions: pos({ cache: [3] }) }); // first sentence, 4 terms
    const long = bestSentenceScore({ ...base, positions: pos({ cache: [9] }) }); // second sentence, 6 terms
    expect(short).toBeGreaterThan(long);
  });

  it("is 0 without sentences, a usable mean length, or any query word", () => {
    expect(bestSentenceScore({ ...base, sentenceEnds: [], positions: pos({ cache: [3] }) })).toBe(0);
    expect(bestSentenceScore({ ...base, averageLength: 0, positions: pos({ cache: [3] }) })).toBe(0);
    expect(bestSentenceScore({ ...base, positions: pos({}) })).toBe(0);
    // a position past the stored sentences (a chunk whose ends were computed from other text) counts nowhere
    expect(bestSentenceScore({ ...base, positions: pos({ cache: [40] }) })).toBe(0);
  });
});
