import type { LanguageModel } from "ai";
import { type Database, getDb } from "@/db";
import { getChatModel } from "@/lib/ai/providers";
import { getEmbeddingProvider } from "@/lib/embeddings";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { getEnv } from "@/lib/env";
import { webSearchConfigOf } from "@/lib/web/config";
import { RobotsCache } from "@/lib/web/robots";
import type { WebResearch } from "./web";

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
  /** Web search, when a provider is configured (lib/web); absent or null: the step is not offered. */
  web?: WebResearch | null;
  /**
   * Passages a library needs before words of a question it never contains end a run `no_answer` (`absentFromLibrary`
   * in lib/research/compose.ts); absent: its default, about ten papers.
   */
  vocabularyMinPassages?: number;
}

/** One robots.txt cache per process: origins are asked once an hour, whichever run reads them. */
const ROBOTS_KEY = Symbol.for("lectern.web.robots");

/** Web search from configuration: null when no provider is configured. */
export function webResearchOf(env: ReturnType<typeof getEnv>): WebResearch | null {
  const config = webSearchConfigOf(env);
  if (!config.provider) return null;
  const g = globalThis as unknown as Record<symbol, RobotsCache | undefined>;
  g[ROBOTS_KEY] ??= new RobotsCache();
  return { config: { ...config, provider: config.provider }, robots: g[ROBOTS_KEY], mode: env.LECTERN_WEB_SEARCH };
}

export async function getResearchDeps(): Promise<ResearchDeps> {
  const env = getEnv();
  return {
    db: await getDb(),
    embedder: getEmbeddingProvider(env),
    chatModel: getChatModel(env),
    llmTimeoutMs: env.LECTERN_LLM_TIMEOUT_MS,
    runTimeoutMs: env.LECTERN_RESEARCH_TIMEOUT_MS,
    web: webResearchOf(env),
  };
}

export function modelIdOf(model: LanguageModel): string {
  return typeof model === "string" ? model : model.modelId;
}
