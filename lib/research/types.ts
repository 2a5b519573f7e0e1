/**
 * The research run's vocabulary, shared by the orchestrator, the stream to the browser, the database, the UI and the
 * CLI's JSON. Everything here is plain JSON (no Dates, no Maps) so an event can be streamed, stored and replayed as is.
 *
 * A step is one member of the `ResearchStep` union, discriminated by `type`, with its own typed `data`. A new kind of
 * step adds its data type to `StepDataByType` — from its own module, by declaration merging:
 *
 *   declare module "@/lib/research/types" { interface StepDataByType { graph: { edges: number } } }
 *
 * and the union, the stream, the stored rows and the UI (a generic card until it has its own) all know it.
 * docs/architecture.md, "How to add a step", walks through it.
 */

import type { ErrorCode } from "@/lib/errors";
import type { Intent } from "@/lib/search/intent";
import type { ClarifyingAnswer, Outline } from "./deep/types";

export type { Intent };

/**
 * A step's life: `pending` in the plan, then `in_progress`, then `completed` or `failed` — or `skipped` when the run
 * ended (failed, declined, cancelled, interrupted) before it reached the step.
 */
export const STEP_STATUSES = ["pending", "in_progress", "completed", "failed", "skipped"] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** What a search step searches: the summary index, the full text of the shortlist, or one deep-research point. */
export type SearchStage = "summaries" | "content" | "point";

/** A source shown on a step card as a chip: a paper (summary search) or a passage (content search). */
export interface StepSource {
  /** Chunk uid for passages, paper id for papers. */
  id: string;
  type: "paper" | "passage";
  title: string;
  paperId: string;
  /** Page of the passage; for a paper, the page of its best summary passage when known. */
  page: number | null;
  excerpt: string;
  /** Calibrated relevance in [0, 1] (lib/search `relevance`). */
  similarity: number;
  /** Character range of the passage on its page, for the highlight. */
  charStart?: number;
  charEnd?: number;
  /** The section of the paper the passage is in ("4 Methodology › 4.2 Crawler"), when its headings were found. */
  section?: string;
}

// ---- step data, one type per kind ----

export interface AnalysisData {
  intent: Intent;
  keywords: string[];
  /** Who classified the question: the rules, or the model (when the rules were unsure). */
  method: "rules" | "llm";
  /** What the question asks of the knowledge graph ("what improves on BERT"); absent when it asks nothing of it. */
  graphQuestion?: string;
}

export interface OutlineStepData {
  outline: Outline;
  /** The "improve: …" feedback this version was made with. */
  feedback: string | null;
}

export interface ExpansionData {
  /** Rule-based expansions for the intent. */
  rules: string[];
  /** Pseudo-relevance feedback terms from the library's top passages. */
  feedbackTerms: string[];
  /** The model's rewrites (empty offline). */
  llm: string[];
}

/** A search step's data, by what it searched. */
export interface SearchDataByStage {
  /** The summary index: the shortlist of papers. */
  summaries: { papers: string[] };
  /** The full text of the shortlisted papers. */
  content: { passages: number };
  /** Deep research: one knowledge point's search (its id, candidates found, passages kept). */
  point: { point: string; candidates: number; kept: number };
}

export interface SynthesisData {
  /** How the text was written: by the model, or quoted from the evidence. */
  method: "llm" | "extractive";
  /** Passages the text was written from (the retrieved ones, and the web pages). */
  evidence: number;
  /** Offline: other passages of the best passages' pages the answer could quote from (lib/research/page-context.ts). */
  pageContext?: number;
  model?: string;
  /** True when the model failed and the extractive text stands in for it. */
  fallback?: boolean;
  modelError?: string;
}

export interface FramingData {
  /** Knowledge points with evidence, named in the introduction. */
  topics: number;
}

export interface VerificationData {
  total: number;
  supported: number;
  unsupported: number;
  /** Word overlap offline; the model as a judge when configured. */
  method: "lexical" | "llm";
  /** Relevance to the question of the citations kept (absent on runs made before it was judged). */
  relevant?: number;
  partly?: number;
  /** Off-topic sentences dropped from the answer. */
  offTopic?: number;
}

export interface FormattingData {
  citedPaperIds: string[];
}

/**
 * Each kind of step and the data it carries once it has run. Extended by declaration merging (see the top of this
 * file): a key added here is a new member of `ResearchStep`.
 */
