import { createRng } from "@/lib/random";

/**
 * How far an evaluation's figures can be trusted. A question set of a few dozen questions gives means that move by
 * several hundredths when one question's evidence page moves by a rank or two, so the harness reports each mean with a
 * bootstrap interval and each difference between two retrievers with a paired significance test (both seeded: the
 * same outcomes give the same figures on every run).
 */

export interface Interval {
  low: number;
  high: number;
}

export const DEFAULT_LEVEL = 0.95;
export const DEFAULT_RESAMPLES = 10_000;
/** Above this many non-zero differences the sign-flip test samples flips instead of enumerating all 2^n. */
const EXACT_LIMIT = 20;
const DEFAULT_TRIALS = 100_000;
const SEED = 0x5eed;

/** The arithmetic mean; 0 for no values. */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * Percentile bootstrap interval of the mean (Efron & Tibshirani, 1993): the questions are resampled with
 * replacement `resamples` times and the interval spans the middle `level` of the resampled means. A single value, or
 * values all equal, give a point.
 */
export function bootstrapMeanInterval(
  values: readonly number[],
  { level = DEFAULT_LEVEL, resamples = DEFAULT_RESAMPLES, seed = SEED } = {},
): Interval {
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(`resamples must be a whole number ≥ 1, got ${resamples}`);
  }
  const n = values.length;
  if (n === 0) return { low: 0, high: 0 };
  const rand = createRng(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += values[Math.floor(rand() * n)] as number;
    means[r] = s / n;
  }
  means.sort();
  // as many resampled means left out below the interval as above it (the epsilon: 0.05 / 2 × 10,000 is 249.99…)
  const k = Math.min(Math.floor(((1 - level) / 2) * resamples + 1e-9), Math.floor((resamples - 1) / 2));
  return { low: means[k] as number, high: means[resamples - 1 - k] as number };
}

export interface PairedTest {
  /** mean(a) − mean(b) over the paired questions. */
  difference: number;
  /** Two-sided p-value: how often a difference at least this large arises when a and b are exchangeable. */
  pValue: number;
  /** Questions on which the two differ (the others cannot move the statistic). */
  differing: number;
  /** All 2^differing sign patterns were enumerated (otherwise `trials` were sampled). */
  exact: boolean;
}

/**
 * Paired randomisation (sign-flip permutation) test on per-question scores, the test Smucker, Allan & Carterette
 * (2007) recommend for IR evaluation: under the null hypothesis the two systems are exchangeable on each question, so
 * each paired difference is as likely to have either sign. Exact when at most EXACT_LIMIT questions differ, else
 * Monte Carlo with the (count + 1) / (trials + 1) estimate.
 */
export function pairedPermutationTest(
  a: readonly number[],
  b: readonly number[],
  { trials = DEFAULT_TRIALS, seed = SEED } = {},
): PairedTest {
  if (a.length !== b.length) throw new RangeError(`paired scores differ in length (${a.length} and ${b.length})`);
  const diffs = a.map((x, i) => x - (b[i] as number));
  const difference = mean(diffs);
  // rounding: sums of the same terms in another order must still count as "at least as large"
  const eps = 1e-12 * diffs.reduce((m, d) => Math.max(m, Math.abs(d)), 1);
  const nonzero = diffs.filter((d) => Math.abs(d) > eps);
  const m = nonzero.length;
  if (m === 0) return { difference, pValue: 1, differing: 0, exact: true };
  const observed = Math.abs(nonzero.reduce((s, d) => s + d, 0));
  if (m <= EXACT_LIMIT) {
    let extreme = 0;
    const total = 2 ** m;
    for (let mask = 0; mask < total; mask++) {
      let s = 0;
      for (let i = 0; i < m; i++) s += mask & (1 << i) ? -(nonzero[i] as number) : (nonzero[i] as number);
      if (Math.abs(s) >= observed - eps * m) extreme++;
    }
    return { difference, pValue: extreme / total, differing: m, exact: true };
  }
  const rand = createRng(seed);
  let extreme = 0;
  for (let t = 0; t < trials; t++) {
    let s = 0;
    for (let i = 0; i < m; i++) s += rand() < 0.5 ? -(nonzero[i] as number) : (nonzero[i] as number);
    if (Math.abs(s) >= observed - eps * m) extreme++;
  }
  return { difference, pValue: (extreme + 1) / (trials + 1), differing: m, exact: false };
}

/**
 * Holm's step-down adjustment (Holm, 1979) of a family of p-values: with many comparisons some small p-values arise by
 * chance; an adjusted p-value below 0.05 keeps the chance of any false "significant" in the family under 5%.
 * Returned in the order given.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[i] = running;
  });
  return out;
}
