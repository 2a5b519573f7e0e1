import { describe, expect, it } from "vitest";
import {
  compareRuns,
  comparisonsOf,
  type EvalQuestion,
  evalQuestionsSchema,
  ndcgAt,
  normalizeForMatch,
  pageRecallAt,
  paperRecallAt,
  passageHitRate,
  percentile,
  reciprocalRank,
  samePaper,
  scoreQuestion,
  summarize,
} from "./eval";

const ev = (paper_id: string, page: number, quote = "") => ({ paper_id, page, quote });
const it_ = (paperId: string, page: number, text = "") => ({ paperId, page, text });

describe("retrieval metrics", () => {
  it("matches paper ids with or without an arXiv version", () => {
    expect(samePaper("1706.03762v5", "1706.03762")).toBe(true);
    expect(samePaper("1706.03762", "1706.03762v2")).toBe(true);
    expect(samePaper("1706.03762", "1706.03763")).toBe(false);
    expect(samePaper("acl2023-programfc", "acl2023-programfc")).toBe(true);
  });

  it("matches a paper named by the stem of its file when the library gave it another id", () => {
    const item = { paperId: "fact-checking-complex-claims", aliases: ["acl2023-programfc"], page: 4, text: "" };
    expect(pageRecallAt([item], [ev("acl2023-programfc", 4)], 5)).toBe(1);
    expect(paperRecallAt([item], [ev("acl2023-programfc", 9)], 5)).toBe(1);
    expect(pageRecallAt([item], [ev("acl2023-other", 4)], 5)).toBe(0);
  });

  it("page recall counts evidence pages found in the first k", () => {
    const items = [it_("a", 1), it_("b", 2), it_("a", 3), it_("c", 9), it_("d", 1), it_("b", 4)];
    expect(pageRecallAt(items, [ev("a", 3)], 5)).toBe(1);
    expect(pageRecallAt(items, [ev("a", 3)], 2)).toBe(0);
    expect(pageRecallAt(items, [ev("a", 3), ev("b", 4)], 5)).toBe(0.5);
    expect(pageRecallAt(items, [ev("a", 3), ev("b", 4)], 10)).toBe(1);
    // the same page quoted twice is one page
    expect(pageRecallAt(items, [ev("a", 3), ev("a", 3)], 5)).toBe(1);
    expect(pageRecallAt([], [ev("a", 3)], 5)).toBe(0);
  });

  it("paper recall ignores pages", () => {
    const items = [it_("a", 7), it_("x", 1)];
    expect(paperRecallAt(items, [ev("a", 3), ev("b", 1)], 5)).toBe(0.5);
    expect(paperRecallAt(items, [ev("a", 3), ev("a", 4)], 5)).toBe(1);
  });

  it("reciprocal rank is 1/rank of the first result on an evidence page", () => {
    const items = [it_("x", 1), it_("a", 2), it_("a", 3)];
    expect(reciprocalRank(items, [ev("a", 3)])).toBeCloseTo(1 / 3);
    expect(reciprocalRank(items, [ev("a", 3), ev("x", 1)])).toBe(1);
    expect(reciprocalRank(items, [ev("z", 3)])).toBe(0);
  });

  it("nDCG@k is 1 for an ideal ranking and counts each page once", () => {
    expect(ndcgAt([it_("a", 1), it_("b", 2)], [ev("a", 1), ev("b", 2)], 10)).toBeCloseTo(1);
    expect(ndcgAt([it_("x", 1), it_("a", 1)], [ev("a", 1)], 10)).toBeCloseTo(1 / Math.log2(3));
    // a second chunk of the same page earns nothing
    expect(ndcgAt([it_("a", 1), it_("a", 1)], [ev("a", 1), ev("b", 2)], 10)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)));
    expect(ndcgAt([it_("x", 1)], [ev("a", 1)], 10)).toBe(0);
  });

  it("passage hits compare quotes after whitespace, case and ligature normalisation", () => {
    const items = [it_("a", 1, "We  suspect that for LARGE values of\nd_k, the dot products ﬁnally grow.")];
    expect(passageHitRate(items, [ev("a", 1, "for large values of d_k, the dot products finally")])).toBe(1);
    expect(passageHitRate(items, [ev("a", 1, "for large values"), ev("a", 1, "softmax saturates")])).toBe(0.5);
    expect(normalizeForMatch("  A\t\tB\nC ")).toBe("a b c");
  });

  it("percentiles use the nearest rank", () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([], 50)).toBe(0);
  });

  it("scores none questions by whether anything passed the cutoff, and summarises", () => {
    const none: EvalQuestion = { qid: "N", type: "none", question: "q", evidence: [] };
    const single: EvalQuestion = { qid: "S", type: "single", question: "q", evidence: [ev("a", 2, "x")] };
    const o1 = scoreQuestion(none, [], 3);
    const o2 = scoreQuestion(none, [it_("a", 1)], 5);
    const o3 = scoreQuestion(single, [it_("b", 1), it_("a", 2, "the X")], 10);
    expect(o1.falseHit).toBe(false);
    expect(o2.falseHit).toBe(true);
    expect(o3).toMatchObject({ pageRecall5: 1, rr: 0.5, passageHit: 1, falseHit: null });
    const s = summarize("hybrid", [o1, o2, o3]);
    expect(s).toMatchObject({ questions: 3, answerable: 1, unanswerable: 2, mrr: 0.5, noneFalseHitRate: 0.5 });
    expect(s.latencyP50Ms).toBe(5);
    // one answerable question: every interval is the point itself
    expect(s.intervals.mrr).toEqual({ low: 0.5, high: 0.5 });
    expect(s.intervals.pageRecall5).toEqual({ low: 1, high: 1 });
  });

  it("compares two runs question by question, ignoring none questions and unmatched ones", () => {
    const q = (qid: string, page: number): EvalQuestion => ({
      qid,
      type: "single",
      question: "q",
      evidence: [ev("a", page)],
    });
    const none: EvalQuestion = { qid: "N", type: "none", question: "q", evidence: [] };
    const hits = (qid: string, rank: number) =>
      scoreQuestion(q(qid, 1), [...Array.from({ length: rank - 1 }, () => it_("z", 9)), it_("a", 1)], 1);
    // hybrid finds the page first on Q1–Q5, fts third; Q6 only hybrid ran; the none question found something in fts
    const hybrid = {
      summary: { retriever: "hybrid" as const },
      outcomes: [...["Q1", "Q2", "Q3", "Q4", "Q5", "Q6"].map((id) => hits(id, 1)), scoreQuestion(none, [], 1)],
    };
    const fts = {
      summary: { retriever: "fts" as const },
      outcomes: [...["Q1", "Q2", "Q3", "Q4", "Q5"].map((id) => hits(id, 3)), scoreQuestion(none, [it_("a", 1)], 1)],
    };
    const c = compareRuns(hybrid, fts);
    expect(c).toMatchObject({ a: "hybrid", b: "fts", questions: 5 });
    expect(c.tests.mrr.difference).toBeCloseTo(1 - 1 / 3, 12);
    expect(c.tests.mrr.pValue).toBeCloseTo(2 / 32, 12);
    expect(c.tests.pageRecall5).toMatchObject({ difference: 0, pValue: 1 });
    // hybrid configurations against each single retriever, then against each other
    const mmr = { summary: { retriever: "hybrid-mmr" as const }, outcomes: fts.outcomes };
    const vector = { summary: { retriever: "vector" as const }, outcomes: fts.outcomes };
    expect(comparisonsOf([fts, vector, hybrid, mmr]).map((x) => `${x.a}-${x.b}`)).toEqual([
      "hybrid-fts",
      "hybrid-vector",
      "hybrid-hybrid-mmr",
      "hybrid-mmr-fts",
      "hybrid-mmr-vector",
    ]);
    expect(comparisonsOf([fts, vector])).toEqual([]);
    // compared alone, a p-value is its own adjustment; among five comparisons Holm raises the smallest fivefold
    expect(c.tests.mrr.adjustedPValue).toBe(c.tests.mrr.pValue);
    const all = comparisonsOf([fts, vector, hybrid, mmr]);
    expect(all[0]?.tests.mrr.pValue).toBeCloseTo(2 / 32, 12);
    expect(all[0]?.tests.mrr.adjustedPValue).toBeCloseTo(5 * (2 / 32), 12);
  });

  it("refuses a question file that repeats a qid (runs are compared by qid)", () => {
    const q = { qid: "1", type: "single", question: "q", evidence: [] };
    const parsed = evalQuestionsSchema.safeParse([q, { ...q, question: "another" }]);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('qid "1" appears twice');
  });

  it("validates the question file format", () => {
    expect(evalQuestionsSchema.safeParse([{ qid: "1", type: "single", question: "q", evidence: [] }]).success).toBe(
      true,
    );
    expect(evalQuestionsSchema.safeParse([{ qid: "1", type: "maybe", question: "q", evidence: [] }]).success).toBe(
      false,
    );
  });
});
