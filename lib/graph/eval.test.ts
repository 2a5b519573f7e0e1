import { describe, expect, it } from "vitest";
import {
  entityMatches,
  type GoldEdge,
  type GoldEntity,
  goldEdgeProblems,
  normalizeName,
  type PredictedEdge,
  quoteOnPage,
  scoreAgainstGold,
} from "./eval";

const DPR: GoldEntity = { name: "DPR", type: "Method", aliases: ["Dense Passage Retriever", "dense retriever"] };
const BM25: GoldEntity = { name: "BM25", type: "Method" };
const NQ: GoldEntity = { name: "Natural Questions", type: "Dataset", aliases: ["NQ"] };

function gold(id: string, relation: GoldEdge["relation"], source: GoldEntity, target: GoldEntity, paper = "p1") {
  return { id, relation, source, target, paper_id: paper, page: 1, quote: `${source.name} … ${target.name}` };
}

function pred(relation: string, source: string, target: string, paper = "p1"): PredictedEdge {
  return { relation, source: { name: source }, target: { name: target }, paper_id: paper, page: 1, quote: "" };
}

describe("quoteOnPage", () => {
  const page = "Our dense re-\ntriever outperforms a strong\n  Lucene-BM25 system largely by 9%–19% abso-\nlute";

  it("finds a quote across line breaks, runs of spaces and words broken at a line end", () => {
    expect(quoteOnPage(page, "our dense retriever outperforms a strong Lucene-BM25 system".replace("our", "Our"))).toBe(
      true,
    );
    expect(quoteOnPage(page, "largely by 9%–19% absolute")).toBe(true);
    expect(quoteOnPage(page, "largely by 9%–19% abso- lute")).toBe(true);
  });

  it("rejects a quote that is not on the page, an altered one and an empty one", () => {
    expect(quoteOnPage(page, "our dense retriever outperforms a weak Lucene-BM25 system")).toBe(false);
    expect(quoteOnPage(page, "Our dense retriever outperforms BM25")).toBe(false);
    expect(quoteOnPage(page, "   ")).toBe(false);
  });
});

describe("entity names", () => {
  it("normalises case, punctuation, hyphens and a leading article", () => {
    expect(normalizeName("GPT-3")).toBe(normalizeName("gpt 3"));
    expect(normalizeName("The Pile")).toBe(normalizeName("Pile"));
    expect(normalizeName("BM25")).not.toBe(normalizeName("BM-2.5x"));
  });

  it("matches a gold entity by name, alias, or either part of 'Expansion (ACRONYM)'", () => {
    expect(entityMatches(DPR, "dpr")).toBe(true);
    expect(entityMatches(DPR, "dense passage retriever")).toBe(true);
    expect(entityMatches(DPR, "Dense Passage Retrieval (DPR)")).toBe(true);
    expect(entityMatches(DPR, "BM25")).toBe(false);
    expect(entityMatches(DPR, "dense passage retrieval")).toBe(false);
  });
});

describe("scoreAgainstGold", () => {
  const goldEdges: GoldEdge[] = [
    gold("a", "improves_on", DPR, BM25),
    gold("b", "evaluates_on", DPR, NQ),
    gold("c", "evaluates_on", BM25, NQ, "p2"),
    gold("d", "uses", DPR, BM25),
  ];

  it("counts a gold edge as found only when relation, paper, source and target all match", () => {
    const s = scoreAgainstGold(goldEdges, [
      pred("improves_on", "Dense Passage Retriever (DPR)", "bm-25"),
      pred("evaluates_on", "DPR", "NQ", "p2"), // wrong paper: not b
      pred("compares_to", "DPR", "BM25"), // wrong relation: not a or d
      pred("uses", "BM25", "DPR"), // reversed: not d
      pred("evaluates_on", "BM25", "natural questions", "p2"),
      pred("uses", "DPR", "BM25", "elsewhere"), // a paper outside the gold set: ignored
    ]);
    expect(s.recall.improves_on).toMatchObject({ k: 1, n: 1, share: 1 });
    expect(s.recall.evaluates_on).toMatchObject({ k: 1, n: 2, share: 0.5 });
    expect(s.recall.uses).toMatchObject({ k: 0, n: 1, share: 0 });
    expect(s.recall.extends).toMatchObject({ k: 0, n: 0, share: null, low: null, high: null });
    expect(s.overall).toMatchObject({ k: 2, n: 4 });
    expect(s.missed).toEqual(["b", "d"]);
    expect(s.predictedOnGoldPapers).toBe(5);
    expect(s.predictedMatchingGold).toBe(2);
  });

  it("gives 95 % Wilson intervals around the recall", () => {
    const s = scoreAgainstGold(goldEdges, [pred("evaluates_on", "DPR", "NQ")]);
    const r = s.recall.evaluates_on;
    expect(r.low).toBeGreaterThan(0);
    expect(r.low).toBeLessThan(0.5);
    expect(r.high).toBeGreaterThan(0.5);
    expect(r.high).toBeLessThan(1);
    expect(s.recall.improves_on).toMatchObject({ k: 0, n: 1, low: 0 });
  });
});

describe("goldEdgeProblems", () => {
  const quote = "Our dense retriever outperforms a strong Lucene-BM25 system";
  const edge = (over: Partial<GoldEdge>): GoldEdge => ({
    id: "x",
    relation: "improves_on",
    source: DPR,
    target: BM25,
    paper_id: "p1",
    page: 1,
    quote,
    ...over,
  });

  it("accepts an edge whose names (or aliases) are in its quote", () => {
    expect(goldEdgeProblems(edge({}))).toEqual([]);
  });

  it("reports an unknown relation, a self edge, a missing name, a long quote and a bad page", () => {
    expect(goldEdgeProblems(edge({ relation: "cites" as GoldEdge["relation"] }))).toContain("unknown relation cites");
    expect(goldEdgeProblems(edge({ target: { name: "Dense Passage Retriever", type: "Method" } }))).toContain(
      "self edge",
    );
    expect(goldEdgeProblems(edge({ target: NQ }))).toContain(
      'target "Natural Questions" (or an alias) not in the quote',
    );
    expect(goldEdgeProblems(edge({ quote: `${quote} ${"x".repeat(300)}` }))).toContain(
      "quote longer than 300 characters",
    );
    expect(goldEdgeProblems(edge({ page: 0 }))).toContain("page 0 is not a 1-based page");
  });

  it("lets the paper's main entity be the unnamed source of a first-person quote, and nothing else", () => {
    const RAG: GoldEntity = { name: "RAG", type: "Method" };
    const firstPerson = edge({ source: RAG, target: DPR, quote: "We use a pre-trained bi-encoder from DPR" });
    expect(goldEdgeProblems(firstPerson, RAG)).toEqual([]);
    expect(goldEdgeProblems(firstPerson)).toContain('source "RAG" (or an alias) not in the quote');
    expect(goldEdgeProblems(firstPerson, BM25)).toContain('source "RAG" (or an alias) not in the quote');
    const thirdPerson = edge({ source: RAG, target: DPR, quote: "A pre-trained bi-encoder from DPR is used" });
    expect(goldEdgeProblems(thirdPerson, RAG)).toContain('source "RAG" (or an alias) not in the quote');
  });
});
