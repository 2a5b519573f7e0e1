import { type PaperResult, type RetrievalCache, searchSummaries } from "@/lib/search/search";
import { pendingCard, type StepDefinition, StepError } from "../lifecycle";
import { paperSource } from "../step-kit";
import type { SearchStepOf } from "../types";

export const SUMMARY_SEARCH = { k: 8, mmrAlpha: 0.5 } as const;

/** What a run says when no paper of the library is about its question (shown under the question, so not quoting it). */
export const NO_PAPERS_MESSAGE = "No paper in the library is about this question.";
/** What the reader can do about it. */
export const NO_PAPERS_HINT = "Try other words for the same topic, or add papers about it to the library.";

export interface SummarySearchInput {
  queries: string[];
  cache: RetrievalCache;
  /**
   * Where the run finds evidence when this search finds none: the web search that comes next, or the knowledge graph's
   * relations already found. Then finding nothing here does not end the run.
   */
  orElse?: Elsewhere | null;
}

export type Elsewhere = "web" | "graph";

/** What the card says when the library search found nothing but the run goes on. */
export const ELSEWHERE: Record<Elsewhere, string> = {
  web: "The web search looks further.",
  graph: "The answer rests on the knowledge graph's relations.",
};

/** Search of the summary index with every query (k = 8, MMR 0.5): the shortlist of papers for the full-text search. */
export const summarySearchStep: StepDefinition<SearchStepOf<"summaries">, SummarySearchInput, PaperResult[]> = {
  card: () =>
    pendingCard<SearchStepOf<"summaries">>({
      id: "search_summaries",
      type: "rag_search",
      stage: "summaries",
      title: "Searching paper summaries",
    }),
  async run(ctx, { queries, cache, orElse }) {
    ctx.progress({ title: `Searching paper summaries (${queries.length} queries)`, queries });
    const found = await searchSummaries(ctx.deps.db, queries, ctx.deps.embedder, { ...SUMMARY_SEARCH, cache });
    ctx.record(
      found.map((p, i) => ({
        chunkUid: p.passages[0]?.chunkUid ?? p.paperId,
        paperId: p.paperId,
        page: p.passages[0]?.pages[0] ?? null,
        stage: "summaries" as const,
        rank: i + 1,
        score: p.score,
      })),
    );
    if (found.length === 0 && orElse) {
      return {
        result: found,
        patch: {
          title: "No papers in the library match",
          reasoning: `${NO_PAPERS_MESSAGE} ${ELSEWHERE[orElse]}`,
          data: { papers: [] },
        },
      };
    }
    if (found.length === 0) {
      throw new StepError({ code: "no_papers", message: NO_PAPERS_MESSAGE, hint: NO_PAPERS_HINT });
    }
    return {
      result: found,
      patch: {
        title: `Found ${found.length} relevant ${found.length === 1 ? "paper" : "papers"}`,
        reasoning: `Searched the summary index (k = ${SUMMARY_SEARCH.k}, MMR ${SUMMARY_SEARCH.mmrAlpha}) with every query; these papers form the shortlist for the full-text search.`,
        sources: found.map(paperSource),
        confidence: Math.max(...found.map((p) => p.relevance)),
        data: { papers: found.map((p) => p.paperId) },
      },
    };
  },
};
