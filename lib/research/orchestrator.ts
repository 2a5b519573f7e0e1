import { RetrievalCache } from "@/lib/search/search";
import type { ResearchDeps } from "./deps";
import { executeRun, type RunHooks } from "./lifecycle";
import { toEvidence } from "./step-kit";
import { analysisStep } from "./steps/analysis";
import { expansionStep, startFeedbackSearch } from "./steps/expansion";
import { answerMarkdown, formattingStep } from "./steps/formatting";
import { modelRerankStep } from "./steps/model-rerank";
import { contentSearchStep } from "./steps/search-content";
import { summarySearchStep } from "./steps/search-summaries";
import { synthesisStep } from "./steps/synthesis";
import { verificationStep } from "./steps/verification";
import type { ResearchRunState } from "./types";

/** Passages handed to synthesis. */
const EVIDENCE_PASSAGES = 12;

/**
 * A quick research run: analysis → query expansion → summary search (the shortlist) → full-text search → (with a
 * model: re-ranking of the passages by the model) → synthesis → verification → references. Each step is a module of ./steps; the lifecycle (./lifecycle.ts) emits
 * the events, times the steps and turns failures, cancellation and timeouts into the run's ending. Never throws for
 * a research failure: the run ends with a `run_finished` event that says what happened.
 */
export function runResearch(deps: ResearchDeps, question: string, hooks: RunHooks): Promise<ResearchRunState> {
  const steps = [
    analysisStep,
    expansionStep,
    summarySearchStep,
    contentSearchStep,
    ...(deps.chatModel ? [modelRerankStep] : []),
    synthesisStep,
    verificationStep,
    formattingStep,
  ];
  return executeRun(deps, question, hooks, {
    plan: steps.map((s) => s.card()),
    timeoutHint: "Ask a narrower question, or raise LECTERN_RESEARCH_TIMEOUT_MS.",
    async body(run) {
      // every search of the run shares one retrieval cache, so queries searched ahead of time are not searched again
      const cache = new RetrievalCache();
      const firstSearch = startFeedbackSearch(deps, question);
      const analysis = await run.step(analysisStep, undefined);
      const queries = await run.step(expansionStep, { analysis, firstSearch, cache });
      const papers = await run.step(summarySearchStep, { queries, cache });
      const passages = await run.step(contentSearchStep, { queries, papers, analysis });
      const chosen = deps.chatModel
        ? await run.step(modelRerankStep, { passages, keep: EVIDENCE_PASSAGES })
        : passages.slice(0, EVIDENCE_PASSAGES);
      const evidence = chosen.map(toEvidence);
      const body = await run.step(synthesisStep, { evidence, analysis });
      const verified = await run.step(verificationStep, { body, evidence });
      const references = await run.step(formattingStep, verified.citations);
      return { markdown: answerMarkdown(verified.body, references), citations: verified.citations, references };
    },
  });
}
