import { type Env, getEnv } from "@/lib/env";
import { createHashingEmbedder } from "./hashing";
import { createOpenAiEmbedder } from "./openai";
import type { EmbeddingProvider } from "./types";

export type { EmbeddingProvider, EmbeddingSignature } from "./types";

/** hashing → offline; openai → the configured server; auto → the server when an LLM is configured, else offline. */
export function getEmbeddingProvider(env: Env = getEnv()): EmbeddingProvider {
  const useServer =
    env.LECTERN_EMBEDDING_PROVIDER === "openai" || (env.LECTERN_EMBEDDING_PROVIDER === "auto" && env.llmConfigured);
  if (!useServer) return createHashingEmbedder({ dimensions: env.LECTERN_EMBEDDING_DIMENSIONS ?? 512 });
  return createOpenAiEmbedder({
    apiKey: env.OPENAI_API_KEY,
    baseURL: env.OPENAI_BASE_URL,
    model: env.LECTERN_EMBEDDING_MODEL,
    dimensions: env.LECTERN_EMBEDDING_DIMENSIONS ?? 512,
  });
}
