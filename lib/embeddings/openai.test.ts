import { MockEmbeddingModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createEmbedderFromModel } from "./openai";

describe("OpenAI-compatible embedder", () => {
  it("batches inputs, keeps their order and normalises vectors", async () => {
    const calls: string[][] = [];
    const model = new MockEmbeddingModelV4({
      doEmbed: async ({ values }: { values: string[] }) => {
        calls.push(values);
        return { embeddings: values.map((v) => [v.length, 0, 0]), warnings: [] };
      },
    });
    const e = createEmbedderFromModel(model, { modelName: "mock", dimensions: 3, batchSize: 2 });
    const out = await e.embed(["a", "bbb", "cc"]);
    expect(calls.flat()).toEqual(["a", "bbb", "cc"]);
    for (const c of calls) expect(c.length).toBeLessThanOrEqual(2);
    expect(out).toEqual([
      [1, 0, 0],
      [1, 0, 0],
      [1, 0, 0],
    ]);
  });

  it("reports a dimension mismatch clearly instead of writing bad vectors", async () => {
    const model = new MockEmbeddingModelV4({
      doEmbed: async ({ values }: { values: string[] }) => ({ embeddings: values.map(() => [1, 2]), warnings: [] }),
    });
    const e = createEmbedderFromModel(model, { modelName: "mock", dimensions: 3 });
    await expect(e.embed(["x"])).rejects.toThrow(/2-dimensional.*LECTERN_EMBEDDING_DIMENSIONS/);
  });

  it("turns a failing server into an unavailable:embedding error", async () => {
    const model = new MockEmbeddingModelV4({
      doEmbed: async () => {
        throw new Error("connect ECONNREFUSED 127.0.0.1:11434");
      },
    });
    const e = createEmbedderFromModel(model, { modelName: "mock", dimensions: 3 });
    await expect(e.embed(["x"])).rejects.toMatchObject({ code: "unavailable:embedding" });
  });
});
