import type { LanguageModel } from "ai";
import { type Database, getDb } from "@/db";
import { getPapersByIds } from "@/db/queries/papers";
import type { RetrievedRecord } from "@/db/queries/research";
import { getChatModel } from "@/lib/ai/providers";
import { getEmbeddingProvider } from "@/lib/embeddings";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { getEnv } from "@/lib/env";
import { LecternError } from "@/lib/errors";
import { FACT_SEEKING } from "@/lib/search/intent";
import { parseQueries } from "@/lib/search/query";
import { prefetchRetrieval, RetrievalCache, searchContent, searchSummaries } from "@/lib/search/search";
import { analyzeWithLlm, analyzeWithRules, type QueryAnalysis, RULE_CONFIDENCE_THRESHOLD } from "./analysis";
import { judgeCitations, malformedCitations, parseCitations, verifyCitations } from "./citations";
import { feedbackTerms, llmExpansions, mergeQueries, ruleExpansions } from "./expansion";
import { buildReferences, formatReferences } from "./references";
import { type RerankedResult, rerank } from "./rerank";
import { errorMessage, paperSource, passageSource, pendingStep, toEvidence } from "./step-kit";
import { synthesizeExtractive, synthesizeWithLlm } from "./synthesis";
import {
  applyEvent,
  type Citation,
  type Reference,
  type ResearchError,
  type ResearchEvent,
  type ResearchRunState,
  type ResearchStep,
} from "./types";

export interface ResearchDeps {
  db: Database;
  embedder: EmbeddingProvider;
  /** null: offline mode (rules, library feedback, extractive synthesis, lexical verification). */
  chatModel: LanguageModel | null;
  /** Each model call is abandoned after this long (and its step falls back to the offline path). */
  llmTimeoutMs: number;
  /** The whole run is stopped after this long. */
  runTimeoutMs: number;
}

export async function getResearchDeps(): Promise<ResearchDeps> {
  const env = getEnv();
  return {
    db: await getDb(),
    embedder: getEmbeddingProvider(env),
    chatModel: getChatModel(env),
    llmTimeoutMs: env.LECTERN_LLM_TIMEOUT_MS,
    runTimeoutMs: env.LECTERN_RESEARCH_TIMEOUT_MS,
  };
}

export const SUMMARY_SEARCH = { k: 8, mmrAlpha: 0.5 } as const;
export const CONTENT_SEARCH = { k: 15, mmrAlpha: 0.6 } as const;
/** Passages handed to synthesis. */
const EVIDENCE_PASSAGES = 12;

/** Whether the question passes query validation (the analysis step reports why when it does not). */
function validQuestion(question: string): boolean {
  try {
    parseQueries(question);
    return true;
  } catch {
    return false;
  }
}

export function noPapersMessage(question: string): string {
  return `No papers found relevant to query: "${question}". Try refining your search terms.`;
}
export const NO_CONTENT_MESSAGE =
  "No detailed content found in the selected papers. Papers may not be properly indexed.";
export const REBUILD_HINT =
  "Rebuild the search index with `npm run cli -- reembed`, or re-upload the papers from the library.";

/** An error that ends the run with a research error (the step that threw is marked failed with it). */
export class ResearchStepError extends Error {
  constructor(readonly detail: ResearchError) {
    super(detail.message);
  }
}

function modelIdOf(model: LanguageModel): string {
  return typeof model === "string" ? model : model.modelId;
}

function plan(): ResearchStep[] {
  return [
    pendingStep("analysis", "analysis", "Analyzing the question"),
    pendingStep("query_expansion", "query_expansion", "Expanding the search queries"),
    pendingStep("search_summaries", "rag_search", "Searching paper summaries", "summaries"),
    pendingStep("search_content", "rag_search", "Searching full text", "content"),
    pendingStep("synthesis", "synthesis", "Writing the answer"),
    pendingStep("verification", "verification", "Verifying citations"),
    pendingStep("formatting", "formatting", "Formatting references"),
  ];
}

/** A signal that aborts with the parent or after `ms`, whichever is first. */
function withTimeout(parent: AbortSignal, ms: number): AbortSignal {
  return AbortSignal.any([parent, AbortSignal.timeout(ms)]);
}

export interface RunOptions {
  runId: string;
  signal?: AbortSignal;
  onEvent: (event: ResearchEvent) => void;
  /** Called with what the searches returned (for evaluation), whenever it grows. */
  onRetrieved?: (records: RetrievedRecord[]) => void;
}

/**
 * Runs the research plan for one question, emitting an event at every change. Never throws for a research failure:
 * the run ends with a `run_finished` event whose status and error say what happened. Resolves to the final state.
 */
