import { parseQueries } from "@/lib/search/query";
import { type ContentResult, prefetchRetrieval, type RetrievalCache, searchContent } from "@/lib/search/search";
import type { QueryAnalysis } from "../analysis";
import type { ResearchDeps } from "../deps";
import { feedbackTerms, llmExpansions, mergeQueries, ruleExpansions } from "../expansion";
import { pendingCard, type StepDefinition } from "../lifecycle";
import { errorMessage } from "../step-kit";
import type { StepOf } from "../types";
import { SUMMARY_SEARCH } from "./search-summaries";

/**
 * Pseudo-relevance feedback needs a first search with the question alone. The runner starts it before the analysis,
 * so it runs while the model (when one is configured and the rules are unsure) classifies the question. Full text
 * only: the feedback is lexical anyway, and this skips embedding the question twice. A question that cannot be
 * searched gets no first search (the analysis step refuses it).
 */
export function startFeedbackSearch(deps: ResearchDeps, question: string): Promise<ContentResult[]> {
  let valid = true;
  try {
    parseQueries(question);
  } catch {
    valid = false;
  }
  return ahead(
    valid
      ? searchContent(deps.db, question, deps.embedder, { k: 5, mmrAlpha: 1, retriever: "fts", candidates: 20 })
      : Promise.resolve([]),
  );
}

/** A promise started ahead of the step that awaits it: its failure surfaces (and is handled) there. */
export function ahead<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

export interface ExpansionInput {
  analysis: QueryAnalysis;
  firstSearch: Promise<ContentResult[]>;
  /** The run's retrieval cache: the summary index is searched ahead with the queries known while the model writes. */
  cache: RetrievalCache;
}

/**
 * Query expansion: at most 6 queries — the question, rule-based expansions for the intent, terms from the library's
 * own top passages (pseudo-relevance feedback), and the model's rewrites when one is configured.
 */
export const expansionStep: StepDefinition<StepOf<"query_expansion">, ExpansionInput, string[]> = {
  card: () =>
    pendingCard<StepOf<"query_expansion">>({
      id: "query_expansion",
      type: "query_expansion",
      title: "Expanding the search queries",
    }),
  async run(ctx, { analysis, firstSearch, cache }) {
    const { deps, question, llm } = ctx;
    const rules = ruleExpansions(question, analysis);
    // ends the model's call when the step fails for another reason (e.g. the feedback search)
    const done = new AbortController();
    try {
      // the model's expansions and the library's feedback are independent: both run at once
      const fromModel = llm
        ? ahead(llmExpansions(llm, question, analysis, { signal: AbortSignal.any([ctx.callSignal(), done.signal]) }))
        : null;
      const first = await firstSearch;
      const prf = feedbackTerms(
        question,
        first.map((r) => r.text),
      );
      const prfQuery = prf.length > 0 ? `${analysis.keywords.slice(0, 4).join(" ")} ${prf.join(" ")}` : "";
      let fromLlm: string[] = [];
      let note = "";
      if (fromModel) {
        // while the model writes its queries, the summary index is searched with the ones already known (not
        // awaited: the summary search waits for whatever is still in flight, and redoes what failed)
        const known = mergeQueries(question, [rules, prfQuery ? [prfQuery] : []]);
        ahead(prefetchRetrieval(deps.db, "summaries", known, deps.embedder, { ...SUMMARY_SEARCH, cache }));
        try {
          fromLlm = await fromModel;
        } catch (e) {
          if (ctx.stopped()) throw e;
          note = ` The model's expansions failed (${errorMessage(e)}).`;
          ctx.warn(`Query expansion without the model: ${errorMessage(e)}`);
        }
      }
      const merged = mergeQueries(question, [fromLlm, rules, prfQuery ? [prfQuery] : []]);
      return {
        result: merged,
        patch: {
          title: `Expanded into ${merged.length} ${merged.length === 1 ? "query" : "queries"}`,
          queries: merged,
          reasoning:
            `Rule-based expansions for a ${analysis.intent} question` +
            (prf.length > 0 ? `; terms from the library's top passages: ${prf.join(", ")}` : "") +
            (fromLlm.length > 0 ? `; ${fromLlm.length} from the model` : "") +
            `.${note}`,
          data: { rules, feedbackTerms: prf, llm: fromLlm },
        },
      };
    } finally {
      done.abort();
    }
  },
};
