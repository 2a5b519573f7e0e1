import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { centralSentences, chunkSummary, splitSentences, summarizeExtractive, summarizeWithLlm } from "./summarize";
import type { PaperMetadata } from "./types";

const meta: PaperMetadata = {
  title: "Retrieval for Long Documents",
  authors: ["A. Author"],
  categories: [],
  abstract: "We study retrieval over long documents. Page-level chunks improve recall of cited evidence.",
};

const pages = [
  "Retrieval for Long Documents\nAbstract\nWe study retrieval over long documents.",
  "Dense retrieval maps questions and passages into a shared vector space for nearest neighbour search.\n" +
    "Lexical retrieval matches the exact words of the question against an inverted index of passages.\n" +
    "Hybrid retrieval fuses the lexical and dense rankings with reciprocal rank fusion to improve recall.\n" +
    "Figure 2: Recall of the three retrievers on the benchmark.\n" +
    "x = 3.2 + 4.1 / 7 = 0.99 * 12",
  "The hybrid retriever reaches the best recall of cited evidence on every benchmark we tried in this study.\n" +
    "References\n[1] Some Author. A paper about retrieval that we cite in the references section. 2020.",
];

const model = (text: string) =>
  new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: "text", text }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 10, text: 10, reasoning: 0 },
      },
      warnings: [],
    }),
  });

describe("splitSentences", () => {
  it("joins layout lines and keeps abbreviations inside sentences", () => {
    expect(splitSentences("We follow Smith et al. for this.\nIt works, e.g. on long\ntexts. Done now.")).toEqual([
      "We follow Smith et al. for this.",
      "It works, e.g. on long texts.",
      "Done now.",
    ]);
  });
});

describe("summarizeExtractive", () => {
  it("gives the abstract plus central body sentences with their pages, skipping captions, maths and references", () => {
    const s = summarizeExtractive({ pages, metadata: meta, maxSentences: 3 });
    expect(s.method).toBe("extractive");
    expect(s.text).toMatch(/^\*\*Abstract\.\*\* We study retrieval/);
    expect(s.text).toContain("**Key points**");
    const points = s.sentences.filter((x) => x.page > 1);
    expect(points.length).toBeGreaterThan(0);
    expect(points.length).toBeLessThanOrEqual(3);
    for (const p of points) {
      expect(pages[p.page - 1]?.replace(/\n/g, " ")).toContain(p.text);
      expect(s.text).toContain(`${p.text} (p. ${p.page})`);
    }
    expect(s.text).not.toMatch(/Figure 2|0\.99|\[1\] Some Author/);
  });

  it("prefers sentences close to the document's centre and drops near-duplicates", () => {
    const dup = "Hybrid retrieval fuses the lexical and dense rankings with reciprocal rank fusion to improve recall.";
    const picked = centralSentences(
      [`${dup}\n${dup}\nThe weather was pleasant during the conference dinner.`],
      undefined,
      2,
    );
    expect(picked.filter((p) => p.text === dup)).toHaveLength(1);
  });

  it("never returns an empty summary", () => {
    const s = summarizeExtractive({ pages: ["x y z"], metadata: { title: "T", authors: [], categories: [] } });
    expect(s.text.length).toBeGreaterThan(0);
  });
});

describe("summarizeWithLlm", () => {
  it("uses the model's text and records the model and cited pages", async () => {
    const s = await summarizeWithLlm({
      model: model("The paper studies retrieval.\n\n- Hybrid retrieval gives the best recall (p. 3)"),
      pages,
      metadata: meta,
    });
    expect(s).toMatchObject({ method: "llm", model: "mock-model-id" });
    expect(s.sentences).toEqual([{ text: "Hybrid retrieval gives the best recall (p. 3)", page: 3 }]);
  });

  it("fails on an empty answer so the caller falls back to the extractive summary", async () => {
    await expect(summarizeWithLlm({ model: model("   "), pages, metadata: meta })).rejects.toThrow(/empty/);
  });
});

describe("chunkSummary", () => {
  it("cuts passages with exact offsets and the pages they cite", () => {
    const s = summarizeExtractive({ pages, metadata: meta, maxSentences: 3 });
    const chunks = chunkSummary(s);
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    for (const c of chunks) expect(s.text.slice(c.charStart, c.charEnd)).toBe(c.text);
    expect(chunks[0]?.pages).toEqual([1]);
    expect(chunks.slice(1).flatMap((c) => c.pages).length).toBeGreaterThan(0);
  });
});
