import { describe, expect, it } from "vitest";
import { groupByPaper } from "./group-results";
import type { PassageHit } from "./types";

function hit(paperId: string, page: number, relevance: number, n: number): PassageHit {
  return {
    chunkUid: `${paperId}-${page}-${n}`,
    paperId,
    title: `Title ${paperId}`,
    year: 2024,
    page,
    charStart: 0,
    charEnd: 10,
    section: null,
    bibliography: false,
    text: "text",
    score: 1 / (60 + n),
    relevance,
    fts: { score: 3, rank: n },
    vector: null,
  };
}

describe("groupByPaper", () => {
  it("keeps papers in the order of their best passage and passages in result order", () => {
    const hits = [hit("a", 5, 0.9, 1), hit("b", 2, 0.8, 2), hit("a", 2, 0.7, 3), hit("a", 5, 0.6, 4)];
    const groups = groupByPaper(hits);
    expect(groups.map((g) => g.paperId)).toEqual(["a", "b"]);
    expect(groups[0]?.hits.map((h) => h.chunkUid)).toEqual(["a-5-1", "a-2-3", "a-5-4"]);
    expect(groups[0]?.relevance).toBe(0.9);
    expect(groups[0]?.title).toBe("Title a");
  });

  it("lists each page once, in page order, with its best passage", () => {
    const groups = groupByPaper([hit("a", 5, 0.9, 1), hit("a", 2, 0.7, 2), hit("a", 5, 0.6, 3)]);
    expect(groups[0]?.pages.map((p) => [p.page, p.hit.chunkUid])).toEqual([
      [2, "a-2-2"],
      [5, "a-5-1"],
    ]);
  });

  it("is empty for no hits", () => {
    expect(groupByPaper([])).toEqual([]);
  });
});
