import http from "node:http";
import type { AddressInfo } from "node:net";
import { MockEmbeddingModelV4 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbedderFromModel, createOpenAiEmbedder } from "./openai";

const norm = (a: number[]) => Math.sqrt(a.reduce((s, x) => s + x * x, 0));

describe("OpenAI-compatible embedder (mock model)", () => {
  it("batches inputs, keeps their order and normalises vectors", async () => {
    const calls: string[][] = [];
    const model = new MockEmbeddingModelV4({
      maxEmbeddingsPerCall: 100,
      doEmbed: async ({ values }: { values: string[] }) => {
        calls.push(values);
        return { embeddings: values.map((v) => [v.length, 0, 0]), warnings: [] };
      },
    });
    const e = createEmbedderFromModel(model, { modelName: "mock", dimensions: 3, batchSize: 2 });
    expect(e).toMatchObject({ kind: "openai", model: "mock", dimensions: 3 });
    const out = await e.embed(["a", "bbb", "cc"]);
    expect(calls).toEqual([["a", "bbb"], ["cc"]]);
    expect(out).toEqual([
      [1, 0, 0],
      [1, 0, 0],
      [1, 0, 0],
    ]);
  });

  it("normalises non-unit vectors and never returns a zero vector", async () => {
    const model = new MockEmbeddingModelV4({
      doEmbed: async ({ values }: { values: string[] }) => ({
        embeddings: values.map((v) => (v === "zero" ? [0, 0, 0, 0] : [3, 4, 0, 0])),
        warnings: [],
      }),
    });
    const [a, z] = await createEmbedderFromModel(model, { modelName: "mock", dimensions: 4 }).embed(["x", "zero"]);
    expect(a?.[0]).toBeCloseTo(0.6, 12);
    expect(a?.[1]).toBeCloseTo(0.8, 12);
    expect(norm(z as number[])).toBe(1);
  });

  it("requests the configured dimensions only when asked to", async () => {
    const model = new MockEmbeddingModelV4({
      doEmbed: async ({ values }: { values: string[] }) => ({ embeddings: values.map(() => [1, 0]), warnings: [] }),
    });
    await createEmbedderFromModel(model, { modelName: "m", dimensions: 2, requestDimensions: true }).embed(["x"]);
    await createEmbedderFromModel(model, { modelName: "m", dimensions: 2 }).embed(["y"]);
    expect(model.doEmbedCalls[0]?.dimensions).toBe(2);
    expect(model.doEmbedCalls[1]?.dimensions).toBeUndefined();
  });

  it("sends a blank text as a single space (servers reject empty input)", async () => {
    const model = new MockEmbeddingModelV4({
      maxEmbeddingsPerCall: 100,
      doEmbed: async ({ values }: { values: string[] }) => ({ embeddings: values.map(() => [1, 0]), warnings: [] }),
    });
    await createEmbedderFromModel(model, { modelName: "m", dimensions: 2 }).embed(["", "  ", "ok"]);
    expect(model.doEmbedCalls[0]?.values).toEqual([" ", " ", "ok"]);
  });

  it("reports a dimension mismatch clearly instead of writing bad vectors", async () => {
    const model = new MockEmbeddingModelV4({
      doEmbed: async ({ values }: { values: string[] }) => ({ embeddings: values.map(() => [1, 2]), warnings: [] }),
    });
    const e = createEmbedderFromModel(model, { modelName: "mock", dimensions: 3 });
    await expect(e.embed(["x"])).rejects.toMatchObject({ code: "conflict:embedding" });
    await expect(e.embed(["x"])).rejects.toThrow(/2-dimensional.*LECTERN_EMBEDDING_DIMENSIONS/);
  });

  it("refuses vectors with NaN", async () => {
    const model = new MockEmbeddingModelV4({
      doEmbed: async ({ values }: { values: string[] }) => ({
        embeddings: values.map(() => [1, Number.NaN]),
        warnings: [],
      }),
    });
    await expect(createEmbedderFromModel(model, { modelName: "m", dimensions: 2 }).embed(["x"])).rejects.toMatchObject({
      code: "unavailable:embedding",
    });
  });

  it("turns a failing server into an unavailable:embedding error", async () => {
    const model = new MockEmbeddingModelV4({
      doEmbed: async () => {
        throw new Error("connect ECONNREFUSED 127.0.0.1:11434");
      },
    });
    const e = createEmbedderFromModel(model, { modelName: "mock", dimensions: 3 });
    await expect(e.embed(["x"])).rejects.toMatchObject({ code: "unavailable:embedding" });
    await expect(e.embed(["x"])).rejects.toThrow(/ECONNREFUSED/);
  });

  it("stops at an aborted signal without wrapping the abort", async () => {
    const model = new MockEmbeddingModelV4({
      doEmbed: async ({ values }: { values: string[] }) => ({ embeddings: values.map(() => [1, 0]), warnings: [] }),
    });
    const ac = new AbortController();
    ac.abort(new Error("cancelled by user"));
    const e = createEmbedderFromModel(model, { modelName: "m", dimensions: 2 });
    await expect(e.embed(["x"], { signal: ac.signal })).rejects.toThrow("cancelled by user");
    expect(model.doEmbedCalls).toHaveLength(0);
  });
});

describe("createOpenAiEmbedder against a local OpenAI-compatible server", () => {
  const requests: Array<{
    url?: string;
    auth?: string;
    body: { model: string; input: string[]; dimensions?: number };
  }> = [];
  let server: http.Server;
  let baseURL = "";

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => {
        raw += c;
      });
      req.on("end", () => {
        const body = JSON.parse(raw);
        requests.push({ url: req.url, auth: req.headers.authorization, body });
        const dims = body.dimensions ?? 8;
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify({
            object: "list",
            data: body.input.map((_: string, i: number) => ({
              object: "embedding",
              index: i,
              embedding: Array.from({ length: dims }, (_, k) => (k === i % dims ? 2 : 0)),
            })),
            model: body.model,
            usage: { prompt_tokens: 3, total_tokens: 3 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("calls /v1/embeddings with the model and the requested dimensions, and returns unit vectors", async () => {
    const e = createOpenAiEmbedder({ baseURL, model: "nomic-embed-text", dimensions: 16 });
    expect(e).toMatchObject({ kind: "openai", model: "nomic-embed-text", dimensions: 16 });
    const out = await e.embed(["first text", "second text"]);
    expect(requests.at(-1)?.url).toBe("/v1/embeddings");
    expect(requests.at(-1)?.body).toMatchObject({
      model: "nomic-embed-text",
      input: ["first text", "second text"],
      dimensions: 16,
    });
    // no key configured: a placeholder bearer token is sent (local servers ignore it)
    expect(requests.at(-1)?.auth).toBe("Bearer not-needed");
    expect(out).toHaveLength(2);
    expect(out[0]?.[0]).toBe(1);
    expect(out[1]?.[1]).toBe(1);
  });

  it("defaults to 512 dimensions and passes the API key", async () => {
    const e = createOpenAiEmbedder({ baseURL, apiKey: "sk-test", model: "text-embedding-3-small" });
    expect(e.dimensions).toBe(512);
    const [v] = await e.embed(["x"]);
    expect(v).toHaveLength(512);
    expect(requests.at(-1)?.body.dimensions).toBe(512);
    expect(requests.at(-1)?.auth).toBe("Bearer sk-test");
  });
});
