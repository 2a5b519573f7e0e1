"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import {
  applyEvent,
  type ResearchEvent,
  type ResearchRunState,
  type ResearchStreamEvent,
  type RunFeedback,
} from "@/lib/research/types";
import type { AskOptions, ResearchActions, ResearchRunView } from "./types";

export interface ResearchRunController {
  /** The run shown: streamed, replayed or stored. */
  run: ResearchRunState | null;
  /** True while this page follows the run's events. */
  following: boolean;
  /** The question sent, until its run has started. */
  starting: string | null;
  /** Why a question could not be asked, or the live view was lost. */
  problem: string | null;
  feedback: RunFeedback | null;
  cancelling: boolean;
  ask: (question: string, options?: AskOptions) => void;
  /**
   * Follows a run started elsewhere (deep research starts its runs itself): like `ask`, it replaces the run in
   * flight, but the events come from `open` (from `run_started` on).
   */
  startWith: (question: string, open: () => AsyncIterable<ResearchStreamEvent>) => void;
  cancel: () => void;
  /** Show a run as the server rendered it (a navigation to another run, or back to an empty page). */
  show: (view: ResearchRunView | null) => void;
}

const LOST =
  "The live view of this run was interrupted (the connection to the server was lost). Reload the page to see how far it got.";

/**
 * Streams research runs into state. `ask` starts a run and reads its events as they arrive (the run's id is known
 * from the first one, `onRunStarted`); asking again cancels the run in flight and stops reading its stream. A run
 * still going in the server is followed with `watch` (its events from the first, then live).
 */
export function useResearchRun({
  initial,
  actions,
  onRunStarted,
  onRunFinished,
}: {
  initial: ResearchRunView | null;
  actions: ResearchActions;
  onRunStarted?: (event: Extract<ResearchEvent, { kind: "run_started" }>) => void;
  onRunFinished?: (run: ResearchRunState) => void;
}): ResearchRunController {
  const [run, setRun] = useState<ResearchRunState | null>(initial?.run ?? null);
  const [following, setFollowing] = useState(false);
  const [starting, setStarting] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [feedback, setFeedback] = useState<RunFeedback | null>(initial?.feedback ?? null);
  const [cancelling, setCancelling] = useState(false);

  /** Bumped whenever the page stops following a stream; a reader of an older generation stops. */
  const generation = useRef(0);
  /** Generations whose run must be cancelled as soon as its id is known (a newer question superseded it). */
  const cancelWhenStarted = useRef(new Set<number>());
  /** The run id of the stream being followed, once known. */
  const followedId = useRef<string | null>(null);
  const runRef = useRef(run);
  runRef.current = run;

  const callbacks = useRef({ onRunStarted, onRunFinished, actions });
  callbacks.current = { onRunStarted, onRunFinished, actions };

  const follow = useCallback(
    async (
      gen: number,
      open: () => AsyncIterable<ResearchStreamEvent> | Promise<AsyncIterable<ResearchStreamEvent>>,
    ) => {
      let finished = false;
      let state: ResearchRunState | null = null;
      try {
        const events = await open();
        for await (const event of events) {
          if (generation.current !== gen) {
            if (event.kind === "run_started" && cancelWhenStarted.current.delete(gen)) {
              void callbacks.current.actions.cancel(event.runId).catch(() => {});
            }
            return;
          }
          if (event.kind === "rejected") {
            setProblem(event.error.message);
            setStarting(null);
            return;
          }
          // the improve plan is read by the deep research panel before it hands the run's events here
          if (event.kind === "improve_plan") continue;
          if (event.kind === "run_started") {
            followedId.current = event.runId;
            setStarting(null);
            callbacks.current.onRunStarted?.(event);
            if (cancelWhenStarted.current.delete(gen)) {
              // the user pressed Cancel before the run had an id
              void callbacks.current.actions.cancel(event.runId).catch(() => {});
            }
          }
          state = applyEvent(state ?? (event.kind === "run_started" ? null : runRef.current), event);
          setRun(state);
          if (event.kind === "run_finished") {
            finished = true;
            if (state) callbacks.current.onRunFinished?.(state);
          }
        }
      } catch (e) {
        if (generation.current === gen) {
          console.error("[research] stream", e);
          setProblem(LOST);
        }
        return;
      } finally {
        if (generation.current === gen) {
          setFollowing(false);
          setStarting(null);
          setCancelling(false);
        }
      }
      // the stream ended without the run's end: the server went away mid-run
      if (!finished && generation.current === gen && state?.status === "running") setProblem(LOST);
    },
    [],
  );

  const startWith = useCallback(
    (
      question: string,
      open: () => AsyncIterable<ResearchStreamEvent> | Promise<AsyncIterable<ResearchStreamEvent>>,
    ) => {
      const previous = generation.current;
      const inFlight = runRef.current?.status === "running" ? runRef.current.runId : null;
      const gen = ++generation.current;
      // starting a new question cancels the one in flight, whether or not its id is known yet
      if (inFlight) void callbacks.current.actions.cancel(inFlight).catch(() => {});
      else cancelWhenStarted.current.add(previous);
      followedId.current = null;
      setRun(null);
      setProblem(null);
      setFeedback(null);
      setCancelling(false);
      setStarting(question);
      setFollowing(true);
      void follow(gen, open);
    },
    [follow],
  );

  const ask = useCallback(
    (question: string, options?: AskOptions) =>
      startWith(question, () => callbacks.current.actions.start(question, options)),
    [startWith],
  );

  const watch = useCallback(
    (runId: string) => {
      const gen = ++generation.current;
      followedId.current = runId;
      setFollowing(true);
      void follow(gen, () => callbacks.current.actions.watch(runId));
    },
    [follow],
  );

  const show = useCallback(
    (view: ResearchRunView | null) => {
      ++generation.current; // stop reading, but leave the run going: it was not replaced by a new question
      cancelWhenStarted.current.clear();
      followedId.current = view?.run.runId ?? null;
      setRun(view?.run ?? null);
      setFeedback(view?.feedback ?? null);
      setProblem(null);
      setStarting(null);
      setCancelling(false);
      setFollowing(false);
      if (view?.live) watch(view.run.runId);
    },
    [watch],
  );

  const cancel = useCallback(() => {
    const id = runRef.current?.status === "running" ? runRef.current.runId : null;
    setCancelling(true);
    if (!id) {
      cancelWhenStarted.current.add(generation.current);
      return;
    }
    void callbacks.current.actions
      .cancel(id)
      .then((result) => {
        if (!result.ok) setProblem(result.error.message);
        // not running here any more: the stream brings (or brought) its end
        else if (!result.data.cancelled) setCancelling(false);
      })
      .catch(() => {
        setCancelling(false);
        setProblem("Could not reach the server to cancel the run. Is Lectern still running?");
      });
  }, []);

  // A run still going in the server when the page was rendered: follow it live (from its first event).
  const initialView = useRef(initial);
  useEffect(() => {
    const view = initialView.current;
    if (view?.live) watch(view.run.runId);
    return () => {
      ++generation.current; // leaving the page stops reading; the run itself goes on and is saved
    };
  }, [watch]);

  return { run, following, starting, problem, feedback, cancelling, ask, startWith, cancel, show };
}
