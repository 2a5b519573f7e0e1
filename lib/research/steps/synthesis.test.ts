import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db";
import type { GraphEdgeResult } from "@/lib/graph/query";
import { createTestLibrary, type TestLibrary } from "@/lib/testing/library";
import { analyzeWithRules } from "../analysis";
import type { EvidencePassage } from "../citations";
import { synthesizeExtractive } from "../compose";
import type { StepContext } from "../lifecycle";
import { testResearchDeps, testStepContext } from "../testing";
import type { StepOf } from "../types";
import { synthesisStep, withoutGraphQuotes } from "./synthesis";

// a page whose foot holds a contributions footnote that repeats the question's words
const PAGE = [
  "arXiv:2001.00001v1 [cs.CL] 2 Jan 2020\nScaled Attention for Sequence Transduction\nAda Lovelace\nAbstract\nWe divide the dot products of queries and keys by the square root of the key dimension, so that the softmax keeps useful gradients.\n*Equal contribution. Listing order is random. Noam proposed scaled dot-product\nattention and multi-head attention and was involved in every detail.",
];

let lib: TestLibrary;

beforeAll(async () => {
  lib = await createTestLibrary([PAGE], { name: "footnote" });
});

afterAll(async () => {
  await lib?.close();
});

function stepContext(question: string): StepContext<StepOf<"synthesis">> {
  return testStepContext(testResearchDeps(lib), question);
}

describe("the synthesis step, offline", () => {
  it("quotes nothing of a footnote a passage starts inside, which the passage's own text cannot show", async () => {
    const [page] = await queryRows<{ paper_id: string; page_number: number; text: string; title: string }>(
      lib.handle.db,
      sql`select p.paper_id, p.page_number, p.text, d.title from pages p join papers d on d.id = p.paper_id limit 1`,
    );
    if (!page) throw new Error("no page stored");
    const slice = (from: string): EvidencePassage => {
      const start = page.text.indexOf(from);
      expect(start).toBeGreaterThanOrEqual(0);
      return {
        chunkUid: `c-${start}`,
        paperId: page.paper_id,
        title: page.title,
        page: page.page_number,
        charStart: start,
        charEnd: page.text.length,
        text: page.text.slice(start),
      };
    };
    // a chunk boundary after the footnote's marker, and a passage of the body
    const evidence = [slice("Listing order"), slice("We divide the dot products")];
    const question = "Who proposed scaled dot-product attention, and why are the dot products divided?";
    // the passages alone: the footnote's sentence reads like prose and is quoted
    expect(synthesizeExtractive(question, evidence, analyzeWithRules(question))).toContain("Noam proposed");
    const { result } = await synthesisStep.run(stepContext(question), {
      evidence,
      analysis: analyzeWithRules(question),
    });
    expect(result).not.toContain("Noam proposed");
    expect(result).toContain("square root of the key dimension");
  });

  it("quotes a passage whose page is not stored as it is (nothing to mark)", async () => {
    const question = "Who proposed scaled dot-product attention?";
    const text = "Listing order is random. Noam proposed scaled dot-product attention and multi-head attention.";
    const evidence: EvidencePassage[] = [
      { chunkUid: "c-x", paperId: "no-such-paper", title: "T", page: 99, charStart: 0, charEnd: text.length, text },
    ];
    const { result } = await synthesisStep.run(stepContext(question), {
      evidence,
      analysis: analyzeWithRules(question),
    });
    expect(result).toContain("Noam proposed");
  });

  it("puts the passages' answer first when the graph's edges are about two names apart, and the graph first otherwise", async () => {
    const question = "How do scaled attention and gated widgets relate, and why are the dot products divided?";
    const text = "We divide the dot products of queries and keys by the square root of the key dimension.";
    const evidence: EvidencePassage[] = [
      { chunkUid: "c-y", paperId: "no-such-paper", title: "T", page: 9, charStart: 0, charEnd: text.length, text },
    ];
    const graphPart =
      "## What the knowledge graph holds about A and B, each on its own\n\n- **A** uses **C**: “A uses C.” [P, page 1]";
    const run = (apart: boolean) =>
      synthesisStep.run(stepContext(question), {
        evidence,
        analysis: analyzeWithRules(question),
        graph: { edges: [], evidence: [], markdown: graphPart, ...(apart ? { apart } : {}) },
      });
    const apart = (await run(true)).result;
    expect(apart.startsWith("## Answer\n")).toBe(true);
    expect(apart.indexOf("square root")).toBeLessThan(apart.indexOf("What the knowledge graph holds"));
    const leading = (await run(false)).result;
    expect(leading.startsWith("## What the knowledge graph holds")).toBe(true);
    expect(leading).toContain("## From the passages");
  });

  it("does not repeat a sentence the graph's part quotes, whole or as the start an edge's quote keeps of it", () => {
    const long =
      "We compare our widget primarily to the gadget, having aimed to re-implement their evaluation settings, but include reported performance of other widgets";
    const edges = [
      { quote: long } as GraphEdgeResult,
      { quote: "Widgets beat gadgets on every benchmark we tried." } as GraphEdgeResult,
      { quote: "widgets win" } as GraphEdgeResult,
    ];
    const markdown = [
      "## From the passages",
      "",
      "Widgets beat gadgets on every benchmark we tried. [A, page 2] Widgets are cheap. [A, page 3]",
      "",
      `- ${long} when available (Smith et al., 2021). [A, page 4]`,
      "- We note that widgets win on price and on speed alike. [A, page 5]",
    ].join("\n");
    const out = withoutGraphQuotes(markdown, { edges });
    expect(out).not.toContain("Widgets beat gadgets");
    expect(out).not.toContain("having aimed");
    expect(out).toContain("Widgets are cheap. [A, page 3]");
    // a few quoted words inside a sentence do not make it a repetition
    expect(out).toContain("We note that widgets win on price");
  });
});
