import type { Env } from "@/lib/env";
import type { SafeFetchOptions } from "./fetch";
import { braveProvider, searxngProvider, tavilyProvider, type WebSearchProvider } from "./providers";

/** What the web search step needs from configuration: a provider (or none) and how pages are fetched. */
export interface WebSearchConfig {
  provider: WebSearchProvider | null;
  fetch: Omit<SafeFetchOptions, "signal" | "accept">;
  /** The product token robots.txt rules are matched against. */
  robotsAgent: string;
}

/** Shown where the step would be offered when no provider is configured. */
export const WEB_SEARCH_HOW_TO_ENABLE =
  "Web search is off: set LECTERN_SEARXNG_URL to a SearXNG instance with its JSON API enabled (or TAVILY_API_KEY or BRAVE_SEARCH_API_KEY) and restart.";

export const WEB_USER_AGENT_TOKEN = "Lectern";

export function webSearchConfigOf(
  env: Pick<
    Env,
    | "LECTERN_SEARXNG_URL"
    | "TAVILY_API_KEY"
    | "LECTERN_TAVILY_URL"
    | "BRAVE_SEARCH_API_KEY"
    | "LECTERN_BRAVE_URL"
    | "LECTERN_WEB_TIMEOUT_MS"
    | "LECTERN_WEB_MAX_PAGE_KB"
    | "LECTERN_WEB_ALLOW_HOSTS"
    | "LECTERN_PUBLIC_URL"
  >,
): WebSearchConfig {
  const provider = env.LECTERN_SEARXNG_URL
    ? searxngProvider(env.LECTERN_SEARXNG_URL)
    : env.TAVILY_API_KEY
      ? tavilyProvider(env.TAVILY_API_KEY, env.LECTERN_TAVILY_URL)
      : env.BRAVE_SEARCH_API_KEY
        ? braveProvider(env.BRAVE_SEARCH_API_KEY, env.LECTERN_BRAVE_URL)
        : null;
  const contact = env.LECTERN_PUBLIC_URL ? `; +${env.LECTERN_PUBLIC_URL}` : "";
  return {
    provider,
    robotsAgent: WEB_USER_AGENT_TOKEN,
    fetch: {
      userAgent: `${WEB_USER_AGENT_TOKEN}/0.1 (research assistant reading pages found by web search${contact})`,
      timeoutMs: env.LECTERN_WEB_TIMEOUT_MS,
      maxBytes: env.LECTERN_WEB_MAX_PAGE_KB * 1024,
      maxRedirects: 3,
      allowHosts: (env.LECTERN_WEB_ALLOW_HOSTS ?? "")
        .split(",")
        .map((h) => h.trim())
        .filter(Boolean),
    },
  };
}