export interface StepDataByType {
  analysis: AnalysisData;
  outline: OutlineStepData;
  query_expansion: ExpansionData;
  rag_search: SearchDataByStage[SearchStage];
  synthesis: SynthesisData;
  framing: FramingData;
  verification: VerificationData;
  formatting: FormattingData;
}

export type StepType = keyof StepDataByType;

/** What every step has, whatever its kind. */
export interface StepBase {
  /** Stable within a run: `analysis`, `query_expansion`, `search_summaries`, `point_p1`, … */
  id: string;
  status: StepStatus;
  title: string;
  /** ISO time the step started; null while pending. */
  startedAt: string | null;
  durationMs: number | null;
  reasoning: string;
  queries: string[];
  sources: StepSource[];
  /** In [0, 1] when the step has a notion of it (analysis: intent confidence; verification: supported share). */
  confidence: number | null;
  /** Set when status is `failed`. */
  error?: ResearchError;
}

/** A search step of one stage: its stage is known from the plan, its data typed by it. */
export type SearchStepOf<S extends SearchStage> = StepBase & {
  type: "rag_search";
  stage: S;
  data: SearchDataByStage[S] | null;
};

/** A step of kind `K`: its data is null until the step has produced it. */
export type StepOf<K extends StepType> = K extends "rag_search"
  ? { [S in SearchStage]: SearchStepOf<S> }[SearchStage]
  : StepBase & { type: K; data: StepDataByType[K] | null };

/** One step of a run, discriminated by `type` (and a search step by `stage`). */
export type ResearchStep = { [K in StepType]: StepOf<K> }[StepType];

/** What a step may change while it runs or when it ends: everything but its identity, kind and stage. */
export type StepPatch<S extends ResearchStep> = Partial<Omit<S, "id" | "type" | "stage">>;

// ---- errors, answers ----

export type ResearchErrorCode =
  | "no_papers"
  | "no_content"
  /** The passages found never mention what the question is specifically about (lib/research/compose.ts). */
  | "no_answer"
  | "synthesis_failed"
  | "citation_warning"
  | "timeout"
  | "cancelled"
  | "interrupted"
  | "bad_request"
  | "internal";

export interface ResearchError {
  code: ResearchErrorCode;
  message: string;
  /** What the user can do about it (e.g. the command that rebuilds the index). */
  hint?: string;
}

/** One `[PAPER_ID, page N]` in the answer, resolved and checked. */
/** Does a cited claim bear on what was asked (lib/research/relevance.ts)? */
export type Relevance = "relevant" | "partly" | "off_topic";

export interface Citation {
  /** 1-based order of first appearance in the answer. */
  index: number;
  /** As written in the answer, e.g. `[1706.03762v5, page 4]`. */
  marker: string;
  paperId: string;
  page: number;
  /** The answer's sentence that carries the citation (without citation markers). */
  claim: string;
  /** The passage it resolved to (a retrieved one, or offline another passage of a retrieved page), or null when the
   *  citation names a page that was not retrieved. */
  chunkUid: string | null;
  /** The best-supporting sentence of the cited passage (the text the viewer highlights). */
  quote: string;
  charStart: number | null;
  charEnd: number | null;
  /** True when the cited text supports the claim (lexically offline; LLM judge when configured). */
  supported: boolean;
  /** Support score in [0, 1]. */
  support: number;
  /** Why it is not supported, when it is not. */
  reason?: string;
  /** Does the claim bear on the question (or its outline point)? Absent on runs made before it was judged. */
  relevance?: Relevance;
  /** Why, in a line. */
  relevanceReason?: string;
}

export interface Reference {
  /** 1-based, in arXiv-id order. */
  number: number;
  paperId: string;
  title: string;
  authors: string[];
  /** ISO date or year when known. */
  published: string | null;
  doi: string | null;
  arxivId: string | null;
}

/** What a search of the run returned, best first per stage (stored with the run, for evaluation). */
export interface RetrievedRecord {
  chunkUid: string;
  paperId: string;
  page: number | null;
  stage: SearchStage;
  rank: number;
  score: number;
}

export type ResearchMode = "offline" | "llm";

export const RUN_STATUSES = ["running", "completed", "failed", "cancelled", "interrupted"] as const;
/** `interrupted`: the process running it stopped before it finished (marked when a server starts). */
export type RunStatus = (typeof RUN_STATUSES)[number];
export type FinishedRunStatus = Exclude<RunStatus, "running">;

