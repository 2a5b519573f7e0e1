import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { type Env, getEnv } from "@/lib/env";

/**
 * The only place language models are made. Any OpenAI-compatible server works (OpenAI, Ollama, vLLM, llama.cpp):
 * we use the chat-completions endpoint (`.chat()`), which they all implement, not the Responses API.
 * Returns null in offline mode (no key and no base URL): callers take their offline path.
 */
export function getChatModel(env: Env = getEnv()): LanguageModel | null {
  if (!env.llmConfigured) return null;
  const provider = createOpenAI({ apiKey: env.OPENAI_API_KEY ?? "not-needed", baseURL: env.OPENAI_BASE_URL });
  return provider.chat(env.LECTERN_CHAT_MODEL);
}

export type ModelMode = { mode: "offline" } | { mode: "llm"; model: string; baseURL?: string };

export function describeModelMode(env: Env = getEnv()): ModelMode {
  if (!env.llmConfigured) return { mode: "offline" };
  return { mode: "llm", model: env.LECTERN_CHAT_MODEL, baseURL: env.OPENAI_BASE_URL };
}
