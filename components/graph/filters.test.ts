import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EdgeEvidence } from "./edge-evidence";
import { EdgeList } from "./edge-list";
import { defaultFilters, evidenceHref, filterEdges, paperClaims, parseYear, yearSpan } from "./filters";
import { type GraphEdgeResult, RELATION_ORDER } from "./types";

function edge(id: number, over: Partial<GraphEdgeResult>): GraphEdgeResult {
  return {
    id,
    relation: "improves_on",
    source: { id: 1, name: "A", type: "Method" },
    target: { id: 2, name: "B", type: "Method" },
    paper_id: "2101.00001",
    paper_title: "A paper",
    year: 2020,
    page: 3,
    quote: "A outperforms B.",
    char_start: 10,
    char_end: 26,
    confidence: 0.8,
    status: "accepted",
    extractor: "rules",
    ...over,
  };
}

const edges = [
  edge(1, {}),
  edge(2, { relation: "uses", year: 2018, confidence: 0.65 }),
  edge(3, { relation: "evaluates_on", year: null, confidence: 0.9 }),
];

describe("graph filters", () => {
  it("keeps everything by default", () => {
    expect(filterEdges(edges, defaultFilters(RELATION_ORDER)).map((e) => e.id)).toEqual([1, 2, 3]);
  });

  it("filters by relation, minimum confidence and years (an edge without a year only while no bound is set)", () => {
    const f = defaultFilters(RELATION_ORDER);
    expect(filterEdges(edges, { ...f, relations: new Set(["uses"]) }).map((e) => e.id)).toEqual([2]);
    expect(filterEdges(edges, { ...f, minConfidence: 0.7 }).map((e) => e.id)).toEqual([1, 3]);
    expect(filterEdges(edges, { ...f, yearFrom: 2019 }).map((e) => e.id)).toEqual([1]);
    expect(filterEdges(edges, { ...f, yearTo: 2019 }).map((e) => e.id)).toEqual([2]);
    expect(filterEdges(edges, { ...f, yearFrom: 2018, yearTo: 2020 }).map((e) => e.id)).toEqual([1, 2]);
  });

  it("reads typed years and the span of the edges' years", () => {
    expect(parseYear(" 2019 ")).toBe(2019);
    expect(parseYear("19")).toBeNull();
    expect(parseYear("3000")).toBeNull();
    expect(parseYear("")).toBeNull();
    expect(yearSpan(edges)).toEqual({ min: 2018, max: 2020 });
    expect(yearSpan([edges[2] as GraphEdgeResult])).toBeNull();
  });

  it("opens evidence as research's source chips do: the paper at the page, the quote by its offsets", () => {
    expect(evidenceHref(edge(1, { paper_id: "hep-th/9901001" }))).toBe(
      "/papers/hep-th%2F9901001?page=3&start=10&end=26",
    );
  });
});

describe("paperClaims", () => {
  it("makes one claim of a paper's repeats, keeps another paper's and another relation's apart, in order", () => {
    const edges = [
      edge(1, { page: 1 }),
      edge(2, { page: 4 }),
      edge(3, { paper_id: "2202.00002", paper_title: "Another" }),
      edge(4, { relation: "compares_to" }),
      edge(5, { page: 9 }),
    ];
    const claims = paperClaims(edges);
    expect(claims.map((c) => [c.edge.id, c.others.map((o) => o.id)])).toEqual([
      [1, [2, 5]],
      [3, []],
      [4, []],
    ]);
  });

  it("are listed once with how many times the paper states them, and the evidence shows the other quotes with their pages", () => {
    const [claim] = paperClaims([edge(1, { page: 1 }), edge(2, { page: 4, quote: "Again, A outperforms B." })]);
    if (!claim) throw new Error("no claim");
    const list = renderToStaticMarkup(
      createElement(EdgeList, { claims: [claim], selectedEdgeId: null, onSelect: () => {} }),
    );
    expect(list.match(/data-testid="edge-item"/g)).toHaveLength(1);
    expect(list).toContain("p. 1 (stated 2 times)");
    const evidence = renderToStaticMarkup(createElement(EdgeEvidence, { edge: claim.edge, others: claim.others }));
    expect(evidence).toContain("The paper states it once more");
    expect(evidence).toContain("Again, A outperforms B.");
    expect(evidence).toContain(`href="${evidenceHref(claim.others[0] as GraphEdgeResult).replace(/&/g, "&amp;")}"`);
  });
});
