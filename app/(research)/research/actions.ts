"use server";

import { getDb, getDbHandle } from "@/db";
import { setFeedback } from "@/db/queries/research";
import { LecternError, type Result, toErrorResult } from "@/lib/errors";
import { loadOwnRun } from "@/lib/research/access";
import { getResearchDeps } from "@/lib/research/deps";
import { followStoredRun } from "@/lib/research/follow";
import type { Runner } from "@/lib/research/lifecycle";
import { runResearch } from "@/lib/research/orchestrator";
import { cancelRun, deleteRunFamily, startRun, subscribeRun } from "@/lib/research/runs";
import type { FeedbackRating, ResearchStreamEvent, RunFeedback } from "@/lib/research/types";
import { requireUser } from "../../access";
import { countResearchRun } from "./rate";
import { feedbackInputSchema, firstIssue, runInputSchema, startResearchInputSchema } from "./schema";
import { streamAction } from "./stream-action";

/**
 * Starts a research run and streams its events as they happen, from `run_started` (the plan and the run id, sent
 * before any search) to `run_finished`. The run lives on in the server when the page stops reading: it is saved as
 * it goes and can be watched again at `/research/<id>`. A question that cannot be asked yields one `rejected` event.
 * `options.web`: the person asked for web search too (lib/research/web.ts; nothing happens without a provider).
 */
export async function* startResearchAction(
  question: string,
  options?: { web?: boolean },
): AsyncGenerator<ResearchStreamEvent, void, undefined> {
  yield* streamAction(
    () => requireUser("research:run"),
    startResearchInputSchema,
    { question, web: options?.web },
    { code: "bad_request:query", message: "That question cannot be asked." },
    async ({ question: q, web }, user) => {
      await countResearchRun(user);
      const runner: Runner = (deps, text, hooks) => runResearch(deps, text, hooks, { web });
      return { events: startRun(await getResearchDeps(), q, { ownerId: user.id, runner }).events };
    },
  );
}

/**
 * The events of a run in flight, from its first (a page reloaded mid-run catches up, then follows it live): from this
 * server's memory when it runs here, else read from the database as the instance running it saves them
 * (lib/research/follow.ts). Nothing when the run has ended: the page already shows the stored run. The author's only.
 */
export async function* watchRunAction(runId: string): AsyncGenerator<ResearchStreamEvent, void, undefined> {
  yield* streamAction(
    () => requireUser("research:read"),
    runInputSchema,
    { runId },
    { code: "bad_request:input", message: "That is not a research run id." },
    async ({ runId: id }, user) => {
      const handle = await getDbHandle();
      const stored = await loadOwnRun(handle.db, id, user.id);
      // running here: its live events; running in another instance: followed through the database
      const events = subscribeRun(id) ?? (stored.status === "running" ? followStoredRun(handle, id) : null);
      return events ? { events } : null;
    },
  );
}

/** Parses a run id and checks that the signed-in person may act on it as its author. */
async function ownRunId(runId: unknown, capability: "research:run" | "research:read"): Promise<string> {
  const user = await requireUser(capability);
  const parsed = runInputSchema.safeParse({ runId });
  if (!parsed.success)
    throw new LecternError("bad_request:input", firstIssue(parsed.error, "That is not a research run id."));
  await loadOwnRun(await getDb(), parsed.data.runId, user.id);
  return parsed.data.runId;
}

/** Cancels a run in flight; `cancelled: false` when it had already finished (or runs in another process). */
export async function cancelRunAction(runId: string): Promise<Result<{ cancelled: boolean }>> {
  try {
    return { ok: true, data: { cancelled: cancelRun(await ownRunId(runId, "research:run")) } };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** Stores the author's verdict on a run's answer (the latest replaces an earlier one). */
export async function feedbackAction(
  runId: string,
  rating: FeedbackRating,
  comment?: string,
): Promise<Result<RunFeedback>> {
  try {
    await ownRunId(runId, "research:run");
    const parsed = feedbackInputSchema.safeParse({ runId, rating, comment });
    if (!parsed.success) throw new LecternError("bad_request:input", firstIssue(parsed.error, "Invalid feedback."));
    const { runId: id, rating: r, comment: c } = parsed.data;
    const saved = await setFeedback(await getDb(), id, { rating: r, comment: c });
    if (!saved) return { ok: false, error: { code: "not_found:run", message: "That research run no longer exists." } };
    return { ok: true, data: { rating: r, comment: c, at: new Date().toISOString() } };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** Deletes a run and every version made from it (the author's); a run still going is cancelled first. */
export async function deleteRunAction(runId: string): Promise<Result<{ deleted: number }>> {
  try {
    const id = await ownRunId(runId, "research:run");
    return { ok: true, data: { deleted: await deleteRunFamily(await getDb(), id) } };
  } catch (e) {
    return toErrorResult(e);
  }
}
