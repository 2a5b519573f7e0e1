"use server";

import { getDb } from "@/db";
import { setFeedback } from "@/db/queries/research";
import { type Result, toErrorResult } from "@/lib/errors";
import { getResearchDeps } from "@/lib/research/deps";
import { cancelRun, startRun, subscribeRun } from "@/lib/research/runs";
import type { FeedbackRating, ResearchStreamEvent, RunFeedback } from "@/lib/research/types";
import { feedbackInputSchema, firstIssue, runInputSchema, startResearchInputSchema } from "./schema";
import { streamAction } from "./stream-action";

/**
 * Starts a research run and streams its events as they happen, from `run_started` (the plan and the run id, sent
 * before any search) to `run_finished`. The run lives on in the server when the page stops reading: it is saved as
 * it goes and can be watched again at `/research/<id>`. A question that cannot be asked yields one `rejected` event.
 */
export async function* startResearchAction(question: string): AsyncGenerator<ResearchStreamEvent, void, undefined> {
  yield* streamAction(
    startResearchInputSchema,
    { question },
    { code: "bad_request:query", message: "That question cannot be asked." },
    async ({ question: q }) => ({ events: startRun(await getResearchDeps(), q).events }),
  );
}

/**
 * The events of a run in flight in this server, from its first (a page reloaded mid-run catches up, then follows it
 * live). Nothing when the run is not running here: the page already shows the stored run.
 */
export async function* watchRunAction(runId: string): AsyncGenerator<ResearchStreamEvent, void, undefined> {
  yield* streamAction(
    runInputSchema,
    { runId },
    { code: "bad_request:input", message: "That is not a research run id." },
    async ({ runId: id }) => {
      const events = subscribeRun(id);
      return events ? { events } : null;
    },
  );
}

/** Cancels a run in flight; `cancelled: false` when it had already finished (or runs in another process). */
export async function cancelRunAction(runId: string): Promise<Result<{ cancelled: boolean }>> {
  const parsed = runInputSchema.safeParse({ runId });
  if (!parsed.success) {
    return { ok: false, error: { code: "bad_request:input", message: firstIssue(parsed.error, "Invalid run id.") } };
  }
  try {
    return { ok: true, data: { cancelled: cancelRun(parsed.data.runId) } };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** Stores the user's verdict on a run's answer (the latest replaces an earlier one). */
export async function feedbackAction(
  runId: string,
  rating: FeedbackRating,
  comment?: string,
): Promise<Result<RunFeedback>> {
  const parsed = feedbackInputSchema.safeParse({ runId, rating, comment });
  if (!parsed.success) {
    return { ok: false, error: { code: "bad_request:input", message: firstIssue(parsed.error, "Invalid feedback.") } };
  }
  try {
    const { runId: id, rating: r, comment: c } = parsed.data;
    const saved = await setFeedback(await getDb(), id, { rating: r, comment: c });
    if (!saved) return { ok: false, error: { code: "not_found:run", message: "That research run no longer exists." } };
    return { ok: true, data: { rating: r, comment: c, at: new Date().toISOString() } };
  } catch (e) {
    return toErrorResult(e);
  }
}
