import { randomBytes } from "node:crypto";
import type { Database } from "@/db";
import {
  deleteRuns,
  finishRun,
  getRun,
  insertRun,
  listRunAndVersionIds,
  notifyRun,
  saveAnswer,
  saveRetrieved,
  saveStep,
} from "@/db/queries/research";
import { getEnv } from "@/lib/env";
import type { ResearchDeps } from "./deps";
import { holdLease, INSTANCE_ID, leaseUntil } from "./lease";
import type { Runner } from "./lifecycle";
import { runResearch } from "./orchestrator";
import type { ResearchEvent, ResearchRunState, RetrievedRecord, RunOptions } from "./types";

/**
 * Runs in flight in this process. A run is driven here, not by the request that started it: the browser may reload,
 * or several tabs may watch, and each subscriber gets every event from the start, then the live ones. Every event is
 * persisted in order, so a finished run reads back from the database exactly as it was.
 */
interface LiveRun {
  id: string;
  events: ResearchEvent[];
  listeners: Set<() => void>;
  controller: AbortController;
  done: Promise<ResearchRunState | null>;
  finished: boolean;
}

const REGISTRY_KEY = Symbol.for("lectern.research.runs");
type Registry = Map<string, LiveRun>;
function registry(): Registry {
  const g = globalThis as unknown as Record<symbol, Registry | undefined>;
  let r = g[REGISTRY_KEY];
  if (!r) {
    r = new Map();
    g[REGISTRY_KEY] = r;
  }
  return r;
}

/** 128 random bits, URL-safe: the shareable run id cannot be guessed. */
export function newRunId(): string {
  return randomBytes(16).toString("base64url");
}

/** Writes events in order, one at a time; a failed write is reported, and later events are still attempted. */
function persister(
  db: Database,
  onError: (e: unknown) => void,
  meta: { options?: RunOptions; parentId?: string | null; ownerId?: string | null; leaseMs: number },
) {
  let release: (() => void) | null = null;
  let chain: Promise<void> = Promise.resolve();
  let runId = "";
  return {
    push(event: ResearchEvent, extra: { retrieved: () => RetrievedRecord[] }) {
      chain = chain.then(async () => {
        try {
          switch (event.kind) {
            case "run_started":
              runId = event.runId;
              await insertRun(db, {
                id: event.runId,
                question: event.question,
                mode: event.mode,
                model: event.model,
                startedAt: event.startedAt,
                steps: event.steps,
                options: meta.options,
                parentId: meta.parentId,
                ownerId: meta.ownerId,
                lease: { owner: INSTANCE_ID, expiresAt: leaseUntil(meta.leaseMs) },
              });
              release = holdLease(db, runId, meta.leaseMs);
              break;
            case "step":
              await saveStep(db, runId, event.step);
              break;
            case "answer":
              await saveAnswer(db, runId, {
                markdown: event.markdown,
                citations: event.citations,
                references: event.references,
                warnings: event.warnings,
                retrieved: extra.retrieved(),
              });
              break;
            case "run_finished":
              await saveRetrieved(db, runId, extra.retrieved());
              await finishRun(db, runId, { status: event.status, durationMs: event.durationMs, error: event.error });
              release?.();
              release = null;
              break;
            case "answer_delta":
              return; // the whole answer is saved with the `answer` event
          }
          // other instances following the run read it again (lib/research/follow.ts)
          await notifyRun(db, runId);
        } catch (e) {
          onError(e);
        }
      });
    },
    /** Settles when every event pushed so far has been written (or its write has failed and been reported). */
    saved: () => chain,
    flushed: () =>
      chain.then(() => {
        // a run whose `run_finished` could not be saved stops renewing its lease too: the sweep will end it
        release?.();
        release = null;
      }),
  };
}

export interface StartedRun {
  runId: string;
  /** Every event of the run, from the first, live. */
  events: AsyncIterable<ResearchEvent>;
}

/**
 * Starts a research run in the background and returns its id and event stream. `signal` cancels it (as does
 * `cancelRun`). The run and its persistence continue when the stream's reader goes away. `runner` drives it: the
 * quick research by default; deep research passes its own.
 */
