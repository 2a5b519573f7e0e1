import { describe, expect, it } from "vitest";
import { summaryPageLinks, summaryPlainText, summarySentences } from "./summary-passage";

const passage =
  "Knowledge is transferred by training on soft targets. (p. 3)\n- When labels are known, **this** helps. (p. 3)\n- A later result [p. 5]";

describe("summarySentences", () => {
  it("drops bullets, emphasis and citations, and keeps each sentence's page", () => {
    expect(summarySentences(passage)).toEqual([
      { text: "Knowledge is transferred by training on soft targets.", page: 3 },
      { text: "When labels are known, this helps.", page: 3 },
      { text: "A later result", page: 5 },
    ]);
  });

  it("reads plain text as sentences without pages", () => {
    expect(summarySentences("We study retrieval (pp. 2-3) over long documents.")).toEqual([
      { text: "We study retrieval over long documents.", page: null },
    ]);
  });
});

describe("summaryPlainText", () => {
  it("joins the sentences", () => {
    expect(summaryPlainText(passage)).toBe(
      "Knowledge is transferred by training on soft targets. When labels are known, this helps. A later result",
    );
  });
});

describe("summaryPageLinks", () => {
  it("links each page to the first sentence citing it, or to the passage when none does", () => {
    expect(summaryPageLinks(passage, [5, 3, 1])).toEqual([
      { page: 1, passage: summaryPlainText(passage) },
      { page: 3, passage: "Knowledge is transferred by training on soft targets." },
      { page: 5, passage: "A later result" },
    ]);
  });

  it("clips long passages at a word", () => {
    const long = "word ".repeat(300).trim();
    const [link] = summaryPageLinks(long, [1]);
    expect(link?.passage.length).toBeLessThanOrEqual(600);
    expect(link?.passage.endsWith("word")).toBe(true);
  });
});
