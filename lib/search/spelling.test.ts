import { describe, expect, it } from "vitest";
import { correctable, correctionOf, cutForms, isSlipOf, vocabularyOf } from "./spelling";

const terms = new Map([
  ["retrieval", 40],
  ["attention", 90],
  ["optimal", 30],
  ["speculat", 5],
  ["between", 200],
  ["transducer", 2],
  ["crawl", 60],
  ["crawlon", 5],
  ["gpt4", 50],
]);
const vocabulary = vocabularyOf(terms);
const held = (t: string) => terms.has(t);

describe("correctionOf", () => {
  it("corrects a typing slip to the library's term", () => {
    expect(correctionOf("retreival", vocabulary, held)).toBe("retrieval");
    expect(correctionOf("atention", vocabulary, held)).toBe("attention");
    expect(correctionOf("betweeen", vocabulary, held)).toBe("between");
    expect(correctionOf("retrievl", vocabulary, held)).toBe("retrieval");
  });

  it("leaves another word, a form with a letter added or removed at an end, and short words alone", () => {
    expect(correctionOf("optical", vocabulary, held)).toBeNull(); // c and m do not touch: another word
    expect(correctionOf("speculato", vocabulary, held)).toBeNull(); // "speculat" and one letter more
    expect(correctionOf("xattention", vocabulary, held)).toBeNull(); // a letter added in front
    expect(correctionOf("betwen", vocabulary, held)).toBeNull(); // six letters
    expect(correctionOf("attention", vocabulary, held)).toBeNull(); // nothing to correct
  });

  it("leaves the stemmer's longer form of a word the library holds", () => {
    // "crawlin" is one slip from "crawlon", but the library holds "crawl": a form of it, not a typo
    expect(correctionOf("crawlin", vocabulary, held)).toBeNull();
    expect(correctionOf("crawlin", vocabulary, () => false)).toBe("crawlon");
    expect(cutForms("crawlin")).toEqual(["crawli", "crawl"]);
  });

  it("corrects only plain lower-case words, to terms enough rows hold", () => {
    expect(correctable("gpt5abcd")).toBe(false);
    expect(correctable("Atention")).toBe(false);
    // "transducet" is one slip (t and r touch) from "transducer", which two rows hold: as likely a typo itself
    expect(isSlipOf("transducet", "transducer")).toBe(true);
    expect(correctionOf("transducet", vocabulary, held)).toBeNull();
    expect(correctionOf("transducet", vocabularyOf(new Map([["transducer", 3]])), held)).toBe("transducer");
  });
});
