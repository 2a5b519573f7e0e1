// must come first: clears empty OPENAI_* variables before the SDK reads them (see the module)
import "@/lib/ai/sdk-env";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { type Env, getEnv } from "@/lib/env";

/**
 * Used when OPENAI_BASE_URL is not set. Passed explicitly: left undefined, the SDK reads process.env.OPENAI_BASE_URL
 * itself and fails on an empty value, which our env treats as unset.
 */
export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** Local OpenAI-compatible servers need no key, but the SDK insists on one. */
export const PLACEHOLDER_API_KEY = "not-needed";

/**
 * The only place language models are made. Any OpenAI-compatible server works (OpenAI, Ollama, vLLM, llama.cpp):
 * we use the chat-completions endpoint (`.chat()`), which they all implement, not the Responses API.
 * Returns null in offline mode (no key and no base URL): callers take their offline path.
 */
export function getChatModel(env: Env = getEnv()): LanguageModel | null {
  if (!env.llmConfigured) return null;
  const provider = createOpenAI({
    apiKey: env.OPENAI_API_KEY ?? PLACEHOLDER_API_KEY,
    baseURL: env.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL,
  });
  return provider.chat(env.LECTERN_CHAT_MODEL);
}

export type ModelMode = { mode: "offline" } | { mode: "llm"; model: string; baseURL?: string };

/** What the app runs on, for the UI and the CLI (never includes the key). */
export function describeModelMode(env: Env = getEnv()): ModelMode {
  if (!env.llmConfigured) return { mode: "offline" };
  return env.OPENAI_BASE_URL
    ? { mode: "llm", model: env.LECTERN_CHAT_MODEL, baseURL: env.OPENAI_BASE_URL }
    : { mode: "llm", model: env.LECTERN_CHAT_MODEL };
}
