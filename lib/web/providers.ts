import { z } from "zod";

/**
 * Web search providers behind one interface. SearXNG (self-hosted metasearch, its JSON API) is the default choice;
 * Tavily and Brave are keyed services. Which one is used is configuration (lib/web/config.ts); what each is sent is
 * the search query only.
 */

export interface WebSearchResult {
  url: string;
  title: string;
  /** The provider's snippet of the page. */
  snippet: string;
  /** ISO date when the provider knows it. */
  published: string | null;
}

export interface WebSearchProvider {
  /** Shown on the step card ("SearXNG", "Tavily", "Brave"). */
  readonly name: string;
  search(query: string, opts: { limit: number; signal?: AbortSignal }): Promise<WebSearchResult[]>;
}

export class WebSearchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WebSearchError";
  }
}

const PROVIDER_TIMEOUT_MS = 15_000;

async function getJson(name: string, url: string, init: RequestInit & { signal?: AbortSignal }): Promise<unknown> {
  const timeout = AbortSignal.timeout(PROVIDER_TIMEOUT_MS);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal, redirect: "error" });
  } catch (e) {
    if (init.signal?.aborted) throw init.signal.reason;
    throw new WebSearchError(
      timeout.aborted
        ? `${name} did not answer within ${PROVIDER_TIMEOUT_MS / 1000} s.`
        : `${name} could not be reached.`,
      { cause: e },
    );
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new WebSearchError(
      res.status === 401 || res.status === 403
        ? `${name} refused the request (${res.status}): check its key or that its JSON API is enabled.`
        : res.status === 429
          ? `${name} is rate-limiting requests (429); try again later.`
          : `${name} answered ${res.status}.`,
    );
  }
  try {
    return await res.json();
  } catch (e) {
    throw new WebSearchError(`${name} did not answer with JSON (is its JSON format enabled?).`, { cause: e });
  }
}

const httpUrl = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//i.test(u));

function clean(results: WebSearchResult[], limit: number): WebSearchResult[] {
  const seen = new Set<string>();
  const out: WebSearchResult[] = [];
  for (const r of results) {
    const key = r.url.replace(/#.*$/, "");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...r, title: r.title.trim() || new URL(r.url).host, snippet: r.snippet.trim() });
    if (out.length >= limit) break;
  }
  return out;
}

// ---- SearXNG: GET <base>/search?q=…&format=json (https://docs.searxng.org/dev/search_api.html) ----

const searxngSchema = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: z.string().catch(""),
      content: z.string().nullish().catch(""),
      publishedDate: z.string().nullish().catch(null),
    }),
  ),
});

export function searxngProvider(baseUrl: string): WebSearchProvider {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    name: "SearXNG",
    async search(query, { limit, signal }) {
      const url = `${base}/search?${new URLSearchParams({ q: query, format: "json", categories: "general", safesearch: "1" })}`;
      const body = await getJson("SearXNG", url, { headers: { accept: "application/json" }, signal });
      const parsed = searxngSchema.safeParse(body);
      if (!parsed.success) throw new WebSearchError("SearXNG answered JSON without a results list.");
      return clean(
        parsed.data.results
          .filter((r) => httpUrl.safeParse(r.url).success)
          .map((r) => ({ url: r.url, title: r.title, snippet: r.content ?? "", published: r.publishedDate ?? null })),
        limit,
      );
    },
  };
}

// ---- Tavily: POST <base>/search, Bearer key (https://docs.tavily.com/documentation/api-reference/endpoint/search) ----

const tavilySchema = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: z.string().catch(""),
      content: z.string().nullish().catch(""),
      published_date: z.string().nullish().catch(null),
    }),
  ),
});

export function tavilyProvider(apiKey: string, baseUrl = "https://api.tavily.com"): WebSearchProvider {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    name: "Tavily",
    async search(query, { limit, signal }) {
      const body = await getJson("Tavily", `${base}/search`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({
          query,
          search_depth: "basic",
          topic: "general",
          max_results: Math.min(20, limit),
          include_answer: false,
          include_raw_content: false,
          include_images: false,
        }),
        signal,
      });
      const parsed = tavilySchema.safeParse(body);
      if (!parsed.success) throw new WebSearchError("Tavily answered JSON without a results list.");
      return clean(
        parsed.data.results
          .filter((r) => httpUrl.safeParse(r.url).success)
          .map((r) => ({ url: r.url, title: r.title, snippet: r.content ?? "", published: r.published_date ?? null })),
        limit,
      );
    },
  };
}

// ---- Brave: GET <base>/res/v1/web/search?q=…, X-Subscription-Token (https://api-dashboard.search.brave.com) ----

const braveSchema = z.object({
  web: z
    .object({
      results: z.array(
        z.object({
          url: z.string(),
          title: z.string().catch(""),
          description: z.string().nullish().catch(""),
          page_age: z.string().nullish().catch(null),
        }),
      ),
    })
    .optional(),
});

export function braveProvider(apiKey: string, baseUrl = "https://api.search.brave.com"): WebSearchProvider {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    name: "Brave",
    async search(query, { limit, signal }) {
      const url = `${base}/res/v1/web/search?${new URLSearchParams({ q: query, count: String(Math.min(20, limit)) })}`;
      const body = await getJson("Brave", url, {
        headers: { accept: "application/json", "x-subscription-token": apiKey },
        signal,
      });
      const parsed = braveSchema.safeParse(body);
      if (!parsed.success) throw new WebSearchError("Brave answered JSON in an unexpected shape.");
      return clean(
        (parsed.data.web?.results ?? [])
          .filter((r) => httpUrl.safeParse(r.url).success)
          // Brave marks the query's words in descriptions with <strong>
          .map((r) => ({
            url: r.url,
            title: r.title.replace(/<[^>]+>/g, ""),
            snippet: (r.description ?? "").replace(/<[^>]+>/g, ""),
            published: r.page_age ?? null,
          })),
        limit,
      );
    },
  };
}
