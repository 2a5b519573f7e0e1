import { createRng } from "@/lib/random";

/**
 * Latent semantic vectors fitted to the library: latent semantic analysis (Deerwester et al., 1990) over the
 * passages' search terms. The passages × terms matrix (log-scaled term frequency × IDF, each row unit length) is
 * factored by a truncated SVD; a text's vector is its own weighted terms projected on the top right singular vectors.
 * Terms that occur in the same passages end up on the same axes, so a passage can be close to a question it shares
 * few words with ("revision loop" and "self-refinement" both sit with "error", "fix", "program"). Offline, no model
 * download: the model is the library's own statistics, refitted as the library grows (lib/embeddings/latent-index.ts).
 *
 * The SVD is randomised (Halko, Martinsson & Tropp, 2011): a Gaussian sketch with a few power iterations, then an exact
 * eigendecomposition of a small (rank + oversampling)² matrix by cyclic Jacobi rotations. Seeded, so a library fits
 * the same model every time.
 */

export const LATENT_MODEL = "lsa-v1";
export const DEFAULT_LATENT_DIMENSIONS = 256;

/** A valid vector length for the latent embedder (the default when none is given). */
export function latentDimensions(d: number = DEFAULT_LATENT_DIMENSIONS): number {
  if (!Number.isInteger(d) || d < 2) {
    throw new Error(`The latent embedder needs an integer number of dimensions ≥ 2 (got ${d}).`);
  }
  return d;
}

export interface LatentModel {
  id: string;
  /** Vector length (axes beyond `rank` are zero). */
  dimensions: number;
  /** Axes actually fitted: at most `dimensions`, fewer for a small library. */
  rank: number;
  /** Passages the model was fitted on (the library's size then: refits compare against it). */
  rows: number;
  terms: string[];
  idf: Float32Array;
  /** terms.length × dimensions, row-major: each term's weights on the latent axes. */
  projection: Float32Array;
}

export interface FitLatentOptions {
  dimensions?: number;
  /** Terms kept: the most widespread ones with at least `minDf` passages (default 2, or 1 for under 50 passages). */
  maxTerms?: number;
  minDf?: number;
  /** Above this many passages an evenly spaced sample is fitted (the projection still applies to all). */
  maxRows?: number;
  oversample?: number;
  powerIterations?: number;
  seed?: number;
  /** The passages in the library, when `texts` is a sample of them. */
  rows?: number;
  id?: string;
}

/** Sparse rows: term indexes and weights, each row unit length. */
interface SparseRows {
  start: Int32Array;
  index: Int32Array;
  value: Float64Array;
  n: number;
}

function gaussian(rand: () => number): () => number {
  return () => {
    const u = Math.max(rand(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
  };
}

/** Yields to the event loop when the fit has held it for `everyMs`: a server keeps answering while a model is fitted. */
function yielder(everyMs = 20): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < everyMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    last = performance.now();
  };
}

type Pause = () => Promise<void>;

function countTerms(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of text.split(" ")) if (t) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/**
 * X · M (n × l, M being T × l) or, with `transposedRows` = T, Xᵀ · M (T × l, M being n × l); dense matrices row-major.
 * Each stored entry x[i][t] adds w · M's row t to the output's row i, or w · M's row i to its row t.
 */
async function sparseProduct(
  x: SparseRows,
  m: Float64Array,
  l: number,
  pause: Pause,
  transposedRows?: number,
): Promise<Float64Array> {
  const out = new Float64Array((transposedRows ?? x.n) * l);
  const transposed = transposedRows !== undefined;
  for (let i = 0; i < x.n; i++) {
    if ((i & 255) === 0) await pause();
    for (let p = x.start[i] as number; p < (x.start[i + 1] as number); p++) {
      const w = x.value[p] as number;
      const t = (x.index[p] as number) * l;
      const src = transposed ? i * l : t;
      const dst = transposed ? t : i * l;
      for (let j = 0; j < l; j++) out[dst + j] = (out[dst + j] as number) + w * (m[src + j] as number);
    }
  }
  return out;
}

/**
 * Orthonormalises the l columns of a (rows × l, row-major) in place by modified Gram–Schmidt; a column that is
 * (numerically) in the span of the previous ones becomes zero.
 */
