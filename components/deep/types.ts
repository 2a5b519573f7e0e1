import type { Result } from "@/lib/errors";
import type { ClarifyingAnswer, ClarifyingQuestion, Outline } from "@/lib/research/deep/types";
import type { OutlineDiff } from "@/lib/research/deep/versions";
import type { ResearchStreamEvent, RunStatus } from "@/lib/research/types";

/** How a plan was made: by the model, from the library's own passages, or the fixed fallback. */
export type PlanMethod = "llm" | "library" | "fallback";

export interface ClarifyResult {
  questions: ClarifyingQuestion[];
  method: PlanMethod;
  /** Why the model's output was not used, when it was not. */
  warning?: string;
}

export interface OutlineResult {
  outline: Outline;
  method: PlanMethod;
  warning?: string;
}

/** A version of a run's family, as the versions list shows it. */
export interface DeepVersion {
  id: string;
  /** 1-based, oldest first. */
  number: number;
  parentId: string | null;
  parentNumber: number | null;
  status: RunStatus;
  startedAt: string;
  /** A quick answer, or a deep research run over an outline. */
  kind: "quick" | "deep";
  /** The "improve: …" feedback this version was made with. */
  feedback: string | null;
  /** What changed in the outline from its parent (null for the first version, or when the parent had none). */
  diff: OutlineDiff | null;
  pointCount: number | null;
}

/** What the run page shows of a run beside its answer: its outline and its family of versions. */
export interface DeepRunInfo {
  runId: string;
  deep: boolean;
  outline: Outline | null;
  answers: ClarifyingAnswer[];
  feedback: string | null;
  versions: DeepVersion[];
}

type Stream<E> = AsyncIterable<E> | Promise<AsyncIterable<E>>;

/** The deep research server actions, passed down as props (components never import app/). */
export interface DeepActions {
  clarify: (question: string) => Promise<Result<ClarifyResult>>;
  outline: (question: string, answers: ClarifyingAnswer[]) => Promise<Result<OutlineResult>>;
  start: (question: string, outline: Outline, answers: ClarifyingAnswer[]) => Stream<ResearchStreamEvent>;
  rerun: (runId: string, outline: Outline) => Stream<ResearchStreamEvent>;
  improve: (runId: string, feedback: string) => Stream<ResearchStreamEvent>;
  info: (runId: string) => Promise<Result<DeepRunInfo | null>>;
}

/** Starts a run from the page's one run controller (so it streams into the same step list and answer view). */
export type StartRun = (question: string, events: () => AsyncIterable<ResearchStreamEvent>) => void;
