import { hasSearchableChunks } from "@/db/queries/search";
import { FACT_SEEKING } from "@/lib/search/intent";
import { type PaperResult, searchContent, searchedRespelled } from "@/lib/search/search";
import type { QueryAnalysis } from "../analysis";
import { pendingCard, type StepDefinition, StepError } from "../lifecycle";
import { type RerankedResult, rerank } from "../rerank";
import { passageSource } from "../step-kit";
import type { SearchStepOf } from "../types";
import { ELSEWHERE, type Elsewhere } from "./search-summaries";

export const CONTENT_SEARCH = { k: 15, mmrAlpha: 0.6 } as const;
export const NO_CONTENT_MESSAGE =
  "No detailed content found in the selected papers. Papers may not be properly indexed.";
export const REBUILD_HINT =
  "Rebuild the search index with `npm run cli -- reembed`, or re-upload the papers from the library.";
/** The papers are indexed, but none of their passages matches the question well enough to quote. */
export const NO_MATCH_MESSAGE =
  "No passage of the shortlisted papers matches the question closely enough: the library may not hold an answer.";
export const NO_MATCH_HINT =
  "Check the spelling of the question's terms, or ask with the words the papers use (names, methods, datasets).";

export interface ContentSearchInput {
  queries: string[];
  papers: PaperResult[];
  analysis: QueryAnalysis;
  /** Where the run finds evidence when this search finds none (then finding nothing does not end the run). */
  orElse?: Elsewhere | null;
}

/**
 * Search of the full text of the shortlisted papers with all queries fused (k = 15, MMR 0.6), re-ranked by keyword
 * coverage and the intent (numbers for performance questions).
 */
function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

export const contentSearchStep: StepDefinition<SearchStepOf<"content">, ContentSearchInput, RerankedResult[]> = {
  card: () =>
    pendingCard<SearchStepOf<"content">>({
      id: "search_content",
      type: "rag_search",
      stage: "content",
      title: "Searching full text",
    }),
  async run(ctx, { queries, papers, analysis, orElse }) {
    if (papers.length === 0 && orElse) {
      return {
        result: [],
        patch: {
          title: "No papers to search",
          reasoning: `The summary search found no paper. ${ELSEWHERE[orElse]}`,
          data: { passages: 0 },
        },
      };
    }
    ctx.progress({ title: `Searching knowledge base (${queries.length} queries, ${papers.length} papers)`, queries });
    const found = await searchContent(ctx.deps.db, queries, ctx.deps.embedder, {
      ...CONTENT_SEARCH,
      paperIds: papers.map((p) => p.paperId),
      // every query, expansions included, gets the best-sentence ranking when the question asks for a fact — as the
      // analysis (the rules, or the model) saw it
      sentenceRanking: FACT_SEEKING.has(analysis.intent),
    });
    // nothing found: the shortlisted papers have no searchable text (an index problem worth saying, even if the web
    // answers), or they have and none of it matches the question well enough (its words are not the papers')
    const indexed =
      found.length > 0 || (await hasSearchableChunks(ctx.deps.db, { paperIds: papers.map((p) => p.paperId) }));
    const [message, hint] = indexed ? [NO_MATCH_MESSAGE, NO_MATCH_HINT] : [NO_CONTENT_MESSAGE, REBUILD_HINT];
    if (found.length === 0 && orElse) {
      if (!indexed) ctx.warn(`${message} ${hint}`);
      return {
        result: [],
        patch: {
          title: "No passages found",
          reasoning: `${message} ${ELSEWHERE[orElse]}`,
          data: { passages: 0 },
        },
      };
    }
    if (found.length === 0) {
      throw new StepError({ code: "no_content", message, hint });
    }
    const ranked = rerank(found, { intent: analysis.intent, keywords: analysis.keywords });
    // words of the queries the search looked for under another spelling, said on the card
    const respelled = await searchedRespelled(ctx.deps.db, queries);
    const respelling =
      respelled.length > 0
        ? ` Searched ${respelled.map((r) => `“${r.written}” as “${r.searched}”`).join(", ")}: not in the library as typed.`
        : "";
    ctx.record(
      ranked.map((r, i) => ({
        chunkUid: r.chunkUid,
        paperId: r.paperId,
        page: r.page,
        stage: "content" as const,
        rank: i + 1,
        score: r.rerankScore,
      })),
    );
    return {
      result: ranked,
      patch: {
        title: `Found ${plural(ranked.length, "passage")} in ${plural(new Set(ranked.map((r) => r.paperId)).size, "paper")}`,
        reasoning:
          `Searched the full text of the shortlisted papers with all ${queries.length} queries fused ` +
          `(k = ${CONTENT_SEARCH.k}, MMR ${CONTENT_SEARCH.mmrAlpha}), then re-ranked by keyword coverage` +
          (analysis.intent === "performance"
            ? " and numbers (a performance question)."
            : analysis.intent === "comparison"
              ? " and comparative wording (a comparison)."
              : ".") +
          respelling,
        sources: ranked.map(passageSource),
        confidence: Math.max(...ranked.map((r) => r.relevance)),
        data: { passages: ranked.length },
      },
    };
  },
};
