import { beforeAll, describe, expect, it } from "vitest";
import { fitLatentModel, type LatentModel, latentVector, symmetricEigen } from "./latent";

const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] as number), 0);

/**
 * Two topics. "refinement" and "revision" never share a passage, but each occurs with the same companions
 * (error, feedback, fix), as synonyms do; "telescope" passages share nothing with them.
 */
const TOPIC_A = [
  "refinement error feedback fix program",
  "refinement feedback fix output error",
  "revision error feedback fix program",
  "revision fix feedback error message",
  "refinement error fix program loop",
  "revision feedback error loop program",
];
const TOPIC_B = [
  "telescope mirror galaxy light",
  "telescope galaxy survey light spectrum",
  "mirror telescope spectrum galaxy",
  "galaxy light survey telescope",
];

describe("symmetricEigen", () => {
  it("diagonalises a symmetric matrix: A v = λ v for every pair", async () => {
    const a = [4, 1, 2, 1, 3, 0.5, 2, 0.5, 5];
    const { values, vectors } = await symmetricEigen(Float64Array.from(a), 3);
    for (let k = 0; k < 3; k++) {
      for (let i = 0; i < 3; i++) {
        let av = 0;
        for (let j = 0; j < 3; j++) av += (a[i * 3 + j] as number) * (vectors[j * 3 + k] as number);
        expect(av).toBeCloseTo((values[k] as number) * (vectors[i * 3 + k] as number), 9);
      }
    }
    expect([...values].reduce((s, v) => s + v, 0)).toBeCloseTo(12, 9); // the trace
  });
});

describe("fitLatentModel / latentVector", () => {
  let model: LatentModel | null = null;
  beforeAll(async () => {
    model = await fitLatentModel([...TOPIC_A, ...TOPIC_B], { dimensions: 8 });
  });

  it("fits axes no more than the data has, and pads vectors to the requested length with unit norm", async () => {
    expect(model).not.toBeNull();
    if (!model) return;
    expect(model.dimensions).toBe(8);
    expect(model.rank).toBeLessThanOrEqual(8);
    expect(model.rows).toBe(10);
    const v = latentVector(model, "refinement error");
    expect(v).toHaveLength(8);
    expect(cos(v, v)).toBeCloseTo(1, 6);
  });

  it("puts words that share companions close together, though they never share a passage", async () => {
    // fewer axes than words: what LSA needs to merge co-occurrence patterns (here, one per topic)
    const model = await fitLatentModel([...TOPIC_A, ...TOPIC_B], { dimensions: 2 });
    if (!model) throw new Error("no model");
    const a = latentVector(model, "revision");
    const b = latentVector(model, "refinement");
    const c = latentVector(model, "telescope");
    expect(cos(a, b)).toBeGreaterThan(0.5);
    expect(cos(a, b)).toBeGreaterThan(cos(a, c) + 0.4);
    // a query in one word finds the passages that use the other
    const q = latentVector(model, "revision loop");
    const passage = latentVector(model, "refinement error fix program loop");
    const other = latentVector(model, "telescope galaxy survey light spectrum");
    expect(cos(q, passage)).toBeGreaterThan(cos(q, other));
  });

  it("is deterministic (seeded) and all zeros for text it knows no word of", async () => {
    const again = await fitLatentModel([...TOPIC_A, ...TOPIC_B], { dimensions: 8, id: "same" });
    const once = await fitLatentModel([...TOPIC_A, ...TOPIC_B], { dimensions: 8, id: "same" });
    expect(again && latentVector(again, "revision feedback")).toEqual(once && latentVector(once, "revision feedback"));
    if (!model) throw new Error("no model");
    expect(latentVector(model, "zebra quokka").every((x) => x === 0)).toBe(true);
    expect(latentVector(model, "").every((x) => x === 0)).toBe(true);
  });

  it("returns null when there is nothing to fit, and rejects a bad dimension", async () => {
    expect(await fitLatentModel([])).toBeNull();
    expect(await fitLatentModel(["", "  "])).toBeNull();
    // one passage: every term is in every passage (IDF 0), nothing tells passages apart
    expect(await fitLatentModel(["alpha beta"])).toBeNull();
    await expect(fitLatentModel(TOPIC_A, { dimensions: 1 })).rejects.toThrow(/dimensions/);
  });

  it("fits an evenly spaced sample above maxRows but keeps the library's size", async () => {
    const all = [...TOPIC_A, ...TOPIC_B];
    const texts = Array.from({ length: 40 }, (_, i) => all[(i * 3) % all.length] as string);
    const m = await fitLatentModel(texts, { dimensions: 4, maxRows: 10, rows: 40 });
    expect(m?.rows).toBe(40);
    expect(m?.rank).toBeGreaterThan(0);
  });

  it("is a truncated SVD: orthonormal axes, and with every axis kept, cosines are the weighted terms' own", async () => {
    const texts = [...TOPIC_A, ...TOPIC_B];
    // 10 passages, so at most 10 axes: 16 asked for keeps them all
    const full = await fitLatentModel(texts, { dimensions: 16 });
    if (!full) throw new Error("no model");
    const { rank, dimensions, projection, terms } = full;
    for (let a = 0; a < rank; a++) {
      for (let b = a; b < rank; b++) {
        let dot = 0;
        for (let t = 0; t < terms.length; t++) {
          dot += (projection[t * dimensions + a] as number) * (projection[t * dimensions + b] as number);
        }
        expect(dot).toBeCloseTo(a === b ? 1 : 0, 6);
      }
    }
    // the passages' own log-tf × IDF vectors, compared directly
    const index = new Map(terms.map((t, i) => [t, i]));
    const weighted = (text: string) => {
      const v = new Array(terms.length).fill(0);
      const counts = new Map<string, number>();
      for (const w of text.split(" ")) counts.set(w, (counts.get(w) ?? 0) + 1);
      for (const [w, tf] of counts) {
        const i = index.get(w);
        if (i !== undefined) v[i] = (1 + Math.log(tf)) * (full.idf[i] as number);
      }
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    for (const [i, j] of [
      [0, 2],
      [1, 3],
      [0, 7],
      [6, 9],
    ] as const) {
      const direct = cos(weighted(texts[i] as string), weighted(texts[j] as string));
      const latent = cos(latentVector(full, texts[i] as string), latentVector(full, texts[j] as string));
      expect(latent).toBeCloseTo(direct, 5);
    }
  });
});
