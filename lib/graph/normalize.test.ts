import { describe, expect, it } from "vitest";
import { canonicalName, initialsOf, locateQuote, longFormFor, looksLikeAcronym, mentionsName } from "./normalize";

describe("canonicalName", () => {
  it("folds case, dashes, spaces and a leading article, keeps qualifiers", () => {
    expect(canonicalName("The Transformer")).toBe("transformer");
    expect(canonicalName("Lucene–BM25")).toBe(canonicalName("lucene bm25"));
    expect(canonicalName("GPT-3")).toBe("gpt 3");
    expect(canonicalName("Attention (mechanism)")).not.toBe(canonicalName("attention"));
  });
});

describe("locateQuote", () => {
  const page = "Our dense retriever outper-\nforms a strong  Lucene-BM25\nsystem largely by 9%-19% absolute.";

  it("finds a quote across a hyphenated line break and whitespace runs, with offsets into the page", () => {
    const quote = "our dense retriever outperforms a strong Lucene-BM25 system";
    const span = locateQuote(page, quote);
    expect(span).not.toBeNull();
    const slice = page.slice(span?.start, span?.end);
    expect(slice.startsWith("Our dense")).toBe(true);
    expect(slice.endsWith("system")).toBe(true);
  });

  it("answers null for a quote that is not on the page", () => {
    expect(locateQuote(page, "our sparse retriever outperforms")).toBeNull();
    expect(locateQuote(page, "   ")).toBeNull();
  });

  it("reads a name the PDF's text broke at its hyphen as the name, and a spaced dash as a dash", () => {
    const text = "We use LLaMA-\n7B and GPT- 4o on the WMT 2014 English-to\n-German task - not more.";
    expect(mentionsName(text, "LLaMA-7B")).toBe(true);
    expect(mentionsName(text, "GPT-4o")).toBe(true);
    expect(mentionsName(text, "English-to-German")).toBe(true);
    // the quote as a model may give it back (the line break as a space) is found, offsets into the page's text
    const span = locateQuote(text, "We use LLaMA- 7B and GPT-4o");
    expect(text.slice(span?.start, span?.end)).toBe("We use LLaMA-\n7B and GPT- 4o");
    expect(mentionsName(text, "task-not")).toBe(false);
    // dashes, blank lines and shared endings are not names broken at a hyphen
    expect(mentionsName("the model— which works", "model-which")).toBe(false);
    expect(mentionsName("a word-\n\n\nNext heading", "word-next")).toBe(false);
    expect(mentionsName("BERT- and GPT-based models", "BERT-and")).toBe(false);
    expect(mentionsName("BERT- and GPT-based models", "BERT")).toBe(true);
    // a line-end hyphen before a lower-case word still joins the word
    expect(mentionsName("the retrie-\nval step", "retrieval")).toBe(true);
  });

  it("finds ligatures as letters", () => {
    expect(locateQuote("an eﬃcient method", "an efficient method")).toEqual({ start: 0, end: 17 });
  });
});

describe("names", () => {
  it("mentionsName matches whole words only", () => {
    expect(mentionsName("we fine-tune BERT-large on SQuAD", "BERT")).toBe(true);
    expect(mentionsName("RoBERTa is robustly optimised", "BERT")).toBe(false);
  });

  it("finds the long form of an acronym (Schwartz & Hearst)", () => {
    expect(longFormFor("DPR", "we present the Dense Passage Retriever")).toBe("Dense Passage Retriever");
    expect(longFormFor("BERT", "called Bidirectional Encoder Representations from Transformers")).toBe(
      "Bidirectional Encoder Representations from Transformers",
    );
    expect(longFormFor("XYZ", "nothing that matches here")).toBeNull();
  });

  it("initials and acronym shapes", () => {
    expect(initialsOf("Dense Passage Retrieval")).toBe("dpr");
    expect(initialsOf("BERT")).toBeNull();
    expect(looksLikeAcronym("SQuAD")).toBe(true);
    expect(looksLikeAcronym("Transformer")).toBe(false);
  });
});
