import { describe, expect, it } from "vitest";
import { findPassage, passageWords, renderMarkedText } from "./highlight";

const items = (...strs: string[]) => strs.map((str) => ({ str }));

/** The marked text of each item, in order. */
function marked(list: { str: string }[], passage: string): string[] {
  const m = findPassage(list, passage);
  if (!m) return [];
  return [...m.ranges.entries()]
    .sort((a, b) => a[0] - b[0])
    .flatMap(([i, rs]) => rs.map(([s, e]) => list[i]?.str.slice(s, e) ?? ""));
}

describe("passageWords", () => {
  it("folds case, accents and ligatures and drops punctuation", () => {
    expect(passageWords("The ﬁnal Résumé, (2nd ed.)")).toEqual(["the", "final", "resume", "2nd", "ed"]);
  });
});

describe("findPassage", () => {
  it("finds a passage spread over several items and lines", () => {
    const page = items(
      "We propose a new simple network",
      "",
      "architecture, the Transformer, based",
      " solely on attention.",
    );
    const m = findPassage(page, "a new simple network architecture, the Transformer");
    expect(m?.complete).toBe(true);
    expect(marked(page, "a new simple network architecture, the Transformer")).toEqual([
      "a new simple network",
      "architecture, the Transformer",
    ]);
  });

  it("matches across a hyphenated line break and whitespace differences", () => {
    const page = items("dispensing with recur-", "rence and convolutions entirely.");
    expect(findPassage(page, "dispensing  with\nrecurrence and convolutions")?.complete).toBe(true);
    // and the other way round: a hyphenated passage against unhyphenated text
    expect(findPassage(items("dispensing with recurrence"), "dispensing with recur- rence")?.complete).toBe(true);
  });

  it("matches ligatures and case", () => {
    const page = items("The eﬃcient ﬁnal layer");
    expect(marked(page, "THE EFFICIENT FINAL")).toEqual(["The eﬃcient ﬁnal"]);
  });

  it("falls back to the longest run of words when the whole passage is not on the page", () => {
    const page = items("Experiments on two machine translation tasks show these models to be superior in quality.");
    const m = findPassage(
      page,
      "Our results: experiments on two machine translation tasks show a different thing entirely",
    );
    expect(m?.complete).toBe(false);
    expect(m?.matchedWords).toBe(7);
    expect(
      marked(page, "Our results: experiments on two machine translation tasks show a different thing entirely"),
    ).toEqual(["Experiments on two machine translation tasks show"]);
  });

  it("returns null when only a few common words match", () => {
    expect(findPassage(items("of the model and the data"), "unrelated words of the other kind")).toBeNull();
    expect(findPassage(items("some text"), "")).toBeNull();
    expect(findPassage([], "anything at all here")).toBeNull();
  });

  it("skips marked-content items but keeps item indices", () => {
    const page = [
      { type: "beginMarkedContent" },
      { str: "hello brave new" },
      { type: "endMarkedContent" },
      { str: "world" },
    ];
    const m = findPassage(page, "brave new world");
    expect([...(m?.ranges.keys() ?? [])]).toEqual([1, 3]);
  });
});

describe("renderMarkedText", () => {
  it("escapes HTML and wraps ranges", () => {
    expect(renderMarkedText("a <b> & c", [[2, 5]])).toBe('a <mark class="lectern-hl">&#60;b&#62;</mark> &#38; c');
    expect(renderMarkedText("x<y", undefined)).toBe("x&#60;y");
  });
});
