import { describe, expect, it } from "vitest";
import { findSectionHeadings, followsInSequence, sectionAt, sectionLabel, sectionsOf } from "./sections";

const paper = (...texts: string[]) => texts.map((text, i) => ({ pageNumber: i + 1, text }));
const paths = (pages: { pageNumber: number; text: string }[]) =>
  findSectionHeadings(pages).map((h) => `p${h.page} ${h.path.join(" › ")}`);

describe("followsInSequence", () => {
  it("accepts a first child, the next sibling at any level, and one skipped heading", () => {
    expect(followsInSequence(null, [1])).toBe(true);
    expect(followsInSequence([3], [3, 1])).toBe(true);
    expect(followsInSequence([3], [3, 2])).toBe(true); // 3.1 missed
    expect(followsInSequence([3, 1], [3, 2])).toBe(true);
    expect(followsInSequence([3, 2], [4])).toBe(true);
    expect(followsInSequence([3, 2], [4, 1])).toBe(true);
    expect(followsInSequence([2, 2, 4], [2, 3])).toBe(true);
    expect(followsInSequence([3], [5])).toBe(true); // 4 missed
    expect(followsInSequence([3, 2], [3, 4])).toBe(true); // 3.3 missed
  });

  it("refuses numbers out of sequence", () => {
    expect(followsInSequence(null, [5])).toBe(false);
    expect(followsInSequence(null, [0])).toBe(false);
    expect(followsInSequence([4, 5], [7])).toBe(false);
    expect(followsInSequence([3], [6])).toBe(false);
    expect(followsInSequence([4, 1], [1])).toBe(false);
    expect(followsInSequence([3], [3, 3])).toBe(false);
    expect(followsInSequence([3, 2], [4, 2])).toBe(false);
    expect(followsInSequence([3], [3])).toBe(false);
  });
});

