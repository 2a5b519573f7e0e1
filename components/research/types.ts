import type { ShareLink } from "@/lib/auth/share";
import type { Result } from "@/lib/errors";
import type {
  FeedbackRating,
  ResearchMode,
  ResearchRunState,
  ResearchStreamEvent,
  RunFeedback,
  RunStatus,
} from "@/lib/research/types";

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
  /** The run this one improves, when it is a later version (the list tells versions of one question apart by it). */
  parentId?: string | null;
  /** Its number among its question's versions, as the run page numbers them (v2, v3, …); absent: not known here. */
  version?: number;
  /** The "Improve: …" feedback it was made with. */
  feedback?: string | null;
  /** Why a failed run ended: `no_answer` and `no_papers` (the library does not answer it) are no failure to show. */
  errorCode?: string | null;
}

/** What the question box offers: questions made from the library's own papers, or nothing when it is empty. */
export interface ResearchLibrary {
  /** Papers ready to be searched. */
  ready: number;
  /** Papers still being ingested (or that failed). */
  processing: number;
  examples: string[];
  /** Web search: offered (with its provider), or how to enable it. Absent: not known (the toggle is not shown). */
  web?: WebSearchAvailability;
}

export interface WebSearchAvailability {
  available: boolean;
  provider: string | null;
  /** auto: the plan may search the web on its own; on_request: only when the toggle is on. */
  mode: "auto" | "on_request";
  /** How to turn it on, when off — for the owner only (null for the others: the box then says nothing of it). */
  howToEnable: string | null;
}

/** What the person chose with the question. */
export interface AskOptions {
  /** Search the web too. */
  web?: boolean;
}

type EventStream = AsyncIterable<ResearchStreamEvent> | Promise<AsyncIterable<ResearchStreamEvent>>;

/** The server actions the page calls, passed down as props (components never import app/). */
export interface ResearchActions {
  /** Called from the browser a server action answers with a promise of the stream: await it, then read it. */
  start: (question: string, options?: AskOptions) => EventStream;
  watch: (runId: string) => EventStream;
  cancel: (runId: string) => Promise<Result<{ cancelled: boolean }>>;
  feedback: (runId: string, rating: FeedbackRating, comment?: string) => Promise<Result<RunFeedback>>;
}

/** What the author of a run does with it besides asking again: share it by link, delete it (server actions). */
export interface RunOwnerActions {
  listShareLinks: (runId: string) => Promise<Result<ShareLink[]>>;
  /** `expiresAt`: an ISO 8601 instant, or null for a link that does not expire. */
  createShareLink: (runId: string, expiresAt: string | null) => Promise<Result<{ token: string; link: ShareLink }>>;
  revokeShareLink: (runId: string, linkId: string) => Promise<Result<ShareLink>>;
  /** Deletes the run and the versions made from it. */
  deleteRun: (runId: string) => Promise<Result<{ deleted: number }>>;
}