export async function runResearch(deps: ResearchDeps, question: string, opts: RunOptions): Promise<ResearchRunState> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const parent = opts.signal ?? new AbortController().signal;
  const runTimeout = AbortSignal.timeout(deps.runTimeoutMs);
  const signal = AbortSignal.any([parent, runTimeout]);
  const steps = plan();
  let state: ResearchRunState | null = null;
  const emit = (e: ResearchEvent) => {
    state = applyEvent(state, e);
    opts.onEvent(e);
  };
  const mode = deps.chatModel ? "llm" : "offline";
  emit({
    kind: "run_started",
    runId: opts.runId,
    question,
    mode,
    model: deps.chatModel ? modelIdOf(deps.chatModel) : "extractive",
    startedAt,
    steps: steps.map((s) => ({ ...s })),
  });

  const current = new Map(steps.map((s) => [s.id, s]));
  const update = (id: string, patch: Partial<ResearchStep>) => {
    const prev = current.get(id);
    if (!prev) return;
    const next = { ...prev, ...patch };
    current.set(id, next);
    emit({ kind: "step", step: next });
  };
  /** Runs one step: in_progress, then completed with what `fn` returns, or failed with its error. */
  const runStep = async <T>(
    id: string,
    fn: (progress: (patch: Partial<ResearchStep>) => void) => Promise<{ result: T; patch: Partial<ResearchStep> }>,
  ): Promise<T> => {
    const t0 = performance.now();
    update(id, { status: "in_progress", startedAt: new Date().toISOString() });
    try {
      signal.throwIfAborted();
      const { result, patch } = await fn((p) => update(id, p));
      signal.throwIfAborted();
      update(id, { ...patch, status: "completed", durationMs: Math.round(performance.now() - t0) });
      return result;
    } catch (e) {
      const error = toResearchError(e);
      update(id, { status: "failed", durationMs: Math.round(performance.now() - t0), error });
      throw new ResearchStepError(error);
    }
  };
  const toResearchError = (e: unknown): ResearchError => {
    if (e instanceof ResearchStepError) return e.detail;
    if (parent.aborted) return { code: "cancelled", message: "The research run was cancelled." };
    if (runTimeout.aborted) {
      return {
        code: "timeout",
        message: `The research run took longer than ${Math.round(deps.runTimeoutMs / 1000)} s and was stopped.`,
        hint: "Ask a narrower question, or raise LECTERN_RESEARCH_TIMEOUT_MS.",
      };
    }
    if (e instanceof LecternError && e.kind === "bad_request") return { code: "bad_request", message: e.message };
    return { code: "internal", message: errorMessage(e) };
  };
  const warnings: string[] = [];
  const retrieved: RetrievedRecord[] = [];
  const llm = deps.chatModel;

  // Every search of the run shares one retrieval cache, so queries searched ahead of time are not searched again.
  const cache = new RetrievalCache();
  /** A search started ahead of its step; its failure surfaces (and is handled) when the step awaits it. */
  const ahead = <T>(p: Promise<T>): Promise<T> => {
    p.catch(() => {});
    return p;
  };

  try {
    // validates the question (empty, too long, no words): a clear bad_request, before any work
    // Pseudo-relevance feedback needs a first search with the question alone. It starts now, so it runs while the
    // model (when one is configured and the rules are unsure) classifies the question.
    const firstSearch = ahead(
      validQuestion(question)
        ? searchContent(deps.db, question, deps.embedder, {
            k: 5,
            mmrAlpha: 1,
            retriever: "fts",
            candidates: 20,
          })
        : Promise.resolve([]),
    );
    const analysis = await runStep("analysis", async () => {
      parseQueries(question);
      let a: QueryAnalysis = analyzeWithRules(question);
      let note = "";
      if (llm && a.confidence < RULE_CONFIDENCE_THRESHOLD) {
        try {
          a = await analyzeWithLlm(llm, question, { signal: withTimeout(signal, deps.llmTimeoutMs) });
        } catch (e) {
          if (signal.aborted) throw e;
          note = ` The model could not classify it (${errorMessage(e)}); the rules' answer stands.`;
          warnings.push(`Query analysis fell back to rules: ${errorMessage(e)}`);
        }
      }
      return {
        result: a,
        patch: {
          title: `Analyzed the question: ${a.intent} (${Math.round(a.confidence * 100)}% confidence)`,
          reasoning: a.reasoning + note,
          confidence: a.confidence,
          data: { intent: a.intent, keywords: a.keywords, method: a.method },
        },
      };
    });

    // ends the model's expansion call when the step fails for another reason (e.g. the feedback search)
    const expansionCall = new AbortController();
    const queries = await runStep("query_expansion", async () => {
      const rules = ruleExpansions(question, analysis);
      // the model's expansions and the library's feedback are independent: both run at once
      const fromModel = llm
        ? ahead(
            llmExpansions(llm, question, analysis, {
              signal: AbortSignal.any([withTimeout(signal, deps.llmTimeoutMs), expansionCall.signal]),
            }),
          )
        : null;
      // pseudo-relevance feedback: the library's own words, from the top passages of a first search
      // full text only: the feedback is lexical anyway, and this skips embedding the question twice
      const first = await firstSearch;
      const prf = feedbackTerms(
        question,
        first.map((r) => r.text),
      );
      const prfQuery = prf.length > 0 ? `${analysis.keywords.slice(0, 4).join(" ")} ${prf.join(" ")}` : "";
      let fromLlm: string[] = [];
      let note = "";
      if (fromModel) {
        // while the model writes its queries, the summary index is searched with the ones already known
        const known = mergeQueries(question, [rules, prfQuery ? [prfQuery] : []]);
        // (not awaited: the summary search waits for whatever is still in flight, and redoes what failed)
        ahead(prefetchRetrieval(deps.db, "summaries", known, deps.embedder, { ...SUMMARY_SEARCH, cache }));
        try {
          fromLlm = await fromModel;
        } catch (e) {
          if (signal.aborted) throw e;
          note = ` The model's expansions failed (${errorMessage(e)}).`;
          warnings.push(`Query expansion without the model: ${errorMessage(e)}`);
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
    }).finally(() => expansionCall.abort());

    const papers = await runStep("search_summaries", async (progress) => {
      progress({ title: `Searching paper summaries (${queries.length} queries)`, queries });
      const found = await searchSummaries(deps.db, queries, deps.embedder, { ...SUMMARY_SEARCH, cache });
      retrieved.push(
        ...found.map((p, i) => ({
          chunkUid: p.passages[0]?.chunkUid ?? p.paperId,
          paperId: p.paperId,
          page: p.passages[0]?.pages[0] ?? null,
          stage: "summaries" as const,
          rank: i + 1,
          score: p.score,
        })),
      );
      opts.onRetrieved?.([...retrieved]);
      if (found.length === 0) {
        throw new ResearchStepError({ code: "no_papers", message: noPapersMessage(question) });
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
    });

    const evidenceResults = await runStep("search_content", async (progress) => {
      progress({ title: `Searching knowledge base (${queries.length} queries, ${papers.length} papers)`, queries });
      const found = await searchContent(deps.db, queries, deps.embedder, {
        ...CONTENT_SEARCH,
        paperIds: papers.map((p) => p.paperId),
        // every query, expansions included, gets the best-sentence ranking when the question asks for a fact — as the
        // analysis (the rules, or the model) saw it
        sentenceRanking: FACT_SEEKING.has(analysis.intent),
      });
      if (found.length === 0) {
        throw new ResearchStepError({ code: "no_content", message: NO_CONTENT_MESSAGE, hint: REBUILD_HINT });
      }
      const ranked: RerankedResult[] = rerank(found, { intent: analysis.intent, keywords: analysis.keywords });
      retrieved.push(
        ...ranked.map((r, i) => ({
          chunkUid: r.chunkUid,
          paperId: r.paperId,
          page: r.page,
          stage: "content" as const,
          rank: i + 1,
          score: r.rerankScore,
        })),
      );
      opts.onRetrieved?.([...retrieved]);
      return {
        result: ranked,
        patch: {
          title: `Found ${ranked.length} passages in ${new Set(ranked.map((r) => r.paperId)).size} papers`,
          reasoning:
            `Searched the full text of the shortlisted papers with all ${queries.length} queries fused ` +
            `(k = ${CONTENT_SEARCH.k}, MMR ${CONTENT_SEARCH.mmrAlpha}), then re-ranked by keyword coverage` +
            (analysis.intent === "performance"
              ? " and numbers (a performance question)."
              : analysis.intent === "comparison"
                ? " and comparative wording (a comparison)."
                : "."),
          sources: ranked.map(passageSource),
          confidence: Math.max(...ranked.map((r) => r.relevance)),
          data: { passages: ranked.length },
        },
      };
    });
    const evidence = evidenceResults.slice(0, EVIDENCE_PASSAGES).map(toEvidence);

    const body = await runStep("synthesis", async (progress) => {
      const offline = () => synthesizeExtractive(question, evidence, analysis);
      if (llm) {
        progress({ title: `Writing the answer with ${modelIdOf(llm)}` });
        let streamed = "";
        try {
          const text = await synthesizeWithLlm(llm, question, evidence, {
            signal: withTimeout(signal, deps.llmTimeoutMs),
            onDelta: (t) => {
              streamed += t;
              emit({ kind: "answer_delta", text: t });
            },
          });
          return {
            result: text,
            patch: {
              title: "Wrote the answer",
              reasoning: `${modelIdOf(llm)} wrote the answer from ${evidence.length} passages, told to use nothing else and to cite every sentence.`,
              data: { method: "llm", model: modelIdOf(llm), evidence: evidence.length },
            },
          };
        } catch (e) {
          if (parent.aborted || runTimeout.aborted) throw e;
          const message = `Failed to synthesize research answer: ${errorMessage(e)}`;
          warnings.push(`${message}. Showing the offline extractive answer instead.`);
          const text = offline();
          if (!text) throw new ResearchStepError({ code: "synthesis_failed", message });
          // the deltas so far are replaced by the fallback: the client resets on a `answer_delta` after a reset marker
          if (streamed) emit({ kind: "answer_delta", text: "\n\n---\n\n" });
          emit({ kind: "answer_delta", text });
          return {
            result: text,
            patch: {
              title: "Wrote an extractive answer (the model failed)",
              reasoning: `${message}. The answer below quotes the evidence instead.`,
              data: { method: "extractive", fallback: true, modelError: errorMessage(e), evidence: evidence.length },
            },
          };
        }
      }
      const text = offline();
      if (!text) {
        throw new ResearchStepError({
          code: "synthesis_failed",
          message:
            "Failed to synthesize research answer: no sentence of the retrieved passages addresses the question.",
        });
      }
      // the extractive answer arrives section by section
      for (const part of text.split(/(?=\n\n## )/)) emit({ kind: "answer_delta", text: part });
      return {
        result: text,
        patch: {
          title: "Composed an extractive answer",
          reasoning: `Offline mode: the answer quotes the ${text.split(/\[[^\]]+, page \d+\]/).length - 1} evidence sentences that best cover the question, each cited to its paper and page.`,
          data: { method: "extractive", evidence: evidence.length },
        },
      };
    });

    const citations = await runStep("verification", async () => {
      const malformed = malformedCitations(body);
      if (malformed.length > 0) {
        warnings.push(`Some citations could not be read and were left as written: ${malformed.slice(0, 5).join(", ")}`);
      }
      let checked: Citation[] = verifyCitations(body, evidence);
      let method = "lexical";
      if (checked.length === 0 && parseCitations(body).length === 0) {
        warnings.push("The answer carries no citations; treat it with care.");
      }
      if (llm && checked.some((c) => c.chunkUid)) {
        try {
          checked = await judgeCitations(llm, checked, evidence, { signal: withTimeout(signal, deps.llmTimeoutMs) });
          method = "llm";
        } catch (e) {
          if (signal.aborted) throw e;
          warnings.push(`The model could not judge the citations (${errorMessage(e)}); the lexical check stands.`);
        }
      }
      const supported = checked.filter((c) => c.supported).length;
      const unsupported = checked.length - supported;
      return {
        result: checked,
        patch: {
          title: `Verified ${checked.length} ${checked.length === 1 ? "citation" : "citations"}: ${supported} supported`,
          reasoning:
            (method === "llm"
              ? "Each cited sentence was resolved to its retrieved passage and judged by the model."
              : "Each cited sentence was resolved to its retrieved passage and checked word by word against it.") +
            (unsupported > 0
              ? ` ${unsupported} ${unsupported === 1 ? "claim is" : "claims are"} flagged as unsupported.`
              : ""),
          confidence: checked.length > 0 ? supported / checked.length : null,
          data: { total: checked.length, supported, unsupported, method },
        },
      };
    });

    const references = await runStep("formatting", async () => {
      const cited = [...new Set(citations.map((c) => c.paperId))];
      const rows = await getPapersByIds(deps.db, { ids: cited });
      const refs: Reference[] = buildReferences(
        rows.map((p) => ({
          id: p.id,
          title: p.title,
          authors: p.authors,
          arxivId: p.arxivId,
          publishedDate: p.publishedDate,
          year: p.year,
          doi: p.doi,
        })),
      );
      return {
        result: refs,
        patch: {
          title: `Listed ${refs.length} ${refs.length === 1 ? "reference" : "references"}`,
          reasoning: "References sorted by arXiv id, with authors, date and DOI when known.",
          data: { citedPaperIds: refs.map((r) => r.paperId) },
        },
      };
    });

    const markdown = [body.trim(), formatReferences(references)].filter(Boolean).join("\n\n");
    emit({ kind: "answer", markdown, citations, references, warnings: [...warnings] });
    emit({ kind: "run_finished", status: "completed", durationMs: Math.round(performance.now() - started) });
  } catch (e) {
    const error = toResearchError(e);
    emit({
      kind: "run_finished",
      status: error.code === "cancelled" ? "cancelled" : "failed",
      durationMs: Math.round(performance.now() - started),
      error,
    });
  }
  return state as unknown as ResearchRunState;
}