async function orthonormalizeColumns(a: Float64Array, rows: number, l: number, pause: Pause): Promise<void> {
  // work on the transpose: each column contiguous
  const t = new Float64Array(rows * l);
  for (let i = 0; i < rows; i++) for (let j = 0; j < l; j++) t[j * rows + i] = a[i * l + j] as number;
  for (let j = 0; j < l; j++) {
    await pause();
    const cj = j * rows;
    let before = 0;
    for (let r = 0; r < rows; r++) before += (t[cj + r] as number) ** 2;
    for (let k = 0; k < j; k++) {
      const ck = k * rows;
      let dot = 0;
      for (let r = 0; r < rows; r++) dot += (t[ck + r] as number) * (t[cj + r] as number);
      if (dot !== 0) for (let r = 0; r < rows; r++) t[cj + r] = (t[cj + r] as number) - dot * (t[ck + r] as number);
    }
    let norm = 0;
    for (let r = 0; r < rows; r++) norm += (t[cj + r] as number) ** 2;
    norm = Math.sqrt(norm);
    const scale = norm > 1e-10 * Math.max(1, Math.sqrt(before)) ? 1 / norm : 0;
    for (let r = 0; r < rows; r++) t[cj + r] = (t[cj + r] as number) * scale;
  }
  for (let i = 0; i < rows; i++) for (let j = 0; j < l; j++) a[i * l + j] = t[j * rows + i] as number;
}

/**
 * Eigen-decomposition of a symmetric l × l matrix (row-major, destroyed) by cyclic Jacobi rotations.
 * Returns the eigenvalues and the eigenvectors as the columns of a row-major l × l matrix.
 */
