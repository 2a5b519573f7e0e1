import { describe, expect, it } from "vitest";
import type { ClarifyingQuestion } from "@/lib/research/deep/types";
import { answerOf, chosenOptions, toggleOption } from "./clarify-answers";

const COMPARE: ClarifyingQuestion = {
  id: "scope",
  question: "Which approaches should be compared?",
  purpose: "scope",
  options: ["Dense retrieval", "BM25", "Dense retrieval; with re-ranking"],
  multiple: true,
};
const DEPTH: ClarifyingQuestion = {
  id: "depth",
  question: "How deep should the review go?",
  purpose: "depth",
  options: ["A short overview", "Technical detail"],
};

/** The answer after clicking these chips in turn, from `value`. */
function click(question: ClarifyingQuestion, value: string, ...options: string[]): string {
  return options.reduce((v, o) => toggleOption(question, v, o), value);
}

describe("clarifying answers", () => {
  it("a question that takes several: each chip adds or takes out its own option", () => {
    const two = click(COMPARE, "", "Dense retrieval", "BM25");
    expect(two).toBe("Dense retrieval; BM25");
    expect(chosenOptions(COMPARE, two)).toEqual(["Dense retrieval", "BM25"]);
    expect(click(COMPARE, two, "Dense retrieval")).toBe("BM25");
    expect(click(COMPARE, two, "BM25", "Dense retrieval")).toBe("");
    // an option holding the separator is still one option, told apart from the shorter one it starts with
    const long = click(COMPARE, "", "Dense retrieval; with re-ranking");
    expect(chosenOptions(COMPARE, long)).toEqual(["Dense retrieval; with re-ranking"]);
    expect(chosenOptions(COMPARE, click(COMPARE, long, "Dense retrieval"))).toEqual([
      "Dense retrieval; with re-ranking",
      "Dense retrieval",
    ]);
  });

  it("keeps what was typed beside the chosen options, and reads options typed by hand (any case)", () => {
    const typed = "ColBERT;  bm25 ";
    expect(chosenOptions(COMPARE, typed)).toEqual(["BM25"]);
    expect(click(COMPARE, typed, "Dense retrieval")).toBe("ColBERT; BM25; Dense retrieval");
    expect(click(COMPARE, typed, "BM25")).toBe("ColBERT");
    // a typed text that only starts like an option is not it
    expect(chosenOptions(COMPARE, "BM25 with tuned k1")).toEqual([]);
  });

  it("a one-answer question stays one: a chip replaces the answer, a second click clears it", () => {
    expect(click(DEPTH, "", "A short overview")).toBe("A short overview");
    expect(click(DEPTH, "", "A short overview", "Technical detail")).toBe("Technical detail");
    expect(chosenOptions(DEPTH, click(DEPTH, "", "A short overview", "Technical detail"))).toEqual([
      "Technical detail",
    ]);
    expect(click(DEPTH, "", "Technical detail", "Technical detail")).toBe("");
    expect(chosenOptions(DEPTH, " technical DETAIL ")).toEqual(["Technical detail"]);
  });

  it("sends every chosen option with the answer; a one-answer question's answer as written; none when blank", () => {
    expect(answerOf(COMPARE, "Dense retrieval;BM25; ColBERT")).toEqual({
      id: "scope",
      question: "Which approaches should be compared?",
      answer: "Dense retrieval; BM25; ColBERT",
      choices: ["Dense retrieval", "BM25"],
    });
    expect(answerOf(COMPARE, "ColBERT")).toEqual({
      id: "scope",
      question: "Which approaches should be compared?",
      answer: "ColBERT",
    });
    expect(answerOf(DEPTH, " A short overview ")).toEqual({
      id: "depth",
      question: "How deep should the review go?",
      answer: "A short overview",
    });
    expect(answerOf(DEPTH, "  ")).toBeNull();
    expect(answerOf(COMPARE, " ; ")).toBeNull();
  });
});
