import type { LanguageModel } from "ai";
import { type Database, getDb } from "@/db";
import { getChatModel } from "@/lib/ai/providers";
import { getEmbeddingProvider } from "@/lib/embeddings";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { getEnv } from "@/lib/env";

/** What a research run works with: the library, its embedder, the model (or none) and the time limits. */
export interface ResearchDeps {
  db: Database;
  embedder: EmbeddingProvider;
  /** null: offline mode (rules, library feedback, extractive synthesis, lexical verification). */
  chatModel: LanguageModel | null;
  /**
   * Each model call is abandoned after this long (a streamed answer: after this long without a token), and its step
   * falls back to the offline path.
   */
  llmTimeoutMs: number;
  /** The whole run is stopped after this long. */
  runTimeoutMs: number;
}

export async function getResearchDeps(): Promise<ResearchDeps> {
  const env = getEnv();
  return {
    db: await getDb(),
    embedder: getEmbeddingProvider(env),
    chatModel: getChatModel(env),
    llmTimeoutMs: env.LECTERN_LLM_TIMEOUT_MS,
    runTimeoutMs: env.LECTERN_RESEARCH_TIMEOUT_MS,
  };
}

export function modelIdOf(model: LanguageModel): string {
  return typeof model === "string" ? model : model.modelId;
}
