/**
 * The research run's vocabulary, shared by the orchestrator, the stream to the browser, the database, the UI and the
 * CLI's JSON. Everything here is plain JSON (no Dates, no Maps) so an event can be streamed, stored and replayed as is.
 */

export const STEP_TYPES = [
  "analysis",
  "query_expansion",
  "rag_search",
  "synthesis",
  "verification",
  "formatting",
] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const STEP_STATUSES = ["pending", "in_progress", "completed", "failed"] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export type SearchStage = "summaries" | "content";

export type { Intent } from "@/lib/search/intent";

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

export interface ResearchStep {
  /** Stable within a run: `analysis`, `query_expansion`, `search_summaries`, `search_content`, … */
  id: string;
  type: StepType;
  /** rag_search only. */
  stage?: SearchStage;
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
  /** Step-specific data (analysis: intent and keywords; verification: counts; …). */
  data: Record<string, unknown>;
  /** Set when status is `failed`. */
  error?: ResearchError;
}

export type ResearchErrorCode =
  | "no_papers"
  | "no_content"
  | "synthesis_failed"
  | "citation_warning"
  | "timeout"
  | "cancelled"
  | "bad_request"
  | "internal";

export interface ResearchError {
  code: ResearchErrorCode;
  message: string;
  /** What the user can do about it (e.g. the command that rebuilds the index). */
  hint?: string;
}

/** One `[PAPER_ID, page N]` in the answer, resolved and checked. */
export interface Citation {
  /** 1-based order of first appearance in the answer. */
  index: number;
  /** As written in the answer, e.g. `[1706.03762v5, page 4]`. */
  marker: string;
  paperId: string;
  page: number;
  /** The answer's sentence that carries the citation (without citation markers). */
  claim: string;
  /** The retrieved passage it resolved to, or null when the citation names a page that was not retrieved. */
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

export type ResearchMode = "offline" | "llm";

export type RunStatus = "running" | "completed" | "failed" | "cancelled";

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
      status: Exclude<RunStatus, "running">;
      durationMs: number;
      error?: ResearchError;
    };

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
