import type { DbHandle } from "@/db";
import { getRun, RUN_CHANNEL } from "@/db/queries/research";
import type { ResearchEvent, ResearchStep } from "./types";

/** How often a follower reads the run again when no notification came (a missed one, a lost connection). */
export const FOLLOW_POLL_MS = 2_000;

/**
 * The events of a run another instance is running, read from the database: `run_started` with the steps as saved,
 * then each step as it changes, then the answer and `run_finished` once the run has ended (completed, failed,
 * cancelled, or interrupted when its process died and its lease expired). The instance running it announces every
 * saved event on RUN_CHANNEL (`NOTIFY`); the follower wakes on those, and reads again every FOLLOW_POLL_MS anyway.
 * The answer's text arrives whole at the end (its pieces as written are not saved). Ends when `signal` aborts.
 */
export async function* followStoredRun(
  handle: Pick<DbHandle, "db" | "listen">,
  runId: string,
  { signal, pollMs = FOLLOW_POLL_MS }: { signal?: AbortSignal; pollMs?: number } = {},
): AsyncGenerator<ResearchEvent> {
  let wake: (() => void) | null = null;
  let changed = true;
  const stop = await handle
    .listen(RUN_CHANNEL, (payload) => {
      if (payload !== runId) return;
      changed = true;
      wake?.();
    })
    .catch(() => null); // without notifications the follower still polls
  try {
    const first = await getRun(handle.db, runId);
    if (!first) return;
    yield {
      kind: "run_started",
      runId,
      question: first.question,
      mode: first.mode,
      model: first.model,
      startedAt: first.startedAt,
      steps: first.steps,
    };
    const seen = new Map<string, string>(first.steps.map((s) => [s.id, JSON.stringify(s)]));
    let run = first;
    while (!signal?.aborted) {
      for (const step of run.steps as ResearchStep[]) {
        const json = JSON.stringify(step);
        if (seen.get(step.id) === json) continue;
        seen.set(step.id, json);
        yield { kind: "step", step };
      }
      if (run.status !== "running") {
        if (run.answer) {
          yield {
            kind: "answer",
            markdown: run.answer,
            citations: run.citations,
            references: run.references,
            warnings: run.warnings,
          };
        }
        yield { kind: "run_finished", status: run.status, durationMs: run.durationMs ?? 0, error: run.error };
        return;
      }
      if (!changed) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
          signal?.addEventListener("abort", () => wake?.(), { once: true });
        });
        wake = null;
      }
      changed = false;
      const next = await getRun(handle.db, runId);
      if (!next) return;
      run = next;
    }
  } finally {
    await stop?.().catch(() => {});
  }
}
