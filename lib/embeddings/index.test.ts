import { afterEach, describe, expect, it, vi } from "vitest";
import { getEnv, resetEnvForTests } from "@/lib/env";
import { getEmbeddingProvider } from "./index";

function envWith(vars: Record<string, string | undefined>) {
  for (const key of [
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "LECTERN_EMBEDDING_PROVIDER",
    "LECTERN_EMBEDDING_MODEL",
    "LECTERN_EMBEDDING_DIMENSIONS",
  ]) {
    vi.stubEnv(key, vars[key] ?? "");
  }
  resetEnvForTests();
  return getEnv();
}

afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvForTests();
});

describe("getEmbeddingProvider", () => {
  it("auto without an LLM configured → the offline latent embedder, 256 dimensions", () => {
    expect(getEmbeddingProvider(envWith({}))).toMatchObject({ kind: "latent", model: "lsa-v1", dimensions: 256 });
    const sized = getEmbeddingProvider(
      envWith({ LECTERN_EMBEDDING_PROVIDER: "latent", LECTERN_EMBEDDING_DIMENSIONS: "128" }),
    );
    expect(sized).toMatchObject({ kind: "latent", dimensions: 128 });
  });

  it("auto with a base URL or an API key → the OpenAI-compatible server", () => {
    const local = getEmbeddingProvider(envWith({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" }));
    expect(local).toMatchObject({ kind: "openai", model: "text-embedding-3-small", dimensions: 512 });
    const hosted = getEmbeddingProvider(envWith({ OPENAI_API_KEY: "sk-test", LECTERN_EMBEDDING_MODEL: "m3" }));
    expect(hosted).toMatchObject({ kind: "openai", model: "m3" });
  });

  it("hashing is used when asked for, even with an LLM configured", () => {
    const e = getEmbeddingProvider(
      envWith({
        LECTERN_EMBEDDING_PROVIDER: "hashing",
        OPENAI_API_KEY: "sk-test",
        LECTERN_EMBEDDING_DIMENSIONS: "256",
      }),
    );
    expect(e).toMatchObject({ kind: "hashing", dimensions: 256 });
  });

  it("openai with configured dimensions", () => {
    const e = getEmbeddingProvider(
      envWith({
        LECTERN_EMBEDDING_PROVIDER: "openai",
        OPENAI_BASE_URL: "http://127.0.0.1:8000/v1",
        LECTERN_EMBEDDING_MODEL: "bge-small",
        LECTERN_EMBEDDING_DIMENSIONS: "384",
      }),
    );
    expect(e).toMatchObject({ kind: "openai", model: "bge-small", dimensions: 384 });
  });

  it("openai without a server or key explains what to set", () => {
    expect(() => getEmbeddingProvider(envWith({ LECTERN_EMBEDDING_PROVIDER: "openai" }))).toThrow(
      /OPENAI_BASE_URL.*OPENAI_API_KEY.*latent/,
    );
  });
});
