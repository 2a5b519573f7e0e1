import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { budgetPaperText, chunkSummary, summarizeExtractive, summarizeWithLlm } from "./summarize";
import type { PaperMetadata, PaperSummary } from "./types";

const meta: PaperMetadata = {
  title: "Retrieval for Long Documents",
  authors: ["A. Author"],
  categories: [],
  abstract: "We study retrieval over long documents. Page-level chunks improve recall of cited evidence.",
};

const pages = [
  "Retrieval for Long Documents\nA. Author\nAbstract\nWe study retrieval over long documents. Page-level chunks improve\nrecall of cited evidence.\n1 Introduction\nLong documents such as research papers are hard to search because their evidence is spread over many pages.",
  "2 Method\nDense retrieval maps questions and passages into a shared vector space for nearest neighbour search.\n" +
    "Lexical retrieval matches the exact words of the question against an inverted index of passages.\n" +
    "Hybrid retrieval fuses the lexical and dense rankings with reciprocal rank fusion to improve recall.\n" +
    "Figure 2: Recall of the three retrievers on the benchmark.\n" +
    "x = 3.2 + 4.1 / 7 = 0.99 * 12",
  "3 Results\nThe hybrid retriever reaches the best recall of cited evidence on every benchmark we tried in this study.\n" +
    "References\n[1] Some Author. A paper about retrieval that we cite in the references section of this paper. 2020.",
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

/** A generated paper body: `n` pages of varied sentences about a few topics, then references. */
function syntheticPaper(n: number): string[] {
  // lists of co-prime lengths, so sentences do not repeat with a short period
  const topics = ["attention", "retrieval", "training", "memory", "tokenization", "decoding", "pruning"];
  const verbs = ["improves", "reduces", "changes", "limits", "explains", "predicts", "affects", "shapes", "drives"];
  const objects = [
    "latency",
    "accuracy",
    "recall",
    "cost",
    "stability",
    "throughput",
    "robustness",
    "variance",
    "size",
    "speed",
    "bias",
  ];
  const out: string[] = [];
  for (let p = 0; p < n; p++) {
    const lines: string[] = [p === 0 ? "1 Introduction" : `${p + 1} Section ${p + 1}`];
    for (let k = 0; k < 6; k++) {
      const i = p * 6 + k;
      lines.push(
        `In this setting ${topics[i % 7]} ${verbs[i % 9]} the ${objects[i % 11]} of ${topics[(i * 3 + 1) % 7]} models on this benchmark.`,
      );
    }
    out.push(lines.join("\n"));
  }
  out.push("References\n[1] A. Author. Something about attention heads and retrieval recall that is cited. 2020.");
  return out;
}

describe("summarizeExtractive", () => {
  it("gives the abstract plus central body sentences with their pages, skipping captions, maths and references", () => {
    const s = summarizeExtractive({ pages, metadata: meta, maxSentences: 3 });
    expect(s.method).toBe("extractive");
    expect(s.text).toMatch(/^\*\*Abstract\.\*\* We study retrieval/);
    expect(s.text).toContain("**Key points**");
    const points = s.sentences.filter((x) => !meta.abstract?.includes(x.text));
    expect(points.length).toBeGreaterThan(0);
    expect(points.length).toBeLessThanOrEqual(3);
    for (const p of points) {
      expect(pages[p.page - 1]?.replace(/\n/g, " ")).toContain(p.text);
      expect(s.text).toContain(`- ${p.text} (p. ${p.page})`);
    }
    expect(s.text).not.toMatch(/Figure 2|0\.99|\[1\] Some Author|2 Method/);
    // the abstract's own sentences are recorded with page 1
    expect(s.sentences.slice(0, 2)).toEqual([
      { text: "We study retrieval over long documents.", page: 1 },
      { text: "Page-level chunks improve recall of cited evidence.", page: 1 },
    ]);
  });

  it("does not repeat the abstract among the key points", () => {
    const s = summarizeExtractive({ pages, metadata: meta });
    const keyPoints = s.text.split("**Key points**")[1] ?? "";
    expect(keyPoints).not.toContain("We study retrieval over long documents");
  });

  it("drops near-duplicate sentences and keeps document order", () => {
    const dup = "Hybrid retrieval fuses the lexical and dense rankings with reciprocal rank fusion to improve recall.";
    const s = summarizeExtractive({
      pages: [
        `1 Introduction\n${dup}\n${dup}\nThe weather was pleasant during the long conference dinner in the old town.`,
        `Dense and lexical rankings are fused with reciprocal rank fusion, which improves the recall of retrieval.\n${dup}`,
      ],
      metadata: { title: "T", authors: [], categories: [] },
      maxSentences: 4,
    });
    expect(s.sentences.filter((p) => p.text === dup)).toHaveLength(1);
    const positions = s.sentences.map((p) => s.text.indexOf(p.text));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it("skips front matter before the introduction, footnotes and sentences spliced across a break", () => {
    const s = summarizeExtractive({
      pages: [
        "A Title Line\nJane Doe, John Roe\nWe thank the reviewers for their many helpful comments on an early draft of the paper.\n1 Introduction\nThe evidence for an answer is often spread over several pages of a long paper today.\n3We use the default settings of the library for every single experiment reported in this paper.",
        "Results are strong on the benchmark that was released by the organisers of the shared task We then describe the method in more detail in the following sections of this paper.",
      ],
      metadata: { title: "A Title Line", authors: [], categories: [] },
    });
    expect(s.text).toContain("The evidence for an answer is often spread over several pages");
    expect(s.text).not.toMatch(/We thank the reviewers|default settings|shared task We then/);
  });

  it("honours maxSentences and picks from the whole body, not only the first pages", () => {
    const paper = syntheticPaper(12);
    const s = summarizeExtractive({
      pages: paper,
      metadata: { title: "T", authors: [], categories: [] },
      maxSentences: 5,
    });
    expect(s.sentences).toHaveLength(5);
    expect(Math.max(...s.sentences.map((x) => x.page))).toBeGreaterThan(3);
    expect(s.sentences.every((x) => x.page <= 12)).toBe(true); // nothing from the references page
  });

  it("never returns an empty summary", () => {
    const s = summarizeExtractive({ pages: ["x y z"], metadata: { title: "T", authors: [], categories: [] } });
    expect(s.text).toBe("x y z");
    expect(s.sentences).toEqual([{ text: "x y z", page: 1 }]);
    expect(summarizeExtractive({ pages: [], metadata: { title: "T", authors: [], categories: [] } }).text).toBe("T");
  });

  it("summarises a 300-page document, citing pages that exist", () => {
    // (its speed is covered by `npm run bench:ingest`, not asserted here)
    const s = summarizeExtractive({ pages: syntheticPaper(300), metadata: meta });
    expect(s.sentences.length).toBeGreaterThan(2);
    for (const x of s.sentences) {
      expect(x.page).toBeGreaterThanOrEqual(1);
      expect(x.page).toBeLessThanOrEqual(300);
    }
  });
});

describe("budgetPaperText", () => {
  it("keeps everything within budget, with page markers and without the references", () => {
    const t = budgetPaperText(pages, 10_000);
    expect(t).toContain("[p. 1] Retrieval for Long Documents");
    expect(t).toContain("[p. 3] 3 Results");
    expect(t).not.toContain("[1] Some Author");
  });

  it("shares a small budget across all pages instead of spending it on the first ones", () => {
    const paper = syntheticPaper(30);
    const t = budgetPaperText(paper, 6000);
    expect(t.length).toBeLessThanOrEqual(6000);
    for (const p of [1, 15, 30]) expect(t).toContain(`[p. ${p}] `);
    expect(t).toContain(" …");
  });
});

describe("summarizeWithLlm", () => {
  it("uses the model's text and records the model and cited pages", async () => {
    const m = model(
      "**Summary.** The paper studies retrieval.\n\n**Key points**\n- Hybrid retrieval gives the best recall (p. 3)",
    );
    const s = await summarizeWithLlm({ model: m, pages, metadata: meta });
    expect(s).toMatchObject({ method: "llm", model: "mock-model-id" });
    expect(s.text).toContain("Hybrid retrieval gives the best recall (p. 3)");
    expect(s.sentences).toEqual([{ text: "Hybrid retrieval gives the best recall (p. 3)", page: 3 }]);
  });

  it("prompts with the paper's own text only, under instructions not to add outside knowledge", async () => {
    const m = model("**Summary.** A summary long enough to be accepted by the checks.");
    await summarizeWithLlm({ model: m, pages, metadata: meta, maxInputChars: 5000 });
    const call = m.doGenerateCalls[0];
    const prompt = JSON.stringify(call?.prompt);
    expect(prompt).toContain("Use only the paper text");
    expect(prompt).toContain("Title: Retrieval for Long Documents");
    expect(prompt).toContain("[p. 2] 2 Method");
    expect(prompt).not.toContain("[1] Some Author");
  });

  it("passes the abort signal to the model", async () => {
    const ac = new AbortController();
    ac.abort(new Error("cancelled"));
    await expect(
      summarizeWithLlm({
        model: model("**Summary.** text text text text text text."),
        pages,
        metadata: meta,
        signal: ac.signal,
      }),
    ).rejects.toThrow();
  });

  it("fails on an empty answer so the caller falls back to the extractive summary", async () => {
    await expect(summarizeWithLlm({ model: model("   "), pages, metadata: meta })).rejects.toThrow(/empty/);
  });

  it("lets model errors propagate", async () => {
    const failing = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error("model overloaded");
      },
    });
    await expect(summarizeWithLlm({ model: failing, pages, metadata: meta })).rejects.toThrow(/overloaded/);
  });
});

