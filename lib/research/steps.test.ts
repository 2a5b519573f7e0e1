import { describe, expect, it } from "vitest";
import { analyzeWithLlm, analyzeWithRules, extractKeywords } from "./analysis";
import {
  citedClaims,
  type EvidencePassage,
  lexicalSupport,
  malformedCitations,
  parseCitations,
  verifyCitations,
} from "./citations";
import { feedbackTerms, MAX_EXPANDED_QUERIES, mergeQueries, ruleExpansions } from "./expansion";
import { extractJson } from "./json";
import { buildReferences, formatReferences } from "./references";
import { intentBoost, keywordCoverage } from "./rerank";
import { synthesizeExtractive } from "./synthesis";
import { mockModel } from "./testing";
import { applyEvent, type ResearchRunState } from "./types";

describe("analysis", () => {
  it("classifies intents by rule with a confidence", () => {
    expect(analyzeWithRules("What accuracy does BERT reach on SQuAD, and how does it outperform ELMo?").intent).toBe(
      "performance",
    );
    expect(analyzeWithRules("Compare LoRA versus full fine-tuning: what are the trade-offs?").intent).toBe(
      "comparison",
    );
    expect(analyzeWithRules("Why is attention scaled by the square root of the key dimension?").intent).toBe(
      "technical",
    );
    expect(analyzeWithRules("Give me an overview of retrieval-augmented generation").intent).toBe("summary");
    const unknown = analyzeWithRules("RWKV");
    expect(unknown.intent).toBe("unknown");
    expect(unknown.confidence).toBeLessThan(0.7);
    for (const q of ["What accuracy does BERT reach?", "Compare A versus B"]) {
      const a = analyzeWithRules(q);
      expect(a.confidence).toBeGreaterThan(0);
      expect(a.confidence).toBeLessThanOrEqual(0.95);
    }
  });

  it("keeps content words, quoted phrases, acronyms and ids as keywords", () => {
    const k = extractKeywords('How does "low-rank adaptation" in LoRA (arXiv 2106.09685) change GPU memory?');
    expect(k[0]).toBe("low-rank adaptation");
    expect(k).toContain("LoRA");
    expect(k).toContain("2106.09685");
    expect(k).toContain("GPU");
    expect(k).toContain("memory");
    expect(k).not.toContain("how");
    expect(k).not.toContain("does");
  });

  it("reads the model's JSON even inside code fences and prose, and refuses malformed JSON", async () => {
    const fenced = mockModel({
      reply: () => 'Sure!\n```json\n{"intent": "comparison", "confidence": 0.9, "keywords": ["lora", "adapters"]}\n```',
    });
    const a = await analyzeWithLlm(fenced, "lora or adapters?");
    expect(a).toMatchObject({ intent: "comparison", confidence: 0.9, keywords: ["lora", "adapters"], method: "llm" });
    const broken = mockModel({ reply: () => '{"intent": "comparison", "confidence": ' });
    await expect(analyzeWithLlm(broken, "x")).rejects.toThrow(/cut off|JSON/);
    const wrong = mockModel({ reply: () => '{"intent": "poetry"}' });
    await expect(analyzeWithLlm(wrong, "x")).rejects.toThrow(/wrong shape/);
  });

  it("extracts the first balanced JSON value", () => {
    expect(extractJson('noise {"a": {"b": "}"}} trailing {"c": 1}')).toEqual({ a: { b: "}" } });
    expect(extractJson("[1, 2]")).toEqual([1, 2]);
    expect(() => extractJson("no json here")).toThrow(/no JSON/);
  });
});

