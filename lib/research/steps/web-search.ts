import { WebFetchError } from "@/lib/web/fetch";
import { fetchWebPage } from "@/lib/web/page";
import { WebSearchError } from "@/lib/web/providers";
import type { EvidencePassage } from "../citations";
import { pendingCard, type StepDefinition, StepError } from "../lifecycle";
import { clip, errorMessage } from "../step-kit";
import type { StepOf } from "../types";
import {
  arxivIdOf,
  WEB_TEXT_CHARS,
  type WebEvidence,
  type WebResearch,
  type WebSearchReason,
  type WebSource,
  webReasonAfterSearch,
  webReasonText,
} from "../web";
import { NO_PAPERS_HINT, NO_PAPERS_MESSAGE } from "./search-summaries";

declare module "@/lib/research/types" {
  interface StepDataByType {
    web_search: WebSearchData;
  }
}

export interface WebSearchData {
  /** False when the plan found the library's evidence enough and did not search the web. */
  ran: boolean;
  reason: WebSearchReason | null;
  /** Why it ran (or did not), in a sentence: the card says it. */
  why: string;
  provider: string;
  query: string | null;
  /** Results the provider returned. */
  results: number;
  /** The pages read, cited `[W1]`… */
  pages: WebSource[];
  /** Results not read, and why (robots.txt, not a public address, too large, not HTML…). */
  skipped: { url: string; reason: string }[];
  /** The provider failed. */
  error?: string;
}

export interface WebSearchInput {
  web: WebResearch;
  /** Decided before the library search (asked, recent work); null: decide from `passages`. */
  reason: WebSearchReason | null;
  /** The library's evidence, best first, with its calibrated relevance. */
  passages: (EvidencePassage & { relevance: number })[];
}

/** Why it ran, in the card's title. */
const SHORT_REASON: Record<WebSearchReason, string> = {
  asked: "you asked",
  recent: "recent work asked for",
  no_papers: "no papers in the library",
  weak_evidence: "the library's evidence is weak",
};

/** Results asked of the provider, and pages read at most. */
export const WEB_RESULTS = 8;
export const WEB_PAGES = 5;
const FETCH_CONCURRENCY = 3;
/** A page with less main text than this is not evidence (a login wall, a cookie notice). */
const MIN_PAGE_CHARS = 200;

/**
 * Web search, when the plan chooses it: the user asked, the question asks for recent work, or the library's evidence is
 * weak (no papers, a low calibrated relevance, or passages that never mention the question's subject). The provider
 * (SearXNG, Tavily or Brave) is sent the question; the best results are fetched under the safe-fetch rules
 * (lib/web/fetch.ts: public addresses only, robots.txt, size and time limits) and reduced to their main text. When the
 * plan did not need it, the card says why and nothing is sent anywhere.
 */
