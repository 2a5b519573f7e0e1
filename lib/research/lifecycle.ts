import type { LanguageModel } from "ai";
import { isTimeout, timeoutSignal } from "@/lib/abort";
import { asDatabaseUnavailable, LecternError, userMessage } from "@/lib/errors";
import type { Intent } from "@/lib/search/intent";
import type { EvidencePassage } from "./citations";
import { modelIdOf, type ResearchDeps } from "./deps";
import { errorMessage } from "./step-kit";
import {
  applyEvent,
  type Citation,
  type Reference,
  type ResearchError,
  type ResearchEvent,
  type ResearchRunState,
  type ResearchStep,
  type RetrievedRecord,
  type StepPatch,
} from "./types";

/**
 * One lifecycle for every research run, quick or deep: the run's events and their fold, the run timeout and the
 * per-call timeouts, cancellation, the step wrapper (pending → in_progress → completed | failed) with one error type,
 * the steps a run ended before reaching (skipped), warnings, and the hooks that persist what a run retrieved. A runner
 * is then a plan and a list of `run.step(…)` calls — see `runResearch` (orchestrator.ts) and `deepRunner`
 * (deep/run.ts), and docs/architecture.md, "How to add a step".
 */

/** What the caller of a runner hears: every event, and what the searches returned (for evaluation). */
export interface RunHooks {
  runId: string;
  /** Cancels the run. */
  signal?: AbortSignal;
  onEvent: (event: ResearchEvent) => void;
  /** Called with everything retrieved so far, whenever it grows. */
  onRetrieved?: (records: RetrievedRecord[]) => void;
  /** Called with what the offline answer is composed from (for evaluation: bench/fit-answer-weights.ts). It gets
   *  copies of the passages; if it throws, the run goes on and warns. */
  onComposed?: (input: ComposedFrom) => void;
}

/** What the offline answer of a run was composed from: the passages as the composer read them, and the analysis. */
export interface ComposedFrom {
  question: string;
  intent: Intent;
  keywords: string[];
  evidence: EvidencePassage[];
  /** The graph's part of the answer, which leads it (lineage questions), or null. */
  graph: string | null;
}

/** A runner: a question in, every event out through the hooks, the final state back. Never throws for a research failure. */
export type Runner = (deps: ResearchDeps, question: string, hooks: RunHooks) => Promise<ResearchRunState>;

/** What a run says when its database connection is lost mid-run (the details are logged). */
export const DATABASE_UNAVAILABLE = "The database is unavailable — retry in a moment.";

/** The one step error: thrown by a step (or by `run.step` for any error in one) to end the run with `detail`. */
export class StepError extends Error {
  constructor(readonly detail: ResearchError) {
    super(detail.message);
    this.name = "StepError";
  }
}

/** What a step hands back: its result for the next steps, and how its card ends. */
export interface StepOutcome<S extends ResearchStep, Out> {
  result: Out;
  patch: StepPatch<S>;
}

/**
 * A kind of step: its card in the plan (`card`, pending; `key` tells apart several steps of one kind, such as deep
 * research's one search per knowledge point) and what it does (`run`).
 */
export interface StepDefinition<S extends ResearchStep, In, Out, Key = void> {
  card(key: Key): S;
  run(ctx: StepContext<S>, input: In): Promise<StepOutcome<S, Out>>;
}

/** Everything a step may use: the run's deps and signals, and its own card's progress. */
export interface StepContext<S extends ResearchStep> extends RunContext {
  /** Changes the step's card while it runs (a title with counts, the queries being searched). */
  progress(patch: StepPatch<S>): void;
}

export interface RunContext {
  readonly deps: ResearchDeps;
  readonly question: string;
  /** The model, or null offline. */
  readonly llm: LanguageModel | null;
  /** Aborts when the run is cancelled or runs out of time. */
  readonly signal: AbortSignal;
  /** A signal for one model call: the run's, and the per-call timeout (`LECTERN_LLM_TIMEOUT_MS`). */
  callSignal(): AbortSignal;
  /** True once the run is cancelled or out of time: a step then stops rather than falling back. */
  stopped(): boolean;
  /** A warning shown with the answer (a model that failed, citations that could not be read). */
  warn(message: string): void;
  /** A piece of the answer as it is written. */
  delta(text: string): void;
  /** What a search returned (kept with the run, for evaluation). */
  record(records: RetrievedRecord[]): void;
  /** What the offline answer is composed from (for evaluation). */
  composed(input: ComposedFrom): void;
}

/** What a runner's body returns: the answer, which the lifecycle emits and the run then finishes with. */
export interface RunAnswer {
  markdown: string;
  citations: Citation[];
  references: Reference[];
}

export interface Run extends RunContext {
  /** Runs one step of the plan (or a step appended to it) and returns its result; throws `StepError` when it fails. */
  step<S extends ResearchStep, In, Out, Key>(def: StepDefinition<S, In, Out, Key>, input: In, key: Key): Promise<Out>;
  step<S extends ResearchStep, In, Out>(def: StepDefinition<S, In, Out, void>, input: In): Promise<Out>;
}

export interface RunSpec {
  /** Every step, pending, in the order the run shows them. */
  plan: ResearchStep[];
  /** What a user can do when the run runs out of time. */
  timeoutHint: string;
  body: (run: Run) => Promise<RunAnswer>;
}

