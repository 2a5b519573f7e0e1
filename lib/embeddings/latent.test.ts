import { describe, expect, it } from "vitest";
import { fitLatentModel, latentVector, symmetricEigen } from "./latent";

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
  it("diagonalises a symmetric matrix: A v = λ v for every pair", () => {
    const a = [4, 1, 2, 1, 3, 0.5, 2, 0.5, 5];
    const { values, vectors } = symmetricEigen(Float64Array.from(a), 3);
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
  const model = fitLatentModel([...TOPIC_A, ...TOPIC_B], { dimensions: 8 });

  it("fits axes no more than the data has, and pads vectors to the requested length with unit norm", () => {
    expect(model).not.toBeNull();
    if (!model) return;
    expect(model.dimensions).toBe(8);
    expect(model.rank).toBeLessThanOrEqual(8);
    expect(model.rows).toBe(10);
    const v = latentVector(model, "refinement error");
    expect(v).toHaveLength(8);
    expect(cos(v, v)).toBeCloseTo(1, 6);
  });

  it("puts words that share companions close together, though they never share a passage", () => {
    // fewer axes than words: what LSA needs to merge co-occurrence patterns (here, one per topic)
    const model = fitLatentModel([...TOPIC_A, ...TOPIC_B], { dimensions: 2 });
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

  it("is deterministic (seeded) and all zeros for text it knows no word of", () => {
    const again = fitLatentModel([...TOPIC_A, ...TOPIC_B], { dimensions: 8, id: "same" });
    const once = fitLatentModel([...TOPIC_A, ...TOPIC_B], { dimensions: 8, id: "same" });
    expect(again && latentVector(again, "revision feedback")).toEqual(once && latentVector(once, "revision feedback"));
    if (!model) throw new Error("no model");
    expect(latentVector(model, "zebra quokka").every((x) => x === 0)).toBe(true);
    expect(latentVector(model, "").every((x) => x === 0)).toBe(true);
  });

  it("returns null when there is nothing to fit, and rejects a bad dimension", () => {
    expect(fitLatentModel([])).toBeNull();
    expect(fitLatentModel(["", "  "])).toBeNull();
    // one passage: every term is in every passage (IDF 0), nothing tells passages apart
    expect(fitLatentModel(["alpha beta"])).toBeNull();
    expect(() => fitLatentModel(TOPIC_A, { dimensions: 1 })).toThrow(/dimensions/);
  });

  it("fits an evenly spaced sample above maxRows but keeps the library's size", () => {
    const all = [...TOPIC_A, ...TOPIC_B];
    const texts = Array.from({ length: 40 }, (_, i) => all[(i * 3) % all.length] as string);
    const m = fitLatentModel(texts, { dimensions: 4, maxRows: 10, rows: 40 });
    expect(m?.rows).toBe(40);
    expect(m?.rank).toBeGreaterThan(0);
  });
});