export const webSearchStep: StepDefinition<StepOf<"web_search">, WebSearchInput, WebEvidence[]> = {
  card: () =>
    pendingCard<StepOf<"web_search">>({ id: "web_search", type: "web_search", title: "Web search (if needed)" }),
  async run(ctx, { web, reason: planned, passages }) {
    const provider = web.config.provider;
    const best = passages.length > 0 ? Math.max(...passages.map((p) => p.relevance)) : null;
    const reason = planned ?? (web.mode === "auto" ? webReasonAfterSearch(ctx.question, passages) : null);
    const base = { provider: provider.name, results: 0, pages: [], skipped: [] };
    if (!reason) {
      const why = `The library's evidence is strong enough${best !== null ? ` (best passage relevance ${best.toFixed(2)})` : ""}; nothing was sent to the web.`;
      return {
        result: [],
        patch: {
          title: "Web search not needed",
          reasoning: why,
          data: { ...base, ran: false, reason: null, why, query: null },
        },
      };
    }
    const why = webReasonText(reason, best !== null ? `best passage relevance ${best.toFixed(2)}` : "");
    const query = clip(ctx.question, 300);
    ctx.progress({ title: `Searching the web with ${provider.name}`, reasoning: why, queries: [query] });
    let results: Awaited<ReturnType<typeof provider.search>>;
    try {
      results = await provider.search(query, { limit: WEB_RESULTS, signal: ctx.signal });
    } catch (e) {
      if (ctx.stopped()) throw e;
      const error = e instanceof WebSearchError ? e.message : `The web search failed: ${errorMessage(e)}`;
      if (passages.length === 0) {
        throw new StepError({ code: "no_papers", message: `${NO_PAPERS_MESSAGE} ${error}`, hint: NO_PAPERS_HINT });
      }
      ctx.warn(`Web search failed: ${error}`);
      return {
        result: [],
        patch: {
          title: `Web search failed (${SHORT_REASON[reason]}; ${provider.name})`,
          reasoning: `${why} ${error} The answer uses the library only.`,
          queries: [query],
          data: { ...base, ran: true, reason, why, query, error },
        },
      };
    }
    const candidates = results.slice(0, WEB_PAGES);
    ctx.progress({ title: `Reading ${candidates.length} web ${candidates.length === 1 ? "page" : "pages"}` });
    const read: ({ ok: true; text: string; title: string; finalUrl: string } | { ok: false; reason: string })[] = [];
    for (let i = 0; i < candidates.length; i += FETCH_CONCURRENCY) {
      const batch = candidates.slice(i, i + FETCH_CONCURRENCY);
      read.push(
        ...(await Promise.all(
          batch.map(async (r) => {
            try {
              const page = await fetchWebPage(r.url, web.config, web.robots, ctx.signal);
              if (page.text.length < MIN_PAGE_CHARS)
                return { ok: false as const, reason: "too little text on the page" };
              return { ok: true as const, text: page.text, title: page.title, finalUrl: page.finalUrl };
            } catch (e) {
              if (ctx.stopped()) throw e;
              return { ok: false as const, reason: e instanceof WebFetchError ? e.message : errorMessage(e) };
            }
          }),
        )),
      );
    }
    const evidence: WebEvidence[] = [];
    const skipped: WebSearchData["skipped"] = [];
    candidates.forEach((r, i) => {
      const got = read[i];
      if (!got?.ok) {
        skipped.push({ url: r.url, reason: got?.reason ?? "not read" });
        return;
      }
      const text = got.text.slice(0, WEB_TEXT_CHARS);
      evidence.push({
        id: `W${evidence.length + 1}`,
        url: r.url,
        title: clip(r.title || got.title, 200),
        site: new URL(r.url).host,
        excerpt: clip(r.snippet || text, 240),
        arxivId: arxivIdOf(r.url) ?? arxivIdOf(got.finalUrl),
        published: r.published,
        text,
      });
    });
    if (evidence.length === 0 && passages.length === 0) {
      throw new StepError({
        code: "no_papers",
        message: `${NO_PAPERS_MESSAGE} The web search found no page it could read either.`,
        hint: "Add papers about it to the library, or ask about what the library holds.",
      });
    }
    const pages: WebSource[] = evidence.map(({ text: _t, ...s }) => s);
    return {
      result: evidence,
      patch: {
        title:
          evidence.length > 0
            ? `Searched the web (${SHORT_REASON[reason]}): read ${evidence.length} ${evidence.length === 1 ? "page" : "pages"} via ${provider.name}`
            : `Searched the web (${SHORT_REASON[reason]}): no page to read (${provider.name})`,
        reasoning:
          `${why} Sent the question to ${provider.name}; read the top ${candidates.length} of ${results.length} results` +
          (skipped.length > 0 ? `, ${skipped.length} not read.` : ".") +
          (evidence.length > 0 ? " The answer may cite them as [W1]…" : ""),
        queries: [query],
        data: { ...base, ran: true, reason, why, query, results: results.length, pages, skipped },
      },
    };
  },
};
