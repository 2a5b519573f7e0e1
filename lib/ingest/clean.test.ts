import { describe, expect, it } from "vitest";
import { buildVocabulary, cleanPages, cleanPageText, removeRunningLines, runningLineKey } from "@/lib/ingest/clean";

describe("cleanPageText", () => {
  it("joins a word hyphenated across a line break, completing it on the first line", () => {
    expect(cleanPageText("we use transfor-\nmers everywhere\nand more")).toBe(
      "we use transformers\neverywhere\nand more",
    );
  });

  it("moves trailing punctuation with the rejoined word and drops a line left empty", () => {
    expect(cleanPageText("the transfor-\nmers.\nNext line")).toBe("the transformers.\nNext line");
  });

  it("keeps the hyphen before a capital or a digit", () => {
    expect(cleanPageText("models like GPT-\n3 and\nPre-\nTraining")).toBe("models like GPT-3\nand\nPre-Training");
  });

  it("uses the document's vocabulary: a compound seen elsewhere keeps its hyphen", () => {
    const vocabulary = buildVocabulary(["Multi-head self-attention is cheap."]);
    expect(cleanPageText("relies on self-\nattention layers", { vocabulary })).toBe("relies on self-attention\nlayers");
    // and a joined word seen elsewhere is joined even before a capital (all-caps titles)
    const caps = buildVocabulary(["the effectiveness of fine-tuning"]);
    expect(cleanPageText("EXPLAINS THE EFFEC-\nTIVENESS OF", { vocabulary: caps })).toBe(
      "EXPLAINS THE EFFECTIVENESS\nOF",
    );
  });

  it("the page's own words act as vocabulary by default", () => {
    expect(cleanPageText("Self-attention is used.\nWe apply self-\nattention twice")).toBe(
      "Self-attention is used.\nWe apply self-attention\ntwice",
    );
  });

  it("handles a chain of hyphenated breaks", () => {
    expect(cleanPageText("an extra-\nordi-\nnary result")).toBe("an extraordinary\nresult");
    expect(cleanPageText("an extra-\nordi-\nnary")).toBe("an extraordinary");
  });

  it("does not pull a footnote up onto a hyphenated line", () => {
    expect(cleanPageText("heads specialize to some-\n3We ignore [SEP] tokens.")).toBe(
      "heads specialize to some-\n3We ignore [SEP] tokens.",
    );
  });

  it("does not treat a spaced dash as hyphenation", () => {
    expect(cleanPageText("the value is high -\nwhich we expected")).toBe("the value is high -\nwhich we expected");
  });

  it("replaces ligatures, unifies unicode spaces, collapses runs and drops empty lines", () => {
    const raw = "\ufb01ne-tuning \ufb02ows\u00a0and\u2009e\ufb00ects \ufb03 \ufb04\n\n   \nA\t\tB   C\u200b\r\nlast ";
    expect(cleanPageText(raw)).toBe("fine-tuning flows and effects ffi ffl\nA B C\nlast");
  });

  it("attaches TeX spacing accents to their letter", () => {
    expect(cleanPageText("Barlas O\u02d8guz and Wojciech Ma \u00b4nke")).toBe("Barlas Oğuz and Wojciech Mańke");
  });

  it("returns an empty string for whitespace", () => {
    expect(cleanPageText(" \n\t\n ")).toBe("");
  });
});

const TOPICS = ["attention", "recurrence", "convolution", "retrieval", "pruning", "distillation", "decoding", "tokens"];
const topic = (i: number, k: number) => TOPICS[(i * 3 + k) % TOPICS.length];
/** Body text that differs from page to page, as real pages do (identical lines at page edges are running lines). */
const body = (i: number) =>
  `Body paragraph ${i} talks about ${topic(i, 0)}.\nIt compares ${topic(i, 1)} with ${topic(i, 2)}.\n` +
  `Results for ${topic(i, 3)} follow.\nAnd ${topic(i, 4)} ends it.`;
const lastLine = (i: number) => `And ${topic(i, 4)} ends it.`;