describe("query expansion", () => {
  it("puts the original first, deduplicates and caps at six", () => {
    const q = "Why is attention scaled?";
    const merged = mergeQueries(q, [
      ["a", "A ", "b"],
      ["c", "d", "e", "f", "g"],
    ]);
    expect(merged[0]).toBe(q);
    expect(merged).toHaveLength(MAX_EXPANDED_QUERIES);
    expect(merged.filter((m) => m.toLowerCase() === "a")).toHaveLength(1);
  });

  it("adds the intent's vocabulary to the keywords", () => {
    const q = "How accurate is BERT on SQuAD?";
    const exp = ruleExpansions(q, analyzeWithRules(q));
    expect(exp.some((e) => /results|accuracy/.test(e))).toBe(true);
    expect(exp.every((e) => e !== q)).toBe(true);
  });

  it("draws feedback terms from the passages, not from the question", () => {
    const passages = [
      "The recurrent formulation keeps a constant memory footprint during decoding.",
      "In recurrent mode the state has constant size, so memory stays flat.",
      "Unrelated text about convolutional networks.",
    ];
    const terms = feedbackTerms("Why does RWKV use little memory?", passages);
    expect(terms).toContain("constant");
    expect(terms).toContain("recurrent");
    expect(terms).not.toContain("memory");
    expect(terms).not.toContain("convolutional"); // in one passage only
  });
});

const EVIDENCE: EvidencePassage[] = [
  {
    chunkUid: "c1",
    paperId: "1706.03762v5",
    title: "Attention Is All You Need",
    page: 4,
    charStart: 100,
    charEnd: 400,
    text: "We suspect that for large values of the key dimension, the dot products grow large in magnitude. To counteract this effect, we scale the dot products by one over the square root of the key dimension.",
  },
  {
    chunkUid: "c2",
    paperId: "2106.09685v2",
    title: "LoRA",
    page: 4,
    charStart: 0,
    charEnd: 200,
    text: "When deployed in production, the low-rank update is merged into the weights, so there is no additional inference latency.",
  },
];

describe("citations", () => {
  it("parses both citation styles and several in one bracket, ignoring other brackets", () => {
    const cs = parseCitations(
      "Scaling helps [1706.03762v5, page 4]. Merged [arXiv:2106.09685 p.4]. Both [A1, p. 2; B2, page 3]. See [1] and [this].",
    );
    expect(cs.map((c) => [c.paperId, c.page])).toEqual([
      ["1706.03762v5", 4],
      ["2106.09685", 4],
      ["A1", 2],
      ["B2", 3],
    ]);
    expect(malformedCitations("Odd [1706.03762, page four] and fine [X, page 2].")).toEqual([
      "[1706.03762, page four]",
    ]);
  });

  it("attaches each citation to its sentence, including one after the full stop", () => {
    const claims = citedClaims(
      "## Answer\n\nFirst claim here [A, page 1]. Second claim. [B, page 2] Third claim. [D, page 4] [E, page 5] Fourth.\n- A bullet claim [C, page 3]",
    );
    expect(claims.map((c) => [c.claim, c.citations.map((x) => x.paperId)])).toEqual([
      ["First claim here.", ["A"]],
      ["Second claim.", ["B"]],
      ["Third claim.", ["D", "E"]],
      ["Fourth.", []],
      ["A bullet claim", ["C"]],
    ]);
  });

  it("verifies: supported when the cited passage holds the claim's words; flags wrong pages and unsupported claims", () => {
    const md = [
      "The dot products grow large in magnitude for large key dimensions [1706.03762, page 4].",
      "LoRA adds no additional inference latency once merged [2106.09685v2, page 4].",
      "Attention was invented in 1850 by sailors on whaling ships [1706.03762v5, page 4].",
      "Something from a page never retrieved [1706.03762v5, page 9].",
      "Something from an unknown paper [9999.99999, page 1].",
    ].join(" ");
    const cs = verifyCitations(md, EVIDENCE);
    expect(cs.map((c) => c.supported)).toEqual([true, true, false, false, false]);
    expect(cs[0]?.paperId).toBe("1706.03762v5"); // resolved to the library's id
    expect(cs[0]?.quote).toMatch(/grow large in magnitude/);
    expect(cs[0]?.charStart).toBeGreaterThanOrEqual(100);
    expect(cs[2]?.reason).toMatch(/words/);
    expect(cs[3]?.reason).toMatch(/not among the retrieved passages/);
    expect(cs[4]?.reason).toMatch(/not among the retrieved papers/);
    expect(cs.map((c) => c.index)).toEqual([1, 2, 3, 4, 5]);
  });

  it("measures lexical support on content words", () => {
    expect(lexicalSupport("the dot products grow", EVIDENCE[0]?.text ?? "")).toBe(1);
    expect(lexicalSupport("whales sing", EVIDENCE[0]?.text ?? "")).toBe(0);
  });
});