/**
 * Runs a research run: emits `run_started` with the plan, runs `body`, emits the answer and `run_finished` — or, when
 * a step fails or the run is cancelled or out of time, `run_finished` with the error. Either way, a step of the plan
 * still pending when the body ends is emitted `skipped` first. Resolves to the final state.
 */
export async function executeRun(
  deps: ResearchDeps,
  question: string,
  hooks: RunHooks,
  spec: RunSpec,
): Promise<ResearchRunState> {
  const started = performance.now();
  const parent = hooks.signal ?? new AbortController().signal;
  const signal = timeoutSignal(deps.runTimeoutMs, parent);
  let state: ResearchRunState | null = null;
  const emit = (e: ResearchEvent) => {
    state = applyEvent(state, e);
    hooks.onEvent(e);
  };
  const llm = deps.chatModel;
  emit({
    kind: "run_started",
    runId: hooks.runId,
    question,
    mode: llm ? "llm" : "offline",
    model: llm ? modelIdOf(llm) : "extractive",
    startedAt: new Date().toISOString(),
    steps: spec.plan.map((s) => ({ ...s })),
  });

  const toError = (e: unknown): ResearchError => {
    if (parent.aborted) return { code: "cancelled", message: "The research run was cancelled." };
    if (isTimeout(signal.reason)) {
      return {
        code: "timeout",
        message: `The research run took longer than ${Math.round(deps.runTimeoutMs / 1000)} s and was stopped.`,
        hint: spec.timeoutHint,
      };
    }
    if (e instanceof StepError) return e.detail;
    if (e instanceof LecternError && e.kind === "bad_request") return { code: "bad_request", message: e.message };
    // Anything else is unexpected: its message may hold a failed SQL statement with its parameters (the question),
    // a driver's address or a stack, so the reader gets a safe line and the log gets the details.
    console.error(`[lectern] research run ${hooks.runId}:`, e);
    const known = asDatabaseUnavailable(e, DATABASE_UNAVAILABLE);
    if (known instanceof LecternError) return { code: "internal", message: known.message };
    return { code: "internal", message: userMessage(e) };
  };

  const current = new Map<string, ResearchStep>(spec.plan.map((s) => [s.id, s]));
  // the one place a patch meets its step: a patch is typed by its step's kind (StepPatch<S>), so the merge keeps the kind
  const update = (base: ResearchStep, patch: StepPatch<ResearchStep>) => {
    const next = { ...(current.get(base.id) ?? base), ...patch } as ResearchStep;
    current.set(base.id, next);
    emit({ kind: "step", step: next });
  };
  const warnings: string[] = [];
  const retrieved: RetrievedRecord[] = [];
  const context: RunContext = {
    deps,
    question,
    llm,
    signal,
    callSignal: () => timeoutSignal(deps.llmTimeoutMs, signal),
    stopped: () => signal.aborted,
    warn: (message) => warnings.push(message),
    delta: (text) => emit({ kind: "answer_delta", text }),
    record: (records) => {
      retrieved.push(...records);
      hooks.onRetrieved?.([...retrieved]);
    },
    composed: (input) => {
      if (!hooks.onComposed) return;
      try {
        hooks.onComposed({ ...input, keywords: [...input.keywords], evidence: input.evidence.map((e) => ({ ...e })) });
      } catch (e) {
        warnings.push(`The run's onComposed hook failed: ${errorMessage(e)}`);
      }
    },
  };
  const step = async <S extends ResearchStep, In, Out, Key>(
    def: StepDefinition<S, In, Out, Key>,
    input: In,
    key?: Key,
  ): Promise<Out> => {
    const card = def.card(key as Key);
    const t0 = performance.now();
    const elapsed = () => Math.round(performance.now() - t0);
    update(card, { status: "in_progress", startedAt: new Date().toISOString() });
    try {
      signal.throwIfAborted();
      const { result, patch } = await def.run(
        { ...context, progress: (p: StepPatch<S>) => update(card, p as StepPatch<ResearchStep>) },
        input,
      );
      signal.throwIfAborted();
      update(card, { ...(patch as StepPatch<ResearchStep>), status: "completed", durationMs: elapsed() });
      return result;
    } catch (e) {
      const error = toError(e);
      update(card, { status: "failed", durationMs: elapsed(), error });
      throw new StepError(error);
    }
  };
  const run: Run = { ...context, step };
  // a run that has ended leaves no step waiting: the ones it never reached (after a failed or declining step, a
  // cancellation or a timeout) say so — streamed and saved like any other change of a step
  const skipUnreached = () => {
    for (const s of [...current.values()]) if (s.status === "pending") update(s, { status: "skipped" });
  };

  try {
    const answer = await spec.body(run);
    skipUnreached();
    emit({ kind: "answer", ...answer, warnings: [...warnings] });
    emit({ kind: "run_finished", status: "completed", durationMs: Math.round(performance.now() - started) });
  } catch (e) {
    const error = toError(e);
    skipUnreached();
    emit({
      kind: "run_finished",
      status: error.code === "cancelled" ? "cancelled" : "failed",
      durationMs: Math.round(performance.now() - started),
      error,
    });
  }
  // run_started was emitted above, so the state exists
  return state as unknown as ResearchRunState;
}

/** A step's card before it runs. */
export function pendingCard<S extends ResearchStep>(card: Pick<S, "id" | "type" | "title"> & Partial<S>): S {
  return {
    status: "pending",
    startedAt: null,
    durationMs: null,
    reasoning: "",
    queries: [],
    sources: [],
    confidence: null,
    data: null,
    ...card,
  } as S;
}