describe("findSectionHeadings", () => {
  it("finds numbered headings across pages with the path of enclosing sections", () => {
    const pages = paper(
      "A Study of Things\nAbstract\nWe study things.\n1 Introduction\nThings matter.",
      "2 Method\nWe do this.\n2.1 Encoder Stacks\nLayers.\n2.2 Decoder\nMore layers.",
      "3 Results\nNumbers.\n3.1 Ablations\nLess.\n4 Conclusion\nDone.",
    );
    expect(paths(pages)).toEqual([
      "p1 Abstract",
      "p1 1 Introduction",
      "p2 2 Method",
      "p2 2 Method › 2.1 Encoder Stacks",
      "p2 2 Method › 2.2 Decoder",
      "p3 3 Results",
      "p3 3 Results › 3.1 Ablations",
      "p3 4 Conclusion",
    ]);
  });

  it("skips list items, sentences, tables of contents and table rows that look like headings", () => {
    const pages = paper(
      ["Contents", "1 Introduction 3", "1.1 Contributions 4", "2 Approach 5", "3 Experiment 11"].join("\n"),
      [
        "1 Introduction",
        "Text.",
        "We list the datasets:",
        "1 Natural Questions",
        "2 TriviaQA",
        "3 HotpotQA",
        "4 WebQuestions",
        "More text.",
        "2 Approach",
        "Text.",
        "6. We observe that the larger model has similar performance",
        "Text.",
        "3 12.5 14.2 15.0",
        "2.1 Reward Modeling",
        "Text.",
        "2 The model is trained with a learning rate of 0.1. It converges.",
        "3 Experiments with GPT 4",
        "Text.",
      ].join("\n"),
    );
    expect(paths(pages)).toEqual([
      "p2 1 Introduction",
      "p2 2 Approach",
      "p2 2 Approach › 2.1 Reward Modeling",
      "p2 3 Experiments with GPT 4",
    ]);
  });

  it("counts lettered sections only after the references, where appendices start their own numbering", () => {
    const pages = paper(
      "1 Introduction\nA Closer Look at the start of a sentence\n2 Method\nText.",
      "References\nA. Vaswani, N. Shazeer. Attention is all you need.\nA Neural Probabilistic Language Model\nB. Zoph and Q. Le\nText.",
      "A Implementation Details\nText.\nB Prompts\nText.\nB.1 Prompt for Selection\nText.",
    );
    expect(paths(pages)).toEqual([
      "p1 1 Introduction",
      "p1 2 Method",
      "p2 References",
      "p3 A Implementation Details",
      "p3 B Prompts",
      "p3 B Prompts › B.1 Prompt for Selection",
    ]);
  });

  it("reads IEEE-style Roman numerals with lettered subsections", () => {
    const pages = paper(
      "I. INTRODUCTION\nText.\nII. OVERVIEW OF RAG\nText.\nA. Naive RAG\nText.\nB. Advanced RAG\nText.\nIII. RETRIEVAL\nText.\nIV. REFERENCES\nJ. Smith and K. Lee\nB. Jones and K. Lee",
    );
    expect(paths(pages)).toEqual([
      "p1 I INTRODUCTION",
      "p1 II OVERVIEW OF RAG",
      "p1 II OVERVIEW OF RAG › A Naive RAG",
      "p1 II OVERVIEW OF RAG › B Advanced RAG",
      "p1 III RETRIEVAL",
      "p1 IV REFERENCES",
    ]);
  });

  it("keeps the longest run of numbers in sequence: affiliations, footnotes and tables of contents lose to the sections", () => {
    const affiliations = paper(
      "Agents That Search\n1 Stanford University\n2 Google Research\nAbstract\nWe search.\n1 Introduction\nText.",
      "2 Related Work\nText.\n3 Method\nText.\n3.1 Crawler\nText.",
    );
    expect(paths(affiliations)).toEqual([
      "p1 Abstract",
      "p1 1 Introduction",
      "p2 2 Related Work",
      "p2 3 Method",
      "p2 3 Method › 3.1 Crawler",
    ]);
    const footnote = paper(
      "1 Introduction\nText.\n2 Work done during an internship at Google\n2 Related Work\nText.\n3 Method\nText.",
    );
    expect(paths(footnote)).toEqual(["p1 1 Introduction", "p1 2 Related Work", "p1 3 Method"]);
    const contents = paper(
      "Contents\n1 Introduction\n2 Method\n3 Results\n4 Conclusion",
      "1 Introduction\nText.\n2 Method\nText.",
      "3 Results\nText.\n4 Conclusion\nText.",
    );
    expect(paths(contents)).toEqual(["p2 1 Introduction", "p2 2 Method", "p3 3 Results", "p3 4 Conclusion"]);
  });

  it("gets past a heading it cannot read: one missing heading does not lose the rest", () => {
    const pages = paper(
      "1 Introduction\nText.\n2 Why retrieval helps. A short answer\nText.",
      "3 Experiments on 2 Datasets\nText.\n3.1 Setup\nText.\n3.3 Ablations\nText.\n4 Conclusion",
    );
    // "2 …" reads as sentences; "3.2" is not a line of its own
    expect(paths(pages)).toEqual([
      "p1 1 Introduction",
      "p2 3 Experiments on 2 Datasets",
      "p2 3 Experiments on 2 Datasets › 3.1 Setup",
      "p2 3 Experiments on 2 Datasets › 3.3 Ablations",
      "p2 4 Conclusion",
    ]);
  });

  it("ends the body at a numbered references heading; numbered reference lists are not sections", () => {
    const pages = paper(
      "1 Introduction\nText.\n2 Method\nText.\n3 References",
      "1. Ashish Vaswani, Noam Shazeer, Niki Parmar\n2 Alec Radford, Karthik Narasimhan, Tim Salimans\nAppendix A: Prompts\nText.\nB Details\nB.1 Hyperparameters",
    );
    expect(paths(pages)).toEqual([
      "p1 1 Introduction",
      "p1 2 Method",
      "p1 3 References",
      "p2 A Prompts",
      "p2 B Details",
      "p2 B Details › B.1 Hyperparameters",
    ]);
  });

  it("reads Roman numerals up to X and beyond, and only dotted letters as their subsections", () => {
    const roman = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI"];
    const pages = paper(
      `${roman.map((r) => `${r}. SECTION ${r}\nText.`).join("\n")}\nA Transformer encoder maps each query\nA. Encoder`,
    );
    const found = paths(pages);
    expect(found.slice(0, 11)).toEqual(roman.map((r) => `p1 ${r} SECTION ${r}`));
    expect(found.slice(11)).toEqual(["p1 XI SECTION XI › A Encoder"]);
  });

  it("takes no lone candidate for a numbering, and lets the abstract reach no further than its page", () => {
    const pages = paper(
      "A Paper\n1 Department of Computer Science\nAbstract\nWe study.",
      "Introduction\nUnnumbered headings are not found.",
      "Conclusion\nText.\nReferences\n[1] A reference.",
    );
    const headings = findSectionHeadings(pages);
    expect(headings.filter((h) => h.title).map((h) => `p${h.page} ${h.title}`)).toEqual([
      "p1 Abstract",
      "p3 References",
    ]);
    expect(
      sectionsOf(pages, [
        { pageNumber: 1, charStart: "A Paper\n1 Department of Computer Science\nAbstract\n".length, charEnd: 60 },
        { pageNumber: 2, charStart: 0, charEnd: 20 },
        { pageNumber: 3, charStart: 0, charEnd: 10 },
      ]),
    ).toEqual(["Abstract", null, null]);
  });

  it("finds nothing in a text without headings", () => {
    expect(findSectionHeadings(paper("Just a page of prose.\nAnother line."))).toEqual([]);
  });
});

