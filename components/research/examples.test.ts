import { describe, expect, it } from "vitest";
import { exampleQuestions, shortTitle } from "./examples";

describe("exampleQuestions", () => {
  it("asks about findings, a comparison and a method from three papers", () => {
    expect(
      exampleQuestions([
        { title: "Attention Is All You Need" },
        { title: "BERT: Pre-training of Deep Bidirectional Transformers" },
        { title: "Dense Passage Retrieval" },
        { title: "A Fourth Paper" },
      ]),
    ).toEqual([
      "What are the main findings of “Attention Is All You Need”?",
      "How does “Attention Is All You Need” compare with “BERT: Pre-training of Deep Bidirectional Transformers”?",
      "What method does “Dense Passage Retrieval” propose, and how is it evaluated?",
    ]);
  });

  it("makes three questions from a single paper", () => {
    const qs = exampleQuestions([{ title: "Sparse Retrieval for Long Scientific Documents" }]);
    expect(qs).toHaveLength(3);
    expect(new Set(qs).size).toBe(3);
    for (const q of qs) expect(q).toContain("Sparse Retrieval for Long Scientific Documents");
  });

  it("has nothing to offer for an empty library or unusable titles", () => {
    expect(exampleQuestions([])).toEqual([]);
    expect(exampleQuestions([{ title: "scan_0001.pdf" }, { title: "Untitled" }, { title: "x" }])).toEqual([]);
  });
});

describe("shortTitle", () => {
  it("cuts long titles at a word and tidies punctuation", () => {
    expect(shortTitle("  A   title.  ")).toBe("A title");
    expect(shortTitle("Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks and Much More")).toBe(
      "Retrieval-Augmented Generation for Knowledge-Intensive…",
    );
  });
});

describe("shortTitle subtitles", () => {
  it("drops a subtitle after a main title of three words or more", () => {
    expect(shortTitle("Automatically Correcting Large Language Models: Surveying the Landscape")).toBe(
      "Automatically Correcting Large Language Models",
    );
    expect(shortTitle("LOGIC-LM: Empowering Large Language Models with Symbolic Solvers")).toBe(
      "LOGIC-LM: Empowering Large Language Models with…",
    );
  });
});
