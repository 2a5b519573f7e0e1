import { describe, expect, it } from "vitest";
import { createHashingEmbedder, HASHING_MODEL, hashingVector, stem, tokenize } from "./hashing";

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
const norm = (a: number[]) => Math.sqrt(dot(a, a));

describe("hashing embedder", () => {
  it("describes itself and is deterministic, L2-normalised and of the requested dimension", async () => {
    const e = createHashingEmbedder({ dimensions: 256 });
    expect(e).toMatchObject({ kind: "hashing", model: HASHING_MODEL, dimensions: 256 });
    const [a, b] = await e.embed(["Attention is all you need", "Attention is all you need"]);
    expect(a).toHaveLength(256);
    expect(a).toEqual(b);
    expect(norm(a as number[])).toBeCloseTo(1, 9);
    // a fresh embedder gives bit-identical vectors
    const [c] = await createHashingEmbedder({ dimensions: 256 }).embed(["Attention is all you need"]);
    expect(c).toEqual(a);
  });

  it("defaults to 512 dimensions and respects any other size", async () => {
    expect(createHashingEmbedder().dimensions).toBe(512);
    for (const d of [2, 64, 384, 1536]) {
      const [v] = await createHashingEmbedder({ dimensions: d }).embed(["dense passage retrieval for open-domain QA"]);
      expect(v).toHaveLength(d);
      expect(norm(v as number[])).toBeCloseTo(1, 9);
      expect(v?.every(Number.isFinite)).toBe(true);
    }
  });

  it("refuses impossible dimensions", () => {
    expect(() => createHashingEmbedder({ dimensions: 0 })).toThrow(/dimensions/);
    expect(() => createHashingEmbedder({ dimensions: 12.5 })).toThrow(/dimensions/);
  });

  it("puts texts that share words and word forms closer than unrelated texts", () => {
    const q = hashingVector("transformer attention layers for translation", 512);
    const near = hashingVector(
      "The Transformer uses stacked self-attention layers; translation quality improves.",
      512,
    );
    const far = hashingVector("Photosynthesis converts light energy into chemical energy in plants.", 512);
    expect(dot(q, near)).toBeGreaterThan(0.3);
    expect(dot(q, near)).toBeGreaterThan(dot(q, far) + 0.2);
    // inflections and word fragments count: "retrieving documents" is close to "document retrieval"
    const a = hashingVector("document retrieval with dense vectors", 512);
    const b = hashingVector("retrieving documents using a dense vector index", 512);
    const c = hashingVector("the weather in Paris was sunny and warm", 512);
    expect(dot(a, b)).toBeGreaterThan(dot(a, c) + 0.2);
  });

  it("weighs word order a little (bigrams)", () => {
    const a = hashingVector("language model", 512);
    const same = hashingVector("language model", 512);
    const swapped = hashingVector("model language", 512);
    expect(dot(a, same)).toBeCloseTo(1, 9);
    expect(dot(a, swapped)).toBeLessThan(0.999);
    expect(dot(a, swapped)).toBeGreaterThan(0.8);
  });

  it("ignores case, stop words and compatibility forms", () => {
    const v = hashingVector("The MODEL of the Transformer", 512);
    expect(hashingVector("model transformer", 512)).toEqual(v);
    expect(hashingVector("ｍｏｄｅｌ transformer", 512)).toEqual(v); // full-width letters (NFKC)
  });

  it("conflates simple inflections", () => {
    expect(stem("models")).toBe(stem("model"));
    expect(stem("training")).toBe(stem("trained"));
    expect(stem("studies")).toBe("study");
    expect(tokenize("The models are training")).toEqual([stem("models"), stem("training")]);
  });

  it("splits words exactly like /[\\p{L}\\p{N}]+/u, including non-ASCII text", () => {
    const samples = [
      "Łukasz Kaiser’s naïve café — 3D/4K résumé",
      "数学 モデル 𝐱𝐲 x² ½ straße ΣΑΣ İstanbul",
      "tab\tseparated\nlines, e.g. GPT-3.5 (2023)!",
    ];
    const reference = (t: string) =>
      (
        t
          .toLowerCase()
          .normalize("NFKC")
          .match(/[\p{L}\p{N}]+/gu) ?? []
      )
        .filter((w) => w.length >= 2 && !(w.length > 4 && /^\d+$/.test(w)))
        .filter((w) => !["the", "and", "of", "to", "a"].includes(w))
        .map(stem);
    for (const s of samples) expect(tokenize(s)).toEqual(reference(s));
  });

  it("never returns a zero vector (pgvector cosine would be NaN)", () => {
    for (const t of ["", "   ", "the and of", "!!! ???", "a b c"]) {
      const v = hashingVector(t, 64);
      expect(norm(v)).toBeCloseTo(1, 9);
      expect(v[0]).toBe(1);
    }
  });

  it("handles texts with more features than its counting table holds at first", () => {
    const words = Array.from({ length: 6000 }, (_, i) => `term${i.toString(36)}x`).join(" ");
    const v = hashingVector(words, 512);
    expect(norm(v)).toBeCloseTo(1, 9);
    expect(hashingVector(words, 512)).toEqual(v);
  });

  it("keeps the event loop responsive on a large batch and honours the signal between slices", async () => {
    const texts = Array.from({ length: 2000 }, (_, i) => `chunk ${i} about retrieval augmented generation`);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const out = await createHashingEmbedder().embed(texts);
    clearInterval(timer);
    expect(out).toHaveLength(2000);
    expect(ticks).toBeGreaterThan(0);

    const ac = new AbortController();
    ac.abort(new Error("stop"));
    await expect(createHashingEmbedder().embed(["x"], { signal: ac.signal })).rejects.toThrow("stop");
    const late = new AbortController();
    setImmediate(() => late.abort(new Error("stopped midway")));
    await expect(createHashingEmbedder().embed(texts, { signal: late.signal })).rejects.toThrow("stopped midway");
  });

  it("embeds a batch of chunk-sized texts, each to a unit vector of the right size", async () => {
    // (its speed is measured by `npm run bench:ingest`, not asserted here)
    const vocab = "attention model layer retrieval passage query dense sparse index vector token training".split(" ");
    const texts = Array.from({ length: 200 }, (_, i) =>
      Array.from({ length: 350 }, (_, j) => `${vocab[(i * 7 + j * 13) % vocab.length]}${(i + j) % 50}`).join(" "),
    );
    const vectors = await createHashingEmbedder().embed(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const v of vectors) {
      expect(v).toHaveLength(512);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    }
  });
});
