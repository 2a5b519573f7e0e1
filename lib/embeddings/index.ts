import { type Env, getEnv } from "@/lib/env";
import { LecternError } from "@/lib/errors";
import { createHashingEmbedder } from "./hashing";
import { DEFAULT_LATENT_DIMENSIONS } from "./latent";
import { createLatentEmbedder } from "./latent-index";
import { createOpenAiEmbedder } from "./openai";
import type { EmbeddingProvider } from "./types";

export type { EmbeddingProvider, EmbeddingSignature } from "./types";

/** Vector size when LECTERN_EMBEDDING_DIMENSIONS is not set, for the hashing and server embedders. */
export const DEFAULT_EMBEDDING_DIMENSIONS = 512;

/**
 * The configured embedder. LECTERN_EMBEDDING_PROVIDER: `latent` → offline, LSA fitted to the library (semantic from
 * the library's own co-occurrences); `hashing` → offline, hashed words (lexical only); `openai` → the
 * OpenAI-compatible server (OPENAI_BASE_URL, or OpenAI itself with OPENAI_API_KEY); `auto` (default) → the server when
 * an LLM is configured, else `latent`. Dimensions: LECTERN_EMBEDDING_DIMENSIONS, else 256 for the latent embedder and
 * 512 for the others (requested from the server as `dimensions`).
 */
export function getEmbeddingProvider(env: Env = getEnv()): EmbeddingProvider {
  const mode = env.LECTERN_EMBEDDING_PROVIDER;
  if (mode === "latent" || (mode === "auto" && !env.llmConfigured)) {
    return createLatentEmbedder({ dimensions: env.LECTERN_EMBEDDING_DIMENSIONS ?? DEFAULT_LATENT_DIMENSIONS });
  }
  const dimensions = env.LECTERN_EMBEDDING_DIMENSIONS ?? DEFAULT_EMBEDDING_DIMENSIONS;
  if (mode === "hashing") return createHashingEmbedder({ dimensions });
  if (!env.llmConfigured) {
    throw new LecternError(
      "unavailable:embedding",
      "LECTERN_EMBEDDING_PROVIDER=openai needs OPENAI_BASE_URL (a local OpenAI-compatible server) or OPENAI_API_KEY. " +
        "Set one, or use LECTERN_EMBEDDING_PROVIDER=latent for the offline embedder.",
    );
  }
  return createOpenAiEmbedder({
    apiKey: env.OPENAI_API_KEY,
    baseURL: env.OPENAI_BASE_URL,
    model: env.LECTERN_EMBEDDING_MODEL,
    dimensions,
  });
}
