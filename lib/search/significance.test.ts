import { describe, expect, it } from "vitest";
import { createRng } from "@/lib/random";
import { bootstrapMeanInterval, holmAdjust, pairedPermutationTest } from "./significance";

describe("bootstrap interval of a mean", () => {
  it("is a point for constant values and empty for none", () => {
    expect(bootstrapMeanInterval([0.5, 0.5, 0.5])).toEqual({ low: 0.5, high: 0.5 });
    expect(bootstrapMeanInterval([])).toEqual({ low: 0, high: 0 });
  });

  it("brackets the mean, within the values' range, the same on every run", () => {
    const values = [1, 0, 0.5, 1, 0.2, 0, 1, 0.33, 0.25, 1];
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const ci = bootstrapMeanInterval(values);
    expect(ci.low).toBeLessThan(mean);
    expect(ci.high).toBeGreaterThan(mean);
    expect(ci.low).toBeGreaterThanOrEqual(0);
    expect(ci.high).toBeLessThanOrEqual(1);
    expect(bootstrapMeanInterval(values)).toEqual(ci);
    // a lower level gives a narrower interval inside it
    const narrow = bootstrapMeanInterval(values, { level: 0.5 });
    expect(narrow.low).toBeGreaterThan(ci.low);
    expect(narrow.high).toBeLessThan(ci.high);
  });

  it("matches the normal approximation on a large sample", () => {
    // 400 fair coin flips: mean ± 1.96 · sqrt(p(1 − p) / n), half-width ≈ 0.049
    const rand = createRng(7);
    const values = Array.from({ length: 400 }, (): number => (rand() < 0.5 ? 1 : 0));
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const half = 1.96 * Math.sqrt((mean * (1 - mean)) / values.length);
    const ci = bootstrapMeanInterval(values);
    expect(ci.low).toBeCloseTo(mean - half, 2);
    expect(ci.high).toBeCloseTo(mean + half, 2);
  });

  it("rejects a level outside (0, 1) and a resample count below 1, even for no values", () => {
    expect(() => bootstrapMeanInterval([1, 2], { level: 1 })).toThrow(RangeError);
    expect(() => bootstrapMeanInterval([], { level: 0 })).toThrow(RangeError);
    expect(() => bootstrapMeanInterval([1, 2], { resamples: 0 })).toThrow(RangeError);
  });
});

describe("paired sign-flip permutation test", () => {
  it("gives p = 1 when the two agree on every question", () => {
    expect(pairedPermutationTest([1, 0.5, 0], [1, 0.5, 0])).toEqual({
      difference: 0,
      pValue: 1,
      differing: 0,
      exact: true,
    });
  });

  it("enumerates every sign pattern of the differing questions", () => {
    // differences 1, 1, 1, −1 (and two ties): |sum| ≥ 2 in 10 of the 16 patterns
    const r = pairedPermutationTest([1, 1, 1, 0, 0.5, 0.3], [0, 0, 0, 1, 0.5, 0.3]);
    expect(r).toMatchObject({ differing: 4, exact: true });
    expect(r.difference).toBeCloseTo(2 / 6, 12);
    expect(r.pValue).toBeCloseTo(10 / 16, 12);
    // a consistent win on all ten questions: only it and its mirror image are as extreme
    const ten = pairedPermutationTest(Array(10).fill(0.5), Array(10).fill(0.25));
    expect(ten.pValue).toBeCloseTo(2 / 1024, 12);
    // two-sided: swapping the systems changes the sign, not the p-value
    const swapped = pairedPermutationTest([0, 0, 0, 1, 0.5, 0.3], [1, 1, 1, 0, 0.5, 0.3]);
    expect(swapped.difference).toBeCloseTo(-2 / 6, 12);
    expect(swapped.pValue).toBe(r.pValue);
  });

  it("counts sums equal to the observed one despite floating-point order", () => {
    // differences 0.1, 0.2, −0.3, 0.5: flipping the first three (which sum to 0) leaves |sum| = 0.5 in exact
    // arithmetic, but not bit for bit in floating point; exactly, 10 of the 16 patterns reach 0.5
    const r = pairedPermutationTest([0.1, 0.2, 0, 0.5], [0, 0, 0.3, 0]);
    expect(r.pValue).toBeCloseTo(10 / 16, 12);
  });

  it("samples sign patterns when too many questions differ to enumerate them", () => {
    const win = pairedPermutationTest(Array(30).fill(1), Array(30).fill(0), { trials: 2_000 });
    expect(win.exact).toBe(false);
    expect(win.pValue).toBeCloseTo(1 / 2_001, 12);
    // an odd number of ±1 differences: every pattern's |sum| ≥ 1 = the observed one
    const tie = pairedPermutationTest(
      Array.from({ length: 25 }, (_, i) => (i % 2 === 0 ? 1 : 0)),
      Array.from({ length: 25 }, (_, i) => (i % 2 === 0 ? 0 : 1)),
      { trials: 2_000 },
    );
    expect(tie.pValue).toBe(1);
  });

  it("refuses unpaired scores", () => {
    expect(() => pairedPermutationTest([1, 2], [1])).toThrow(RangeError);
  });
});

describe("Holm adjustment", () => {
  it("multiplies the k-th smallest of m p-values by m − k + 1, never below an earlier one, capped at 1", () => {
    // sorted 0.01, 0.02, 0.03, 0.2 → 0.04, 0.06, 0.06 (monotone), 0.2; returned in the order given
    expect(holmAdjust([0.03, 0.2, 0.01, 0.02]).map((p) => Number(p.toFixed(10)))).toEqual([0.06, 0.2, 0.04, 0.06]);
    expect(holmAdjust([0.5, 0.6])).toEqual([1, 1]);
    expect(holmAdjust([0.031])).toEqual([0.031]);
    expect(holmAdjust([])).toEqual([]);
  });
});
