import { recognizeGraphQuestion } from "@/lib/graph/question";
import { RetrievalCache } from "@/lib/search/search";
import type { ResearchDeps } from "./deps";
import { executeRun, type RunHooks } from "./lifecycle";
import { synthesisEvidence } from "./page-context";
import { toEvidence } from "./step-kit";
import { analysisStep } from "./steps/analysis";
import { expansionStep, startFeedbackSearch } from "./steps/expansion";
import { answerMarkdown, formattingStep } from "./steps/formatting";
import { graphSearchStep } from "./steps/graph-search";
import { modelRerankStep } from "./steps/model-rerank";
import { contentSearchStep } from "./steps/search-content";
import { summarySearchStep } from "./steps/search-summaries";
import { synthesisStep } from "./steps/synthesis";
import { verificationStep } from "./steps/verification";
import { webCitationsStep } from "./steps/web-citations";
import { webSearchStep } from "./steps/web-search";
import type { ResearchRunState } from "./types";
import { webReasonBeforeSearch, webSourcesMarkdown } from "./web";

/** Passages handed to synthesis. */
const EVIDENCE_PASSAGES = 12;

export interface QuickRunOptions {
  /** The user asked for web search (the form's toggle). Ignored when no provider is configured. */
  web?: boolean;
}

/**
 * A quick research run: analysis → (for a question about how works relate: knowledge-graph search) → query expansion →
 * summary search (the shortlist) → full-text search → (with a model: re-ranking of the passages by the model) → (with
 * a web search provider: web search, when the plan chooses it) → synthesis → verification → (web citations) →
 * references. Each step is a module of ./steps; the lifecycle
 * (./lifecycle.ts) emits the events, times the steps and turns failures, cancellation and timeouts into the run's
 * ending. Never throws for a research failure: the run ends with a `run_finished` event that says what happened.
 *
 * Web search is in the plan when it is asked for or the question asks for recent work, and — in `auto` mode
 * (LECTERN_WEB_SEARCH) — on every run, where its card says whether the library's evidence made it unnecessary.
 */
export function runResearch(
  deps: ResearchDeps,
  question: string,
  hooks: RunHooks,
  options: QuickRunOptions = {},
): Promise<ResearchRunState> {
  const web = deps.web ?? null;
  const webReason = web ? webReasonBeforeSearch(question, { asked: options.web === true, mode: web.mode }) : null;
  const webPlanned = web !== null && (web.mode === "auto" || webReason !== null);
  // the analysis step recognises the same question by the same rules and says so on its card
  const graphQuestion = recognizeGraphQuestion(question);
  const steps = [
    analysisStep,
    ...(graphQuestion ? [graphSearchStep] : []),
    expansionStep,
    summarySearchStep,
    contentSearchStep,
    ...(deps.chatModel ? [modelRerankStep] : []),
    ...(webPlanned ? [webSearchStep] : []),
    synthesisStep,
    verificationStep,
    ...(webPlanned ? [webCitationsStep] : []),
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
      const graph = graphQuestion ? await run.step(graphSearchStep, graphQuestion) : null;
      const queries = await run.step(expansionStep, { analysis, firstSearch, cache });
      // with the web search next, or relations from the graph in hand, a library search that finds nothing goes on
      const orElse = webPlanned ? "web" : graph && graph.edges.length > 0 ? "graph" : null;
      const papers = await run.step(summarySearchStep, { queries, cache, orElse });
      const passages = await run.step(contentSearchStep, { queries, papers, analysis, orElse });
      const chosen = deps.chatModel
        ? await run.step(modelRerankStep, { passages, keep: EVIDENCE_PASSAGES })
        : passages.slice(0, EVIDENCE_PASSAGES);
      const webPages =
        web && webPlanned
          ? await run.step(webSearchStep, {
              web,
              reason: webReason,
              passages: chosen.map((r) => ({ ...toEvidence(r), relevance: r.relevance })),
            })
          : [];
      // offline, the answer may quote any part of the best passages' pages (a model reads the passages it chose)
      const evidence = await synthesisEvidence(deps, chosen.map(toEvidence), run.warn);
      const body = await run.step(synthesisStep, { evidence, analysis, web: webPages, graph });
      const verified = await run.step(verificationStep, {
        body,
        evidence: graph ? [...graph.evidence, ...evidence] : evidence,
      });
      const webChecked = webPlanned
        ? await run.step(webCitationsStep, { body: verified.body, sources: webPages })
        : null;
      const references = await run.step(formattingStep, verified.citations);
      const markdown = [answerMarkdown(verified.body, references), webSourcesMarkdown(webChecked?.sources ?? [])]
        .filter(Boolean)
        .join("\n\n");
      return { markdown, citations: verified.citations, references };
    },
  });
}