describe("removeRunningLines", () => {
  it("drops a repeated header and page numbers, keeping headings that occur once", () => {
    const pages = Array.from({ length: 8 }, (_, i) => {
      const heading = i === 2 ? "3 Model Architecture\n" : i === 7 ? "References\n" : "";
      return `Published as a conference paper at ICLR 2021\n${heading}${body(i + 1)}\n${i + 1}`;
    });
    const out = removeRunningLines(pages);
    // page 1's top is kept (it can be the title); its page number goes
    expect(out[0]?.startsWith("Published as a conference paper")).toBe(true);
    expect(out[0]?.endsWith(lastLine(1))).toBe(true);
    out.slice(1).forEach((page, i) => {
      expect(page).not.toContain("Published as a conference paper");
      expect(page.endsWith(lastLine(i + 2))).toBe(true);
    });
    expect(out[2]?.split("\n")[0]).toBe("3 Model Architecture");
    expect(out[7]?.split("\n")[0]).toBe("References");
  });

  it("recognises running lines whose digits change (dates, volume numbers) and folds case and spaces", () => {
    const pages = Array.from(
      { length: 6 },
      (_, i) => `${body(i)}\nJournal  of Things, Vol. ${i + 10}, PAGE ${100 + i}`,
    );
    pages[3] = `${body(3)}\njournal of things, vol. 13, page 103`;
    for (const page of removeRunningLines(pages)) expect(page.toLowerCase()).not.toContain("journal of things");
  });

  it("removes printed page numbers that start at any offset (journal pagination)", () => {
    const pages = Array.from({ length: 6 }, (_, i) => `${4969 + i}\n${body(i)}`);
    const out = removeRunningLines(pages);
    out.forEach((page, i) => {
      expect(page.startsWith(`Body paragraph ${i}`)).toBe(true);
    });
  });

  it("keeps numbers that do not follow the page sequence (a table cell at the bottom)", () => {
    const pages = Array.from({ length: 6 }, (_, i) => `${body(i)}\n${i + 1}`);
    pages[4] = `${body(4)}\nTotal\n250`;
    const out = removeRunningLines(pages);
    expect(out[4]?.endsWith("Total\n250")).toBe(true);
    expect(out[3]?.endsWith(lastLine(3))).toBe(true);
  });

  it("keeps lines that repeat on too few pages, and lines away from the page edges", () => {
    const pages = Array.from({ length: 10 }, (_, i) => `${body(i)}\nThe middle line repeated\n${body(i + 100)}`);
    pages[0] = `Rare footer line\n${pages[0]}`;
    pages[1] = `Rare footer line\n${pages[1]}`;
    const out = removeRunningLines(pages);
    expect(out[1]?.startsWith("Rare footer line")).toBe(true);
    for (const page of out) expect(page).toContain("The middle line repeated");
  });

  it("drops headers that alternate between even and odd pages", () => {
    const pages = Array.from(
      { length: 9 },
      (_, i) => `${i % 2 === 0 ? "Smith et al." : "A Study of Things"}\n${body(i)}`,
    );
    const out = removeRunningLines(pages);
    for (const page of out.slice(1)) expect(page.startsWith("Body paragraph")).toBe(true);
  });

  it("leaves documents too short for the rule alone", () => {
    const pages = [`Header\n${body(1)}\n1`, `Header\n${body(2)}\n2`];
    expect(removeRunningLines(pages)).toEqual(pages);
    expect(removeRunningLines([])).toEqual([]);
  });
});

describe("runningLineKey", () => {
  it("folds digits, case and spaces", () => {
    expect(runningLineKey("Page 12 of 30")).toBe(runningLineKey("page  7 OF 31"));
    expect(runningLineKey("Preprint 2021")).toBe("preprint#");
  });
});

describe("cleanPages", () => {
  it("cleans every page with the whole document's vocabulary, then drops running lines", () => {
    const raw = Array.from({ length: 5 }, (_, i) => `Running Title\n${body(i)}\n${i + 1}`);
    raw[0] = `Running Title\nWe study self-attention.\n${body(0)}\n1`;
    raw[3] = `Running Title\nThis page uses self-\nattention and transfor-\nmers.\n${body(3)}\n4`;
    raw[4] = `Running Title\nAbout transformers.\n${body(4)}\n5`;
    const out = cleanPages(raw);
    expect(out).toHaveLength(5);
    expect(out[3]).toBe(`This page uses self-attention\nand transformers.\n${body(3)}`);
    expect(out[0]?.startsWith("Running Title\nWe study")).toBe(true);
  });
});

describe("control characters", () => {
  it("drops NUL and other control characters that PostgreSQL rejects", () => {
    expect(cleanPageText("Flash\u0000Attention is\u0007 fast")).toBe("FlashAttention is fast");
  });
});
