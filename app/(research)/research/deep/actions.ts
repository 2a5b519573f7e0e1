"use server";

import type { ClarifyResult, DeepRunInfo, OutlineResult } from "@/components/deep/types";
import { getDb } from "@/db";
import { type ErrorCode, type Result, toErrorResult } from "@/lib/errors";
import { loadOwnRun } from "@/lib/research/access";
import {
  assertImprovable,
  generateClarifyingQuestions,
  generateOutline,
  improveRun,
  parseOutline,
  rerunWithOutline,
  startDeepRun,
} from "@/lib/research/deep";
import type { ClarifyingAnswer, Outline } from "@/lib/research/deep/types";
import { getResearchDeps } from "@/lib/research/deps";
import type { ResearchStreamEvent } from "@/lib/research/types";
import { requireUser } from "../../../access";
import { countResearchRun } from "../rate";
import { firstIssue, runInputSchema } from "../schema";
import { streamAction } from "../stream-action";
import { loadDeepRunInfo } from "./data";
import {
  clarifyInputSchema,
  improveInputSchema,
  outlineInputSchema,
  rerunInputSchema,
  startDeepInputSchema,
} from "./schema";

/**
 * Deep research: clarifying questions, the outline, and runs over an outline (new, rerun as a new version, improved
 * with feedback). Each action parses its input, calls lib/research/deep and answers with a typed result; the run
 * actions stream the run's events like the quick research does, or one `rejected` event when it cannot start.
 */

function invalid<T>(message: string, code: ErrorCode = "bad_request:input"): Result<T> {
  return { ok: false, error: { code, message } };
}

/** 2–4 clarifying questions with suggested answers (from the model, or from what the library holds). */
export async function clarifyAction(question: string): Promise<Result<ClarifyResult>> {
  try {
    await requireUser("research:run");
    const parsed = clarifyInputSchema.safeParse({ question });
    if (!parsed.success)
      return invalid(firstIssue(parsed.error, "That question cannot be asked."), "bad_request:query");
    const r = await generateClarifyingQuestions(await getResearchDeps(), parsed.data.question);
    return { ok: true, data: { questions: r.value, method: r.method, ...(r.warning ? { warning: r.warning } : {}) } };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** The knowledge-point outline of a question and its clarifications, for the researcher to edit. */
export async function outlineAction(question: string, answers: ClarifyingAnswer[]): Promise<Result<OutlineResult>> {
  try {
    await requireUser("research:run");
    const parsed = outlineInputSchema.safeParse({ question, answers });
    if (!parsed.success)
      return invalid(firstIssue(parsed.error, "That question cannot be planned."), "bad_request:query");
    const r = await generateOutline(await getResearchDeps(), parsed.data.question, parsed.data.answers);
    return { ok: true, data: { outline: r.value, method: r.method, ...(r.warning ? { warning: r.warning } : {}) } };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** Runs an outline: `run_started` first (the run's id, the plan with a step per knowledge point), then live. */
export async function* startDeepAction(
  question: string,
  outline: Outline,
  answers: ClarifyingAnswer[],
): AsyncGenerator<ResearchStreamEvent, void, undefined> {
  yield* streamAction(
    () => requireUser("research:run"),
    startDeepInputSchema,
    { question, outline, answers },
    { code: "bad_request:query", message: "Invalid input." },
    async (input, user) => {
      const outline = parseOutline(input.outline);
      await countResearchRun(user);
      return { events: startDeepRun(await getResearchDeps(), { ...input, outline, ownerId: user.id }).events };
    },
  );
}

/** Runs an edited outline as a new version of a finished run. */
export async function* rerunAction(
  runId: string,
  outline: Outline,
): AsyncGenerator<ResearchStreamEvent, void, undefined> {
  yield* streamAction(
    () => requireUser("research:run"),
    rerunInputSchema,
    { runId, outline },
    { code: "bad_request:input", message: "Invalid input." },
    async (input, user) => {
      const outline = parseOutline(input.outline);
      // (someone else's run is refused before it counts against the person's limit)
      await loadOwnRun(await getDb(), input.runId, user.id);
      await countResearchRun(user);
      return { events: (await rerunWithOutline(await getResearchDeps(), input.runId, outline, user.id)).events };
    },
  );
}

/**
 * "Improve: …" on a finished run (quick or deep): a new version re-written with the feedback. Its first event says
 * which knowledge point was added for the feedback (none when the outline already covers it).
 */
export async function* improveAction(
  runId: string,
  feedback: string,
): AsyncGenerator<ResearchStreamEvent, void, undefined> {
  yield* streamAction(
    () => requireUser("research:run"),
    improveInputSchema,
    { runId, feedback },
    { code: "bad_request:feedback", message: "Invalid feedback." },
    async (input, user) => {
      // (a run that cannot be improved is refused before it counts against the person's limit)
      assertImprovable(await loadOwnRun(await getDb(), input.runId, user.id));
      await countResearchRun(user);
      const deps = await getResearchDeps();
      const { started, addedPoint, addedPoints, reshapedPoints } = await improveRun(
        deps,
        input.runId,
        input.feedback,
        user.id,
      );
      return {
        before: [{ kind: "improve_plan", feedback: input.feedback, addedPoint, addedPoints, reshapedPoints }],
        events: started.events,
      };
    },
  );
}

/** A run's outline and versions (the run page reloads them when a new version starts or finishes). */
export async function deepInfoAction(runId: string): Promise<Result<DeepRunInfo | null>> {
  try {
    const user = await requireUser("research:read");
    const parsed = runInputSchema.safeParse({ runId });
    if (!parsed.success) return invalid(firstIssue(parsed.error, "That is not a research run id."));
    await loadOwnRun(await getDb(), parsed.data.runId, user.id);
    return { ok: true, data: await loadDeepRunInfo(await getDb(), parsed.data.runId) };
  } catch (e) {
    return toErrorResult(e);
  }
}