/**
 * Whether "Improve: …" applies to a run: it ran to its end (completed, or failed at a late step with its answer kept)
 * and has an answer. A declined run has none; a cancelled or interrupted one has at most part of one — ask again.
 * The run page offers Improve by this, and the server refuses by it.
 */
export function canImprove(run: { status: RunStatus; answer: string }): boolean {
  return (run.status === "completed" || run.status === "failed") && run.answer.trim() !== "";
}

/** What a deep run stores with itself (so it can be rerun, improved and compared); `{}` for a quick run. */
export type RunOptions =
  | Record<string, never>
  | {
      deep: true;
      outline: Outline;
      answers?: ClarifyingAnswer[];
      /** "improve: …" feedback this version was made with. */
      feedback?: string;
    };

export type FeedbackRating = "helpful" | "not_helpful";

export interface RunFeedback {
  rating: FeedbackRating;
  comment: string | null;
  /** ISO 8601. */
  at: string;
}

// ---- events ----

/** The events of a run, in order. Every `step` event carries the whole step as it now is. */
export type ResearchEvent =
  | {
      kind: "run_started";
      runId: string;
      question: string;
      mode: ResearchMode;
      /** Model id in LLM mode; `extractive` offline. */
      model: string;
      startedAt: string;
      /** The plan: every step, pending. */
      steps: ResearchStep[];
    }
  | { kind: "step"; step: ResearchStep }
  /** A piece of the answer as it is written (LLM tokens, or the extractive answer section by section). */
  | { kind: "answer_delta"; text: string }
  /** The whole answer, replacing the deltas (after verification marks unsupported claims). */
  | { kind: "answer"; markdown: string; citations: Citation[]; references: Reference[]; warnings: string[] }
  | {
      kind: "run_finished";
      status: FinishedRunStatus;
      durationMs: number;
      error?: ResearchError;
    };

/** Before a run exists: why it could not start (an invalid question, the database unavailable, …). */
export interface RejectedEvent {
  kind: "rejected";
  error: { code: ErrorCode; message: string };
}

/** Sent by "improve" before the new version's events: what the feedback changed in the outline. */
export interface ImprovePlanEvent {
  kind: "improve_plan";
  feedback: string;
  /** The first knowledge point added for the feedback, if any (`addedPoints` lists them all). */
  addedPoint: string | null;
  /** The topics of the points added for the feedback's requests. */
  addedPoints?: string[];
  /** The topics of the points that cover a request already and now search for it too. */
  reshapedPoints?: string[];
}

/** Everything a streaming research action sends: a run's events, or why it could not start, and improve plans. */
export type ResearchStreamEvent = ResearchEvent | RejectedEvent | ImprovePlanEvent;

// ---- state ----

/** What a finished (or running) run looks like when rebuilt from its events. */
export interface ResearchRunState {
  runId: string;
  question: string;
  mode: ResearchMode;
  model: string;
  status: RunStatus;
  startedAt: string;
  durationMs: number | null;
  steps: ResearchStep[];
  /** The streamed text so far, or the final markdown. */
  answer: string;
  citations: Citation[];
  references: Reference[];
  warnings: string[];
  error?: ResearchError;
}

/** Folds one event into a run's state (the UI, the replay of a saved run and the CLI all use this). */
export function applyEvent(state: ResearchRunState | null, event: ResearchEvent): ResearchRunState | null {
  switch (event.kind) {
    case "run_started":
      return {
        runId: event.runId,
        question: event.question,
        mode: event.mode,
        model: event.model,
        status: "running",
        startedAt: event.startedAt,
        durationMs: null,
        steps: event.steps,
        answer: "",
        citations: [],
        references: [],
        warnings: [],
      };
    case "step": {
      if (!state) return state;
      const i = state.steps.findIndex((s) => s.id === event.step.id);
      const steps = [...state.steps];
      if (i >= 0) steps[i] = event.step;
      else steps.push(event.step);
      return { ...state, steps };
    }
    case "answer_delta":
      return state ? { ...state, answer: state.answer + event.text } : state;
    case "answer":
      return state
        ? {
            ...state,
            answer: event.markdown,
            citations: event.citations,
            references: event.references,
            warnings: event.warnings,
          }
        : state;
    case "run_finished":
      return state ? { ...state, status: event.status, durationMs: event.durationMs, error: event.error } : state;
  }
}