describe("sectionAt and sectionsOf", () => {
  const page1 = "Title\n1 Introduction\nIntro text.\n";
  const page2 = "Still intro.\n2 Method\nMethod text.\n";
  const pages = paper(page1, page2);

  it("gives the last heading at or before a position, across pages, and null before the first", () => {
    const headings = findSectionHeadings(pages);
    expect(sectionAt(headings, 1, 0)).toBeNull();
    expect(sectionLabel(sectionAt(headings, 1, page1.indexOf("1 Introduction")))).toBe("1 Introduction");
    expect(sectionLabel(sectionAt(headings, 2, 0))).toBe("1 Introduction");
    expect(sectionLabel(sectionAt(headings, 2, page2.indexOf("Method text")))).toBe("2 Method");
  });

  it("labels each chunk by the section that holds most of its text", () => {
    const end = (text: string) => text.length;
    expect(
      sectionsOf(pages, [
        { pageNumber: 1, charStart: 0, charEnd: page1.indexOf("1 Introduction") },
        { pageNumber: 1, charStart: page1.indexOf("Intro text"), charEnd: end(page1) },
        { pageNumber: 2, charStart: page2.indexOf("Method text"), charEnd: end(page2) },
        // a few words of the introduction, then the method section: mostly the method
        { pageNumber: 2, charStart: page2.indexOf("intro."), charEnd: end(page2) },
        // mostly the introduction, then the method's heading
        { pageNumber: 2, charStart: 0, charEnd: page2.indexOf("2 Method") + 3 },
        // the title line, then mostly the introduction: the part before the first heading is in no section
        { pageNumber: 1, charStart: 0, charEnd: end(page1) },
      ]),
    ).toEqual([null, "1 Introduction", "2 Method", "2 Method", "1 Introduction", "1 Introduction"]);
  });

  it("keeps the earlier section when the two parts are as long", () => {
    const text = "1 Alpha\nxxxxxxx\n2 Beta\nyyyyyyyy";
    const cut = text.indexOf("2 Beta");
    expect(sectionsOf(paper(text), [{ pageNumber: 1, charStart: 0, charEnd: cut * 2 }])).toEqual(["1 Alpha"]);
  });
});
