import { describe, expect, it } from "vitest";
import { acronymDefinitions, extractWithRules, findNames, maskCitations, ownMethodOf } from "./extract-rules";

const paper = (title: string, pages: string[], skip?: { page: number; start: number; end: number }[]) => ({
  id: "p1",
  title,
  abstract: null,
  pages: pages.map((text, i) => ({ pageNumber: i + 1, text })),
  skip,
});

describe("the paper's own method", () => {
  it("comes from the title's head, or an acronym the first pages define from the title's words", () => {
    expect(ownMethodOf(paper("XLNet: Generalized Autoregressive Pretraining", ["Text."]))).toBe("XLNet");
    expect(ownMethodOf(paper("Towards Verifiable Generation: A Benchmark", ["Text."]))).toBeNull();
    expect(
      ownMethodOf(
        paper("Dense Passage Retrieval for Open-Domain Question Answering", [
          "In this work we show that a Dense Passage Retrieval (DPR) method works well.",
        ]),
      ),
    ).toBe("DPR");
  });
});

describe("extractWithRules", () => {
  const pages = [
    "Frobnicator: Fast Widgets for Everyone\n" +
      "Abstract\nWe present the Frobnicator. Frobnicator outperforms Lucene-BM25 and WidgetNet by a wide margin on " +
      "every benchmark we tried in this study.\n" +
      "We use the Adam optimizer with a small learning rate for all of our experiments here.\n" +
      "We evaluate Frobnicator on the WidgetQA dataset and on the GizmoBench benchmark in the same setting.",
    "Related work. Some report that WidgetNet may outperform SparseNet in settings that we do not study.\n" +
      "Baselines do not outperform DenseNet on this widget collection in any of the settings we tried.",
  ];
  const x = extractWithRules(paper("Frobnicator: Fast Widgets for Everyone", pages));

  it("finds improves_on with both objects of a coordinated list, uses, evaluates_on", () => {
    const edges = x.candidates.map((c) => `${c.relation} ${c.source.name} -> ${c.target.name}`);
    expect(x.ownMethod).toBe("Frobnicator");
    expect(edges).toContain("improves_on Frobnicator -> Lucene-BM25");
    expect(edges).toContain("improves_on Frobnicator -> WidgetNet");
    expect(edges).toContain("uses Frobnicator -> Adam");
    expect(edges).toContain("evaluates_on Frobnicator -> WidgetQA");
  });

  it("quotes the sentence from the page, verbatim", () => {
    const c = x.candidates.find((e) => e.target.name === "WidgetNet");
    expect(c?.page).toBe(1);
    expect(pages[0]).toContain(c?.quote as string);
  });

  it("sends hedged claims below the acceptance bar and drops negated ones", () => {
    const hedged = x.candidates.find((c) => c.target.name === "SparseNet");
    expect(hedged?.confidence).toBeLessThan(0.6);
    expect(x.candidates.some((c) => c.target.name === "DenseNet")).toBe(false);
  });

  it("types a name from its context", () => {
    const widgetqa = x.mentions.find((m) => m.entity.name === "WidgetQA");
    expect(widgetqa?.entity.type).toBe("Dataset");
  });

  it("a paper with no claims gives nothing, and the reference list is not read", () => {
    const none = extractWithRules(paper("A Note", ["This note has no claims of any kind about methods at all."]));
    expect(none.candidates).toEqual([]);
    const text = "Frobnicator outperforms WidgetNet on every single benchmark that we have tried so far.";
    const skipped = extractWithRules(paper("Frobnicator: X", [text], [{ page: 1, start: 0, end: text.length }]));
    expect(skipped.candidates).toEqual([]);
  });
});

describe("names and citations", () => {
  it("masks citations and keeps names", () => {
    const masked = maskCitations("DPR (Karpukhin et al., 2020) beats BM25 [12] as Thorne and Vlachos [57] showed.");
    const names = findNames(masked).map((n) => n.name);
    expect(names).toContain("DPR");
    expect(names).toContain("BM25");
    expect(names).not.toContain("Karpukhin");
    expect(names).not.toContain("Thorne");
  });

  it("reads acronym definitions", () => {
    const defs = acronymDefinitions(paper("T", ["We train a Dense Passage Retriever (DPR) on questions."]));
    expect(defs).toEqual([{ short: "DPR", long: "Dense Passage Retriever", page: 1 }]);
  });
});
