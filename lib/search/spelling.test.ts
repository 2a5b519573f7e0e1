import { describe, expect, it } from "vitest";
import { correctable, correctionOf, vocabularyOf } from "./spelling";

const vocabulary = vocabularyOf(
  new Map([
    ["retrieval", 40],
    ["attention", 90],
    ["optimal", 30],
    ["speculat", 5],
    ["intel", 4],
    ["between", 200],
    ["transducer", 2],
    ["retrievel", 1], // a typo in the library itself: too rare to correct to
    ["gpt4", 50],
    ["step", 60],
    ["sepp", 3],
  ]),
);

describe("correctionOf", () => {
  it("corrects a typing slip to the library's term", () => {
    expect(correctionOf("retreival", vocabulary)).toBe("retrieval");
    expect(correctionOf("atention", vocabulary)).toBe("attention");
    expect(correctionOf("betweeen", vocabulary)).toBe("between");
    // shorter words are left alone: one letter's difference is too often another word
    expect(correctionOf("betwen", vocabulary)).toBeNull();
  });

  it("leaves another word, a form with letters added or removed at an end, and short words alone", () => {
    expect(correctionOf("optical", vocabulary)).toBeNull(); // c and m do not touch: another word
    expect(correctionOf("speculativ", vocabulary)).toBeNull();
    expect(correctionOf("xattention", vocabulary)).toBeNull(); // a letter added in front
    expect(correctionOf("attention", vocabulary)).toBeNull(); // nothing to correct
    // the stemmer's longer form of a word the library holds ("stepping" → "stepp"; "step") is no typo of "sepp"
    expect(correctionOf("stepp", vocabulary)).toBeNull();
  });

  it("corrects only plain lower-case words, to terms enough rows hold", () => {
    expect(correctable("gpt5")).toBe(false);
    expect(correctable("Loihi")).toBe(false);
    expect(correctable("retrievl")).toBe(true);
    expect(correctionOf("retrievl", vocabulary)).toBe("retrieval");
    expect(correctionOf("transduser", vocabulary)).toBeNull(); // two rows: as likely a typo itself
    expect(correctionOf("rarw", vocabulary)).toBeNull(); // four letters
  });
});