describe("chunkSummary", () => {
  it("cuts passages with exact offsets and the pages they contain or cite", () => {
    const s = summarizeExtractive({ pages, metadata: meta, maxSentences: 3 });
    const chunks = chunkSummary(s);
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    chunks.forEach((c, i) => {
      expect(c.chunkIndex).toBe(i);
      expect(s.text.slice(c.charStart, c.charEnd)).toBe(c.text);
      expect(c.text).toBe(c.text.trim());
    });
    // the abstract passage without its bold label, on page 1
    expect(chunks[0]?.text.startsWith("We study retrieval")).toBe(true);
    expect(chunks[0]?.pages).toEqual([1]);
    expect(chunks.some((c) => c.text.includes("**Key points**"))).toBe(false);
    expect(chunks.slice(1).flatMap((c) => c.pages).length).toBeGreaterThan(0);
  });

  it("splits a long paragraph at sentence ends and groups bullets up to the target size", () => {
    const sentence = (i: number) => `Sentence ${i} of the overview says something about the paper's method.`;
    const overview = Array.from({ length: 20 }, (_, i) => sentence(i)).join(" ");
    const bullets = Array.from(
      { length: 12 },
      (_, i) => `- Key point ${i} about a result reported in the paper (p. ${i + 2})`,
    );
    const summary: PaperSummary = {
      text: `**Summary.** ${overview}\n\n**Key points**\n${bullets.join("\n")}`,
      method: "llm",
      model: "m",
      sentences: [],
    };
    const chunks = chunkSummary(summary, { targetChars: 300 });
    for (const c of chunks) {
      expect(summary.text.slice(c.charStart, c.charEnd)).toBe(c.text);
      expect(c.text.length).toBeLessThanOrEqual(300);
    }
    const overviewChunks = chunks.filter((c) => c.text.startsWith("Sentence"));
    expect(overviewChunks.length).toBeGreaterThan(2);
    for (const c of overviewChunks) expect(c.text.endsWith("method.")).toBe(true);
    const bulletChunks = chunks.filter((c) => c.text.startsWith("Key point"));
    expect(bulletChunks.length).toBeGreaterThan(1);
    expect(bulletChunks.length).toBeLessThan(12);
    expect(bulletChunks[0]?.pages).toEqual(expect.arrayContaining([2, 3]));
  });

  it("returns no passages for an empty summary", () => {
    expect(chunkSummary({ text: "", method: "extractive", sentences: [] })).toEqual([]);
  });
});
