import type { ErrorCode, Result } from "@/lib/errors";
import type { ResearchEvent, ResearchMode, ResearchRunState, RunStatus } from "@/lib/research/types";

/**
 * What the research actions stream to the page: the run's own events, or — before a run exists — why it could not
 * start (an invalid question, the database unavailable). Plain JSON, like the events.
 */
export type ResearchStreamEvent = ResearchEvent | { kind: "rejected"; error: { code: ErrorCode; message: string } };

export type FeedbackRating = "helpful" | "not_helpful";

export interface RunFeedback {
  rating: FeedbackRating;
  comment: string | null;
  /** ISO 8601. */
  at: string;
}

/** A run as the page first shows it: the stored state, and whether it is still running in this server. */
export interface ResearchRunView {
  run: ResearchRunState;
  live: boolean;
  feedback: RunFeedback | null;
}

/** A line of the recent-runs list. */
export interface RecentRun {
  id: string;
  question: string;
  status: RunStatus;
  mode: ResearchMode;
  /** ISO 8601. */
  startedAt: string;
  durationMs: number | null;
}

/** What the question box offers: questions made from the library's own papers, or nothing when it is empty. */
export interface ResearchLibrary {
  /** Papers ready to be searched. */
  ready: number;
  /** Papers still being ingested (or that failed). */
  processing: number;
  examples: string[];
}

type EventStream = AsyncIterable<ResearchStreamEvent> | Promise<AsyncIterable<ResearchStreamEvent>>;

/** The server actions the page calls, passed down as props (components never import app/). */
export interface ResearchActions {
  /** Called from the browser a server action answers with a promise of the stream: await it, then read it. */
  start: (question: string) => EventStream;
  watch: (runId: string) => EventStream;
  cancel: (runId: string) => Promise<Result<{ cancelled: boolean }>>;
  feedback: (runId: string, rating: FeedbackRating, comment?: string) => Promise<Result<RunFeedback>>;
}

/** Longest question accepted (a longer text is a pasted document, not a question). */
export const MAX_QUESTION_CHARS = 2000;
