import { describe, expect, it } from "vitest";
import { bestExcerpt, emphasize, searchedMatcher, sentenceSpans, termMatcher } from "./emphasis";

const marked = (text: string, query: string) =>
  emphasize(text, termMatcher(query))
    .filter((s) => s.match)
    .map((s) => s.text);

describe("emphasize", () => {
  it("marks the query's words in other forms, and joins back to the text", () => {
    const text = "Ranking passages: the ranked lists are fused; fusion ranks them.";
    const segments = emphasize(text, termMatcher("rank fusion"));
    expect(segments.map((s) => s.text).join("")).toBe(text);
    // "fused" stems to "fus": too short to stand for "fusion" (the full-text stemmer keeps them apart too)
    expect(segments.filter((s) => s.match).map((s) => s.text)).toEqual(["Ranking", "ranked", "fusion ranks"]);
  });

  it("marks a phrase of query words joined by a space or hyphen as one", () => {
    expect(marked("Scaled Dot-Product Attention, attention  heads", "scaled dot product attention heads")).toEqual([
      "Scaled Dot-Product Attention",
      "attention",
      "heads",
    ]);
  });

  it("ignores stop words, case and width, and does not mark short stems by prefix", () => {
    expect(marked("The model ran in a RANK order", "the rank of a model")).toEqual(["model", "RANK"]);
    expect(marked("rank of models", "rank models")).toEqual(["rank", "models"]);
    expect(marked("ＢＥＲＴ fine-tuning", "bert")).toEqual(["ＢＥＲＴ"]);
  });

  it("marks nothing for a query without content words, or made of operators and symbols", () => {
    expect(marked("the and of retrieval", "the and of")).toEqual([]);
    expect(marked("Retrieval & ranking", '"); DROP TABLE chunks; -- & | ! :* ((')).toEqual([]);
    expect(emphasize("", termMatcher("x"))).toEqual([]);
  });

  it("handles other scripts and emoji", () => {
    expect(marked("Модели обучения и 検索 🔍 retrieval", "модели 検索 🔍")).toEqual(["Модели", "検索"]);
  });
});

describe("sentenceSpans", () => {
  it("splits at sentence ends followed by white space, trimmed", () => {
    const text = "First one. Second (see [1].) Third?\nFourth";
    expect(sentenceSpans(text).map((s) => text.slice(s.start, s.end))).toEqual([
      "First one.",
      "Second (see [1].)",
      "Third?",
      "Fourth",
    ]);
  });

  it("keeps decimals inside a sentence", () => {
    const text = "Recall rises to 0.81 at five. Done.";
    expect(sentenceSpans(text).map((s) => text.slice(s.start, s.end))).toEqual([
      "Recall rises to 0.81 at five.",
      "Done.",
    ]);
  });
});

describe("bestExcerpt", () => {
  const text =
    "The retriever splits every page into passages. It keeps exact offsets. " +
    "Reciprocal rank fusion of the lexicographic and dense lists lifts recall at five to 0.81. " +
    "Diversification with maximal marginal relevance then removes near-duplicate passages.";

  it("starts at the sentence with the most query words and grows while it fits", () => {
    const m = termMatcher("rank fusion of dense lists");
    const short = bestExcerpt(text, m, 100);
    expect(text.slice(short.start, short.end)).toBe(
      "Reciprocal rank fusion of the lexicographic and dense lists lifts recall at five to 0.81.",
    );
    const forwards = bestExcerpt(text, m, 180);
    expect(text.slice(forwards.start, forwards.end)).toBe(
      "Reciprocal rank fusion of the lexicographic and dense lists lifts recall at five to 0.81. " +
        "Diversification with maximal marginal relevance then removes near-duplicate passages.",
    );
    const backwards = bestExcerpt(text, m, 120);
    expect(text.slice(backwards.start, backwards.end)).toBe(
      "It keeps exact offsets. Reciprocal rank fusion of the lexicographic and dense lists lifts recall at five to 0.81.",
    );
  });

  it("is the opening when no query word is in the passage", () => {
    const span = bestExcerpt(text, termMatcher("quantum"), 80);
    expect(text.slice(span.start, span.end)).toBe(
      "The retriever splits every page into passages. It keeps exact offsets.",
    );
  });

  it("cuts a long sentence around its first query word, at word boundaries", () => {
    const long = `${"word ".repeat(100)}target ${"tail ".repeat(100)}end.`;
    const span = bestExcerpt(long, termMatcher("target"), 60);
    const excerpt = long.slice(span.start, span.end);
    expect(excerpt.length).toBeLessThanOrEqual(60);
    expect(excerpt).toContain("target");
    expect(excerpt).toMatch(/^word /);
    expect(excerpt).toMatch(/ tail$/);
  });

  it("is empty for empty text", () => {
    expect(bestExcerpt("", termMatcher("x"))).toEqual({ start: 0, end: 0 });
    expect(bestExcerpt("   ", termMatcher("x"))).toEqual({ start: 0, end: 0 });
  });
});

describe("searchedMatcher", () => {
  it("marks the library's word a misspelt query word was searched as, and the query's own words", () => {
    const text = "Multi-head attention attends to several subspaces.";
    const parts = (m: ReturnType<typeof searchedMatcher>) =>
      emphasize(text, m)
        .filter((s) => s.match)
        .map((s) => s.text);
    expect(parts(searchedMatcher("multi-head atention"))).toEqual(["Multi-head"]);
    expect(parts(searchedMatcher("multi-head atention", [{ searched: "attention" }]))).toEqual([
      "Multi-head attention",
    ]);
  });
});
