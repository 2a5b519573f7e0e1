import { describe, expect, it } from "vitest";
import { typoDistance } from "./distance";

describe("typoDistance", () => {
  it("counts a typing slip as one edit: a swap, a letter left out or doubled, a touching key", () => {
    expect(typoDistance("retrieval", "retrieval")).toBe(0);
    expect(typoDistance("retreival", "retrieval")).toBe(1); // swap
    expect(typoDistance("betwen", "between")).toBe(1); // left out
    expect(typoDistance("atttention", "attention")).toBe(1); // doubled
    expect(typoDistance("tramsformer", "transformer")).toBe(1); // n → m, touching keys
    expect(typoDistance("", "abc")).toBe(3);
    // each substring is edited once (optimal string alignment): "ca" → "abc" is 3, not Damerau's 2
    expect(typoDistance("ca", "abc")).toBe(3);
  });

  it("counts another word, a key far from the one meant, as two", () => {
    expect(typoDistance("optical", "optimal")).toBe(2); // c and m do not touch
    expect(typoDistance("overnight", "oversight")).toBe(2);
    expect(typoDistance("kitten", "sitting")).toBe(5);
  });

  it("stops past the bound, returning bound + 1", () => {
    expect(typoDistance("transformer", "convolution", 2)).toBe(3);
    expect(typoDistance("a", "abcdef", 2)).toBe(3);
    expect(typoDistance("retreival", "retrieval", 2)).toBe(1);
  });
});