export function startRun(
  deps: ResearchDeps,
  question: string,
  {
    signal,
    onPersistError,
    runner = runResearch,
    options,
    parentId,
    ownerId,
    leaseMs = getEnv().LECTERN_RUN_LEASE_MS,
  }: {
    signal?: AbortSignal;
    onPersistError?: (e: unknown) => void;
    runner?: Runner;
    /** Stored with the run (deep research keeps its outline and answers here). */
    options?: RunOptions;
    /** The run this one is a new version of. */
    parentId?: string | null;
    /** Its author's account (null: the command line). */
    ownerId?: string | null;
    /** The run's lease (lib/research/lease.ts); LECTERN_RUN_LEASE_MS by default. */
    leaseMs?: number;
  } = {},
): StartedRun {
  const id = newRunId();
  const controller = new AbortController();
  if (signal) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
  }
  const live: LiveRun = {
    id,
    events: [],
    listeners: new Set(),
    controller,
    done: Promise.resolve(null),
    finished: false,
  };
  registry().set(id, live);
  const store = persister(deps.db, onPersistError ?? ((e) => console.error("[lectern] saving a research event:", e)), {
    options,
    parentId,
    ownerId,
    leaseMs,
  });
  let retrieved: RetrievedRecord[] = [];
  const show = (event: ResearchEvent) => {
    live.events.push(event);
    for (const l of live.listeners) l();
  };
  // Events are streamed in order; its start and its end only once saved. The start: a page that learns the run's id
  // (its address) finds the run in the database — a reload, another instance — rather than "not found" for a moment.
  // The end (with the answer before it): a page that shows the run ended finds it ended there, not still running.
  let showing: Promise<void> = Promise.resolve();
  const emit = (event: ResearchEvent) => {
    store.push(event, { retrieved: () => retrieved });
    const saved = event.kind === "run_started" || event.kind === "run_finished" ? store.saved() : null;
    showing = showing.then(async () => {
      if (saved) await saved;
      show(event);
    });
  };
  live.done = runner(deps, question, {
    runId: id,
    signal: controller.signal,
    onEvent: emit,
    onRetrieved: (r) => {
      retrieved = r;
    },
  })
    .catch((e) => {
      console.error("[lectern] research run crashed:", e);
      return null;
    })
    .finally(async () => {
      await store.flushed();
      await showing;
      live.finished = true;
      for (const l of live.listeners) l();
      // keep a finished run's events a little while for late subscribers, then read it from the database
      setTimeout(() => registry().delete(id), 60_000).unref?.();
    });
  return { runId: id, events: subscribeLive(live) };
}

async function* subscribeLive(live: LiveRun): AsyncGenerator<ResearchEvent> {
  let next = 0;
  while (true) {
    while (next < live.events.length) yield live.events[next++] as ResearchEvent;
    if (live.finished) return;
    await new Promise<void>((resolve) => {
      const wake = () => {
        live.listeners.delete(wake);
        resolve();
      };
      live.listeners.add(wake);
      // an event may have arrived between the check and the wait
      if (next < live.events.length || live.finished) wake();
    });
  }
}

/** The live events of a run in flight in this process (from its first event), or null. */
export function subscribeRun(runId: string): AsyncIterable<ResearchEvent> | null {
  const live = registry().get(runId);
  return live ? subscribeLive(live) : null;
}

export function isRunLive(runId: string): boolean {
  const live = registry().get(runId);
  return Boolean(live && !live.finished);
}

/** Ids of the runs in flight in this process. */
export function liveRunIds(): string[] {
  return [...registry().values()].filter((r) => !r.finished).map((r) => r.id);
}

/** Cancels a run in flight; false when it is not running here. */
export function cancelRun(runId: string): boolean {
  const live = registry().get(runId);
  if (!live || live.finished) return false;
  live.controller.abort(new Error("cancelled"));
  return true;
}

/** Resolves when the run has finished and everything is saved (tests, the CLI). */
export async function waitForRun(runId: string): Promise<ResearchRunState | null> {
  const live = registry().get(runId);
  if (!live) return null;
  const state = await live.done;
  // `done` settles before `finally`: wait for the flush too
  while (!live.finished) await new Promise((r) => setTimeout(r, 5));
  return state;
}

/**
 * Deletes a run and the versions made from it (same author), cancelling any of them still running here first (so no
 * event is written after). Returns how many runs went.
 */
export async function deleteRunFamily(db: Database, runId: string): Promise<number> {
  const run = await getRun(db, runId);
  if (!run) return 0;
  const ids = await listRunAndVersionIds(db, { runId, ownerId: run.ownerId });
  for (const id of ids) cancelRun(id);
  await Promise.all(ids.map((id) => waitForRun(id)));
  return deleteRuns(db, { ids });
}
