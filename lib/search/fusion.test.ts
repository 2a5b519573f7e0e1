import { describe, expect, it } from "vitest";
import { HUBNESS_WEIGHT, hubnessOrder, reciprocalRankFusion } from "./fusion";

const hit = (id: string, similarity: number, hubness: number | null) => ({ id, similarity, hubness });

describe("hubnessOrder", () => {
  it("ranks by similarity minus half the hubness: a passage close to everything drops below a specific one", () => {
    // the hub is nearer the query, but also near everything else
    const hits = [hit("hub", 0.72, 0.9), hit("answer", 0.7, 0.5), hit("other", 0.5, 0.5)];
    expect(HUBNESS_WEIGHT).toBe(0.5);
    expect(hubnessOrder(hits).map((h) => h.id)).toEqual(["answer", "hub", "other"]);
    // without the correction the order is by similarity
    expect(hubnessOrder(hits.map((h) => ({ ...h, hubness: 0.5 }))).map((h) => h.id)).toEqual([
      "hub",
      "answer",
      "other",
    ]);
  });

  it("counts an unknown hubness as the mean of the known ones, and keeps the input order without any", () => {
    const hits = [hit("a", 0.8, null), hit("b", 0.79, 0.2), hit("c", 0.7, 0.6)];
    // mean 0.4: a scores 0.6, b 0.69, c 0.4
    expect(hubnessOrder(hits).map((h) => h.id)).toEqual(["b", "a", "c"]);
    const none = [hit("x", 0.5, null), hit("y", 0.9, null)];
    expect(hubnessOrder(none).map((h) => h.id)).toEqual(["x", "y"]);
    expect(hubnessOrder([])).toEqual([]);
  });

  it("keeps ties in input order and does not change the hits", () => {
    const hits = [hit("a", 0.6, 0.4), hit("b", 0.6, 0.4), hit("c", 0.7, 0.6)];
    const copy = structuredClone(hits);
    expect(hubnessOrder(hits).map((h) => h.id)).toEqual(["a", "b", "c"]);
    expect(hits).toEqual(copy);
  });
});

describe("reciprocalRankFusion", () => {
  it("sums weight / (60 + rank) over the lists, once per list", () => {
    const fused = reciprocalRankFusion([
      { ids: ["a", "b", "a"], weight: 1 },
      { ids: ["b", "c"], weight: 2 },
      { ids: ["c"], weight: 0 },
    ]);
    expect(fused.get("a")).toBeCloseTo(1 / 61, 12);
    expect(fused.get("b")).toBeCloseTo(1 / 62 + 2 / 61, 12);
    expect(fused.get("c")).toBeCloseTo(2 / 62, 12);
  });
});
