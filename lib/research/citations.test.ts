import { describe, expect, it } from "vitest";
import { quotableSentences } from "./citations";

const texts = (t: string) => quotableSentences(t).map((s) => s.text);

describe("quotableSentences", () => {
  it("ends the title page's header at the abstract's heading, on a line of its own or opening the abstract", () => {
    const own =
      "Dense Retrieval†\nAda Lovelace‡ Alan Turing†\n†University of Somewhere\nAbstract\nWe propose a retriever. It works.";
    expect(texts(own)).toContain("We propose a retriever.");
    const s = quotableSentences(own).find((q) => q.text === "We propose a retriever.");
    expect(s?.afterHeading).toBe(true);
    expect(own.slice(s?.start, s?.end)).toBe("We propose a retriever.");
    for (const head of ["Abstract—", "Abstract: ", "ABSTRACT. "]) {
      const inline = `Dense Retrieval†\nAda Lovelace‡ Alan Turing†\n${head}We propose a retriever. It works.`;
      expect(texts(inline), head).toContain("We propose a retriever.");
    }
  });

  it("does not break a sentence at the word 'Abstract' a line starts with", () => {
    const t = "We read the\nAbstract\nand the introduction of each paper before we judged it.";
    expect(texts(t)).toEqual(["We read the Abstract and the introduction of each paper before we judged it."]);
    const hyphen = "The parser we used builds\nAbstract-Syntax Trees for every program it reads, in one pass.";
    expect(texts(hyphen)).toEqual([
      "The parser we used builds Abstract-Syntax Trees for every program it reads, in one pass.",
    ]);
  });

  it("splits at a numbered section heading's own line and drops the heading", () => {
    const t =
      "The products are scaled by 1/√dk.\n3.2.2 Multi-Head Attention\nInstead of one function, we project h times.";
    expect(texts(t)).toEqual(["The products are scaled by 1/√dk.", "Instead of one function, we project h times."]);
    const [first, second] = quotableSentences(t);
    expect(first?.afterHeading).toBe(false);
    expect(second?.afterHeading).toBe(true);
    expect(second?.last).toBe(true);
    expect(t.slice(second?.start, second?.end)).toBe("Instead of one function, we project h times.");
  });

  it("makes the items of a list run into the sentence that announces them sentences of their own", () => {
    const t =
      "Attention is used in three ways: • In encoder-decoder layers the queries come from the decoder. • In the encoder all keys come from one place.";
    expect(texts(t)).toEqual([
      "Attention is used in three ways:",
      "In encoder-decoder layers the queries come from the decoder.",
      "In the encoder all keys come from one place.",
    ]);
  });
});
