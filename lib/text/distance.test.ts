import { describe, expect, it } from "vitest";
import { osaDistance, typoAllowance } from "./distance";

describe("osaDistance", () => {
  it("counts insertions, deletions, substitutions and a swap of neighbours as one edit each", () => {
    expect(osaDistance("retrieval", "retrieval")).toBe(0);
    expect(osaDistance("retreival", "retrieval")).toBe(1); // swap
    expect(osaDistance("betwen", "between")).toBe(1); // deletion
    expect(osaDistance("diffrence", "difference")).toBe(1);
    expect(osaDistance("kitten", "sitting")).toBe(3);
    expect(osaDistance("", "abc")).toBe(3);
    // optimal string alignment edits a substring once: "ca" → "abc" is 3, not Damerau's 2
    expect(osaDistance("ca", "abc")).toBe(3);
  });

  it("stops past the bound, returning bound + 1", () => {
    expect(osaDistance("transformer", "convolution", 2)).toBe(3);
    expect(osaDistance("a", "abcdef", 2)).toBe(3);
    expect(osaDistance("retreival", "retrieval", 2)).toBe(1);
  });

  it("allows one edit in a short word and two from eight letters", () => {
    expect(typoAllowance("betwen")).toBe(1);
    expect(typoAllowance("retreival")).toBe(2);
  });
});
