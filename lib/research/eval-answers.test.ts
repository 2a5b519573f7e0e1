import { describe, expect, it } from "vitest";
import {
  answerSentences,
  declinedRun,
  evidenceInAnswer,
  formatShare,
  quoteCoverage,
  quoteInAnswer,
  shareOf,
  wilson,
  wordSet,
} from "./eval-answers";

/** `n` distinct words: w1 … wn. */
const words = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `w${from + i}`).join(" ");

describe("quoteInAnswer", () => {
  it("is met when a sentence holds 80 % of the quote's distinct words", () => {
    const quote = `${words(1, 100)}.`;
    const answer = `## Answer\n\nAn unrelated first sentence. ${words(1, 80)} and more [1706.03762, page 4]. Another one.`;
    const m = quoteInAnswer(quote, answer);
    expect(m.coverage).toBeCloseTo(0.8);
    expect(m.met).toBe(true);
  });

  it("is not met at 79 %", () => {
    const quote = `${words(1, 100)}.`;
    const m = quoteInAnswer(quote, `First. ${words(1, 79)} more. Then ${words(80, 100)}.`);
    expect(m.coverage).toBeCloseTo(0.79);
    expect(m.met).toBe(false);
  });

  it("needs the words in one sentence, not spread over the answer", () => {
    const quote = "Alpha beta gamma delta epsilon.";
    expect(quoteInAnswer(quote, "Alpha beta here. Gamma delta epsilon there.").met).toBe(false);
    expect(quoteInAnswer(quote, "Here alpha, beta, gamma and delta but not the fifth.").met).toBe(true);
  });

  it("compares sets of words: case, punctuation, order and repetitions do not matter", () => {
    expect(quoteCoverage("The dot products grow large, the dot products.", "PRODUCTS: dot; grow — large the")).toBe(1);
    expect(wordSet("Don't re-use 98.6% of W0")).toEqual(new Set(["don", "t", "re", "use", "98", "6", "of", "w0"]));
  });

  it("joins words hyphenated across lines and applies NFKC", () => {
    const quote = "pushing the softmax function into regions where it has extremely small gradients";
    expect(
      quoteInAnswer(
        quote,
        "It pushes the soft-\nmax function into re-\n  gions where it has extremely small gradi-\nents.",
      ).met,
    ).toBe(true);
    // ﬁ (U+FB01) and full-width digits are the same words after NFKC
    expect(quoteCoverage("fine tuning 2024", "ﬁne tuning ２０２４")).toBe(1);
    // without the line break the hyphen separates two words
    expect(quoteCoverage("softmax", "soft-max")).toBe(0);
  });

  it("ignores citation markers and markdown syntax", () => {
    expect(
      answerSentences(
        "# Scaled attention\n\n- The **dot products** grow [1706.03762v5, page 4]. They are *scaled* [arXiv:1706.03762 p.4; 1706.03762, p. 5].\n> A `quote` with a [link](https://example.org/x) and [1].\n\n---\n| a | b |\n|---|---|",
      ),
    ).toEqual([
      "Scaled attention",
      "The dot products grow.",
      "They are scaled.",
      "A quote with a link and [1].",
      "a b",
    ]);
    expect(answerSentences("_The passages discuss it._ Data \\[1\\] or *more*.")).toEqual([
      "The passages discuss it.",
      "Data [1] or more.",
    ]);
    // emphasis inside a word does not split it
    expect(quoteInAnswer("the softmax function", "The soft**max** function [1706.03762, page 4].").met).toBe(true);
    // the marker's words do not count as the answer's
    expect(quoteCoverage("page 4 1706 03762", answerSentences("Text [1706.03762, page 4].").join(" "))).toBe(0);
  });

  it("matches a quote of two sentences against two consecutive sentences", () => {
    const quote =
      "In one approach, RAG-Sequence, the model uses the same document to predict each target token. The second approach, RAG-Token, can predict each target token based on a different document.";
    const answer =
      "## Two ways\nIn one approach, RAG-Sequence, the model uses the same document to predict each target token [2005.11401, page 3]. The second approach, RAG-Token, can predict each target token based on a different document [2005.11401, page 3].";
    expect(quoteInAnswer(quote, answer).met).toBe(true);
    // one of the two sentences alone is not enough
    expect(
      quoteInAnswer(
        quote,
        "In one approach, RAG-Sequence, the model uses the same document to predict each target token.",
      ).met,
    ).toBe(false);
  });

  it("counts a question when any of its quotes is met", () => {
    const answer = "Codex parses natural language into SQL. Something else entirely.";
    const m = evidenceInAnswer(
      ["our model solves 28.8% of the problems", "Codex parses natural language into SQL"],
      answer,
    );
    expect(m.met).toBe(true);
    expect(m.quote).toBe(1);
    expect(evidenceInAnswer([], answer).met).toBe(false);
  });
});

describe("declinedRun", () => {
  it("declines without a cited answer", () => {
    expect(declinedRun({ status: "failed", errorCode: "no_papers", citations: 0 })).toBe("no_sources");
    expect(declinedRun({ status: "failed", errorCode: "no_content", citations: 0 })).toBe("no_sources");
    expect(declinedRun({ status: "failed", errorCode: "no_answer", citations: 0 })).toBe("no_sources");
    expect(declinedRun({ status: "completed", citations: 0 })).toBe("no_citations");
    expect(declinedRun({ status: "completed", citations: 2, declined: true })).toBe("marked");
  });
  it("does not count a cited answer or another failure", () => {
    expect(declinedRun({ status: "completed", citations: 1 })).toBeNull();
    expect(declinedRun({ status: "failed", errorCode: "timeout", citations: 0 })).toBeNull();
    expect(declinedRun({ status: "cancelled", citations: 0 })).toBeNull();
  });
});

describe("wilson", () => {
  it("matches known intervals", () => {
    const a = wilson(7, 18);
    expect(a?.low).toBeCloseTo(0.203, 3);
    expect(a?.high).toBeCloseTo(0.614, 3);
    // 0 of 10 and 10 of 10: [0, 0.278] and [0.722, 1]
    expect(wilson(0, 10)?.low).toBe(0);
    expect(wilson(0, 10)?.high).toBeCloseTo(0.2775, 4);
    expect(wilson(10, 10)?.low).toBeCloseTo(0.7225, 4);
    expect(wilson(10, 10)?.high).toBe(1);
    // 81 of 263 (Wilson 1927 / Newcombe 1998): [0.2553, 0.3662]
    expect(wilson(81, 263)?.low).toBeCloseTo(0.2553, 4);
    expect(wilson(81, 263)?.high).toBeCloseTo(0.3662, 4);
    expect(wilson(0, 0)).toBeNull();
    expect(() => wilson(3, 2)).toThrow();
  });
  it("formats a share with its interval", () => {
    expect(formatShare(shareOf(7, 18))).toBe("7/18 39% [20–61]");
    expect(formatShare(shareOf(0, 0))).toBe("—");
  });
});
