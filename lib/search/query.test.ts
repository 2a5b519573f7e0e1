import { describe, expect, it } from "vitest";
import { LecternError } from "@/lib/errors";
import { maximalMarginalRelevance, reciprocalRankFusion } from "./fusion";
import { MAX_QUERY_CHARS, parseQueries, queryTerms } from "./query";

function badRequest(fn: () => unknown): LecternError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(LecternError);
    expect((e as LecternError).code).toBe("bad_request:query");
    return e as LecternError;
  }
  throw new Error("expected a bad_request:query error");
}

describe("queryTerms", () => {
  it("keeps only words: no tsquery operator, quote or parenthesis survives", () => {
    expect(queryTerms("attention & (softmax | !scaling):* 'quoted' \"double\" <-> back\\slash")).toEqual([
      "attention",
      "softmax",
      "scaling",
      "quoted",
      "double",
      "back",
      "slash",
    ]);
    for (const t of queryTerms("'; DROP TABLE chunks; -- && || !! :* ()")) expect(t).toMatch(/^[\p{L}\p{M}\p{N}]+$/u);
  });

  it("keeps other scripts whole and drops emoji", () => {
    expect(queryTerms("注意力机制 🚀 Трансформер नमस्ते")).toEqual(["注意力机制", "трансформер", "नमस्ते"]);
  });

  it("normalises ligatures and case, and deduplicates", () => {
    expect(queryTerms("ﬁne-tuning Fine TUNING")).toEqual(["fine", "tuning"]);
  });
});

describe("parseQueries", () => {
  it("rejects empty, whitespace-only and symbol-only input with a clear message", () => {
    expect(badRequest(() => parseQueries("")).message).toMatch(/Type a question/);
    badRequest(() => parseQueries("   \n\t "));
    badRequest(() => parseQueries([]));
    expect(badRequest(() => parseQueries("?!&|():* 🚀🚀 ''")).message).toMatch(/no words/);
  });

  it("rejects a 20,000-character query, saying what the limit is", () => {
    const e = badRequest(() => parseQueries("transformer ".repeat(1700)));
    expect(e.message).toContain(String(MAX_QUERY_CHARS.toLocaleString("en")));
  });

  it("accepts stop words only (they simply match nothing in full text)", () => {
    expect(parseQueries("the of and")).toEqual([{ text: "the of and", terms: ["the", "of", "and"] }]);
  });

  it("deduplicates multi-query input and drops wordless members", () => {
    expect(parseQueries(["a b", " a b ", "???", "c"]).map((q) => q.text)).toEqual(["a b", "c"]);
    badRequest(() => parseQueries(Array.from({ length: 20 }, (_, i) => `q${i}`)));
  });

  it("rejects non-text input", () => {
    badRequest(() => parseQueries([1 as unknown as string]));
  });
});

describe("fusion", () => {
  it("reciprocal rank fusion sums weighted 1/(60+rank)", () => {
    const s = reciprocalRankFusion([
      { ids: ["a", "b", "c"], weight: 1 },
      { ids: ["b", "a"], weight: 2 },
    ]);
    expect(s.get("a")).toBeCloseTo(1 / 61 + 2 / 62);
    expect(s.get("b")).toBeCloseTo(1 / 62 + 2 / 61);
    expect(s.get("c")).toBeCloseTo(1 / 63);
    expect(reciprocalRankFusion([{ ids: ["a"], weight: 0 }]).size).toBe(0);
  });

  it("MMR with alpha 1 keeps relevance order; lower alpha drops near-duplicates", () => {
    const c = [
      { id: "a", relevance: 1, embedding: [1, 0, 0] },
      { id: "a2", relevance: 0.95, embedding: [0.999, 0.04, 0] },
      { id: "b", relevance: 0.8, embedding: [0, 1, 0] },
    ];
    expect(maximalMarginalRelevance(c, { k: 2, alpha: 1 })).toEqual(["a", "a2"]);
    expect(maximalMarginalRelevance(c, { k: 2, alpha: 0.5 })).toEqual(["a", "b"]);
    expect(maximalMarginalRelevance(c, { k: 10, alpha: 0.5 })).toHaveLength(3);
  });

  it("MMR weighs relevance over the candidates' own range: RRF's compressed scores order as their spread-out twins", () => {
    // "a2" half overlaps "a"; "c" is new but much less relevant. The second list is the first's scores mapped to the
    // band fused RRF scores sit in (0.0278 + 0.005 × r): the same candidates, the same order.
    const vectors = { a: [1, 0, 0], a2: [0.5, 0.866, 0], c: [0, 0, 1] };
    const wide = { a: 1, a2: 0.8, c: 0.2 };
    const list = (rel: (r: number) => number) =>
      (["a", "a2", "c"] as const).map((id) => ({ id, relevance: rel(wide[id]), embedding: vectors[id] }));
    expect(
      maximalMarginalRelevance(
        list((r) => r),
        { k: 3, alpha: 0.6 },
      ),
    ).toEqual(["a", "a2", "c"]);
    expect(
      maximalMarginalRelevance(
        list((r) => 0.0278 + 0.005 * r),
        { k: 3, alpha: 0.6 },
      ),
    ).toEqual(["a", "a2", "c"]);
    // equal scores: redundancy alone decides after the first
    expect(
      maximalMarginalRelevance(
        list(() => 0.03),
        { k: 3, alpha: 0.6 },
      ),
    ).toEqual(["a", "c", "a2"]);
  });
});