export async function symmetricEigen(
  a: Float64Array,
  l: number,
  pause: Pause = yielder(),
): Promise<{ values: Float64Array; vectors: Float64Array }> {
  const v = new Float64Array(l * l);
  for (let i = 0; i < l; i++) v[i * l + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    let diag = 0;
    for (let p = 0; p < l; p++) {
      diag += (a[p * l + p] as number) ** 2;
      for (let q = p + 1; q < l; q++) off += (a[p * l + q] as number) ** 2;
    }
    if (off <= 1e-22 * Math.max(diag, 1e-300)) break;
    for (let p = 0; p < l - 1; p++) {
      await pause();
      for (let q = p + 1; q < l; q++) {
        const apq = a[p * l + q] as number;
        if (Math.abs(apq) < 1e-300) continue;
        const app = a[p * l + p] as number;
        const aqq = a[q * l + q] as number;
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < l; k++) {
          const akp = a[k * l + p] as number;
          const akq = a[k * l + q] as number;
          a[k * l + p] = c * akp - s * akq;
          a[k * l + q] = s * akp + c * akq;
        }
        for (let k = 0; k < l; k++) {
          const apk = a[p * l + k] as number;
          const aqk = a[q * l + k] as number;
          a[p * l + k] = c * apk - s * aqk;
          a[q * l + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < l; k++) {
          const vkp = v[k * l + p] as number;
          const vkq = v[k * l + q] as number;
          v[k * l + p] = c * vkp - s * vkq;
          v[k * l + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const values = new Float64Array(l);
  for (let i = 0; i < l; i++) values[i] = a[i * l + i] as number;
  return { values, vectors: v };
}

/**
 * Fits a latent model to passages given as search texts (space-separated terms, lib/text/terms.ts `searchText`).
 * Null when there is nothing to fit (no passage with a usable term).
 */
export async function fitLatentModel(
  texts: readonly string[],
  opts: FitLatentOptions = {},
): Promise<LatentModel | null> {
  const pause = yielder();
  const dimensions = latentDimensions(opts.dimensions);
  const maxRows = opts.maxRows ?? 20_000;
  const stride = texts.length > maxRows ? texts.length / maxRows : 1;
  const sample: Map<string, number>[] = [];
  for (let i = 0; i < texts.length && sample.length < maxRows; i++) {
    const at = Math.floor(i * stride);
    if (at >= texts.length) break;
    // counting the terms of two thousand passages is itself a few hundred milliseconds
    await pause();
    const counts = countTerms(texts[at] as string);
    if (counts.size > 0) sample.push(counts);
  }
  const n = sample.length;
  if (n === 0) return null;
  const df = new Map<string, number>();
  for (const counts of sample) for (const t of counts.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const minDf = opts.minDf ?? (n >= 50 ? 2 : 1);
  const terms = [...df.entries()]
    // a term in every passage tells none apart (IDF 0)
    .filter(([, d]) => d >= minDf && d < n)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, opts.maxTerms ?? 50_000)
    .map(([t]) => t);
  const T = terms.length;
  if (T === 0) return null;
  const termIndex = new Map(terms.map((t, i) => [t, i]));
  const idf = new Float32Array(T);
  terms.forEach((t, i) => {
    idf[i] = Math.log(n / (df.get(t) as number));
  });

  // X: log tf × idf, rows unit length (rows left with no kept term are dropped)
  const start: number[] = [0];
  const index: number[] = [];
  const value: number[] = [];
  for (const counts of sample) {
    await pause();
    const from = index.length;
    let norm = 0;
    for (const [t, tf] of counts) {
      const j = termIndex.get(t);
      if (j === undefined) continue;
      const w = (1 + Math.log(tf)) * (idf[j] as number);
      index.push(j);
      value.push(w);
      norm += w * w;
    }
    if (norm === 0) continue;
    norm = Math.sqrt(norm);
    for (let p = from; p < value.length; p++) value[p] = (value[p] as number) / norm;
    start.push(index.length);
  }
  const x: SparseRows = {
    start: Int32Array.from(start),
    index: Int32Array.from(index),
    value: Float64Array.from(value),
    n: start.length - 1,
  };
  if (x.n === 0) return null;

  const rank = Math.min(dimensions, x.n, T);
  const l = Math.min(rank + (opts.oversample ?? 10), x.n, T);
  const normal = gaussian(createRng(opts.seed ?? 0x1a7e17));
  const omega = new Float64Array(T * l);
  for (let i = 0; i < omega.length; i++) omega[i] = normal();
  let q = await sparseProduct(x, omega, l, pause);
  await orthonormalizeColumns(q, x.n, l, pause);
  // power iterations (Q ← orth(X Xᵀ Q)) sharpen the sketch towards the top singular directions. Only the passage side
  // is re-orthonormalised: with Q orthonormal, Xᵀ Q is no worse conditioned than X itself, and the term side is the
  // larger one (the fit's cost is mostly these orthonormalisations)
  for (let it = 0; it < (opts.powerIterations ?? 2); it++) {
    q = await sparseProduct(x, await sparseProduct(x, q, l, pause, T), l, pause);
    await orthonormalizeColumns(q, x.n, l, pause);
  }
  // B = Qᵀ X (l × T); the eigenvalues of B Bᵀ = Qᵀ X Xᵀ Q (l × l) are σ². Computed on the passage side (n × l dense
  // products), smaller than the term side for any library worth fitting.
  const xxq = await sparseProduct(x, await sparseProduct(x, q, l, pause, T), l, pause);
  const gram = new Float64Array(l * l);
  for (let i = 0; i < x.n; i++) {
    if ((i & 63) === 0) await pause();
    const o = i * l;
    for (let a = 0; a < l; a++) {
      const qa = q[o + a] as number;
      if (qa === 0) continue;
      const go = a * l;
      for (let b = a; b < l; b++) gram[go + b] = (gram[go + b] as number) + qa * (xxq[o + b] as number);
    }
  }
  for (let a = 0; a < l; a++) for (let b = 0; b < a; b++) gram[a * l + b] = gram[b * l + a] as number;
  const { values, vectors } = await symmetricEigen(gram, l, pause);
  const order = [...values.keys()].sort((a, b) => (values[b] as number) - (values[a] as number));
  const top = order.slice(0, rank).filter((k) => (values[k] as number) > 1e-12);
  const r = top.length;
  // V = Bᵀ W Σ⁻¹ = Xᵀ (Q W Σ⁻¹) (T × r): the right singular vectors, one row per term
  const w = new Float64Array(l * r); // W Σ⁻¹, row-major l × r
  top.forEach((k, axis) => {
    const inv = 1 / Math.sqrt(values[k] as number);
    for (let j = 0; j < l; j++) w[j * r + axis] = (vectors[j * l + k] as number) * inv;
  });
  const u = new Float64Array(x.n * r);
  for (let i = 0; i < x.n; i++) {
    if ((i & 63) === 0) await pause();
    const uo = i * r;
    for (let j = 0; j < l; j++) {
      const qj = q[i * l + j] as number;
      if (qj === 0) continue;
      const wo = j * r;
      for (let axis = 0; axis < r; axis++) u[uo + axis] = (u[uo + axis] as number) + qj * (w[wo + axis] as number);
    }
  }
  const v = await sparseProduct(x, u, r, pause, T);
  const projection = new Float32Array(T * dimensions);
  for (let t = 0; t < T; t++) projection.set(v.subarray(t * r, (t + 1) * r), t * dimensions);
  return {
    id: opts.id ?? globalThis.crypto.randomUUID(),
    dimensions,
    rank: r,
    rows: opts.rows ?? texts.length,
    terms,
    idf,
    projection,
  };
}

const indexes = new WeakMap<LatentModel, Map<string, number>>();

/**
 * A search text's latent vector: its known terms (log tf × IDF) projected on the model's axes, unit length.
 * All zeros when the model knows none of its terms.
 */
export function latentVector(model: LatentModel, text: string): number[] {
  let index = indexes.get(model);
  if (!index) {
    index = new Map(model.terms.map((t, i) => [t, i]));
    indexes.set(model, index);
  }
  const d = model.dimensions;
  const out = new Float64Array(d);
  for (const [t, tf] of countTerms(text)) {
    const i = index.get(t);
    if (i === undefined) continue;
    const w = (1 + Math.log(tf)) * (model.idf[i] as number);
    const o = i * d;
    for (let j = 0; j < model.rank; j++) out[j] = (out[j] as number) + w * (model.projection[o + j] as number);
  }
  let norm = 0;
  for (let j = 0; j < d; j++) norm += (out[j] as number) ** 2;
  norm = Math.sqrt(norm);
  return Array.from(out, (v) => (norm > 0 ? v / norm : 0));
}
