import { describe, expect, it } from "vitest";
import { createHashingEmbedder, hashingVector, stem, tokenize } from "./hashing";

const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

describe("hashing embedder", () => {
  it("is deterministic, L2-normalised and of the requested dimension", async () => {
    const e = createHashingEmbedder({ dimensions: 256 });
    const [a, b] = await e.embed(["Attention is all you need", "Attention is all you need"]);
    expect(a).toHaveLength(256);
    expect(a).toEqual(b);
    expect(Math.sqrt(cos(a as number[], a as number[]))).toBeCloseTo(1, 6);
  });

  it("puts texts that share words and word forms closer than unrelated texts", () => {
    const q = hashingVector("transformer attention layers for translation", 512);
    const near = hashingVector(
      "The Transformer uses stacked self-attention layers; translation quality improves.",
      512,
    );
    const far = hashingVector("Photosynthesis converts light energy into chemical energy in plants.", 512);
    expect(cos(q, near)).toBeGreaterThan(0.3);
    expect(cos(q, near)).toBeGreaterThan(cos(q, far) + 0.2);
  });

  it("conflates simple inflections", () => {
    expect(stem("models")).toBe(stem("model"));
    expect(stem("training")).toBe(stem("trained"));
    expect(tokenize("The models are training")).toEqual([stem("models"), stem("training")]);
  });

  it("never returns a zero vector (pgvector cosine would be NaN)", () => {
    for (const t of ["", "   ", "the and of", "!!! ???"]) {
      const v = hashingVector(t, 64);
      expect(Math.sqrt(cos(v, v))).toBeCloseTo(1, 6);
    }
  });

  it("honours an aborted signal", async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(createHashingEmbedder().embed(["x"], { signal: ac.signal })).rejects.toThrow();
  });
});