describe("extractive synthesis", () => {
  it("quotes evidence sentences under headings, each cited to its paper and page, and all verifiable", () => {
    const md = synthesizeExtractive("Why are dot products scaled by the square root of the key dimension?", EVIDENCE, {
      intent: "technical",
      keywords: ["dot products", "square root", "key dimension"],
    });
    expect(md).toMatch(/^## Answer/);
    expect(md).toContain("[1706.03762v5, page 4]");
    const cs = verifyCitations(md, EVIDENCE);
    expect(cs.length).toBeGreaterThan(0);
    expect(cs.every((c) => c.supported)).toBe(true);
    // every sentence of the answer carries a citation
    for (const claim of citedClaims(md)) expect(claim.citations.length).toBeGreaterThan(0);
  });

  it("returns nothing when no sentence addresses the question", () => {
    expect(synthesizeExtractive("zebra migration", EVIDENCE, { intent: "unknown", keywords: ["zebra"] })).toBe("");
  });
});

describe("re-ranking and references", () => {
  it("boosts numbers for performance questions and comparatives for comparisons", () => {
    expect(intentBoost("performance", "BLEU 28.4 and 41.8, 3.5 days, 8 GPUs, 12% better")).toBeGreaterThan(0.5);
    expect(intentBoost("performance", "no numbers here")).toBe(0);
    expect(intentBoost("comparison", "LoRA is better than adapters, whereas prefix tuning is worse")).toBeGreaterThan(
      0.5,
    );
    expect(keywordCoverage(["dot products", "magnitude"], EVIDENCE[0]?.text ?? "")).toBe(1);
  });

  it("numbers references in arXiv order, others after, with DOI links", () => {
    const refs = buildReferences([
      { id: "slug-paper", title: "T3", authors: [], arxivId: null, publishedDate: null, year: 2023, doi: "10.1/x" },
      {
        id: "2106.09685v2",
        title: "T2",
        authors: ["A", "B", "C", "D"],
        arxivId: "2106.09685",
        publishedDate: "2021-06-17",
        year: 2021,
        doi: null,
      },
      {
        id: "1706.03762v5",
        title: "T1",
        authors: ["V"],
        arxivId: "1706.03762",
        publishedDate: null,
        year: 2017,
        doi: null,
      },
    ]);
    expect(refs.map((r) => [r.number, r.paperId])).toEqual([
      [1, "1706.03762v5"],
      [2, "2106.09685v2"],
      [3, "slug-paper"],
    ]);
    const md = formatReferences(refs);
    expect(md).toMatch(/^## References/);
    expect(md).toContain("1. **1706.03762v5** — T1. V (2017)");
    expect(md).toContain("A, B, C et al. (2021-06-17)");
    expect(md).toContain("[doi:10.1/x](https://doi.org/10.1/x)");
  });
});

describe("applyEvent", () => {
  it("folds a run's events into its state", () => {
    let s: ResearchRunState | null = null;
    const step = {
      id: "analysis",
      type: "analysis" as const,
      status: "pending" as const,
      title: "t",
      startedAt: null,
      durationMs: null,
      reasoning: "",
      queries: [],
      sources: [],
      confidence: null,
      data: null,
    };
    s = applyEvent(s, {
      kind: "run_started",
      runId: "r",
      question: "q",
      mode: "offline",
      model: "extractive",
      startedAt: "2026-01-01T00:00:00Z",
      steps: [step],
    });
    s = applyEvent(s, { kind: "step", step: { ...step, status: "completed", durationMs: 5 } });
    s = applyEvent(s, { kind: "answer_delta", text: "Hel" });
    s = applyEvent(s, { kind: "answer_delta", text: "lo" });
    expect(s?.answer).toBe("Hello");
    s = applyEvent(s, { kind: "answer", markdown: "Final", citations: [], references: [], warnings: ["w"] });
    s = applyEvent(s, { kind: "run_finished", status: "completed", durationMs: 9 });
    expect(s).toMatchObject({ status: "completed", answer: "Final", warnings: ["w"], durationMs: 9 });
    expect(s?.steps[0]).toMatchObject({ status: "completed", durationMs: 5 });
  });
});

describe("judge window", () => {
  it("shows a long passage around the cited quote, a short one whole", async () => {
    const { judgeWindow } = await import("./citations");
    const long: EvidencePassage = {
      ...(EVIDENCE[0] as EvidencePassage),
      charStart: 1000,
      text: `${"a ".repeat(3000)}THE QUOTE HERE. ${"b ".repeat(3000)}`,
    };
    const at = long.text.indexOf("THE QUOTE");
    const c = { charStart: 1000 + at } as Parameters<typeof judgeWindow>[1];
    const w = judgeWindow(long, c, 1000);
    expect(w).toContain("THE QUOTE HERE.");
    expect(w.length).toBeLessThanOrEqual(1002);
    expect(judgeWindow(EVIDENCE[1], c, 1000)).toBe(EVIDENCE[1]?.text);
  });
});

describe("quotes of list items", () => {
  it("highlight the item a claim quotes, not the sentence announcing the list nor the bullet", () => {
    const text =
      "The widget ranker uses attention in three different ways: • In cross-attention layers, the queries come " +
      "from the widget decoder. • The encoder holds self-attention layers.";
    const passage: EvidencePassage = {
      chunkUid: "w",
      paperId: "2001.00009v1",
      title: "Widgets",
      page: 5,
      charStart: 40,
      charEnd: 40 + text.length,
      text,
    };
    const md = "In cross-attention layers, the queries come from the widget decoder. [2001.00009v1, page 5]";
    const [c] = verifyCitations(md, [passage]);
    expect(c?.quote).toBe("In cross-attention layers, the queries come from the widget decoder.");
    expect(text.slice((c?.charStart ?? 0) - 40, (c?.charEnd ?? 0) - 40)).toBe(c?.quote);
  });
});

describe("citations of overlapping passages of one page", () => {
  // the first passage holds every word of the claim but not as one sentence; the second holds the sentence itself
  const page =
    "This result won the 1st place in the detection task. We also tried localization. " +
    "This result won the 1st place in the localization task.";
  const passage = (uid: string, start: number, end: number): EvidencePassage => ({
    chunkUid: uid,
    paperId: "2001.00009v1",
    title: "Gadgets",
    page: 3,
    charStart: start,
    charEnd: end,
    text: page.slice(start, end),
  });
  const split = page.indexOf("This result won the 1st place in the localization");
  const first = passage("a", 0, split);
  const second = passage("b", split, page.length);

  it("name the passage and sentence that are the claim, whichever comes first", () => {
    const md = "This result won the 1st place in the localization task. [2001.00009v1, page 3]";
    for (const evidence of [
      [first, second],
      [second, first],
    ]) {
      const [c] = verifyCitations(md, evidence);
      expect(c?.chunkUid).toBe("b");
      expect(c?.quote).toBe("This result won the 1st place in the localization task.");
      expect(page.slice(c?.charStart ?? 0, c?.charEnd ?? 0)).toBe(c?.quote);
    }
  });
});
