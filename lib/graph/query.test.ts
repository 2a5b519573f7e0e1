import { describe, expect, it } from "vitest";
import { closeness } from "./query";

/** The closeness of two names as plain edit similarity, every cell computed (what the shortcut must agree with). */
function reference(typed: string, stored: string): number {
  if (stored.split(" ").includes(typed) || typed.split(" ").includes(stored)) return 0.9;
  if (stored.includes(typed)) return 0.8;
  const w = stored.length + 1;
  const d = new Int32Array((typed.length + 1) * w);
  for (let i = 0; i <= typed.length; i++) d[i * w] = i;
  for (let j = 0; j <= stored.length; j++) d[j] = j;
  for (let i = 1; i <= typed.length; i++)
    for (let j = 1; j <= stored.length; j++)
      d[i * w + j] = Math.min(
        (d[(i - 1) * w + j] ?? 0) + 1,
        (d[i * w + j - 1] ?? 0) + 1,
        (d[(i - 1) * w + j - 1] ?? 0) + (typed[i - 1] === stored[j - 1] ? 0 : 1),
      );
  return 1 - (d[typed.length * w + stored.length] ?? 0) / Math.max(typed.length, stored.length);
}

describe("closeness (close names for an unknown one)", () => {
  it("a name whose length alone puts it below 0.5 is skipped, and every name at 0.5 or above scores as before", () => {
    // seeded: the same pairs on every run
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const word = (n: number) => Array.from({ length: n }, () => "abcde "[rand(6)]).join("");
    for (let k = 0; k < 2000; k++) {
      const typed = word(1 + rand(30));
      const stored = word(1 + rand(30));
      const expected = reference(typed, stored);
      const got = closeness(typed, stored);
      if (expected >= 0.5) expect(got, `${typed} / ${stored}`).toBe(expected);
      else expect(got, `${typed} / ${stored}`).toBeLessThan(0.5);
    }
  });

  it("a 200-character search is far from every short name (no suggestion), a typo is close", () => {
    // computed, it would be 0.03 (the e's in common) after 200 × 23 steps
    expect(closeness("e".repeat(200), "dense passage retriever")).toBe(0);
    expect(closeness("frobnicatr", "frobnicator")).toBeCloseTo(1 - 1 / 11);
  });
});
