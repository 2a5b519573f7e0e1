import type { z } from "zod";
import { getRun, type StoredRun } from "@/db/queries/research";
import { LecternError } from "@/lib/errors";
import { assertRunAuthor } from "../access";
import type { ResearchDeps } from "../deps";
import { LIMIT_MESSAGES, LIMITS } from "../limits";
import { type StartedRun, startRun } from "../runs";
import { canImprove, type RunOptions } from "../types";
import { generateOutline } from "./plan";
import { deepRunner } from "./run";
import { type ClarifyingAnswer, type Outline, outlineSchema } from "./types";
import { outlineForFeedback } from "./versions";

export { generateClarifyingQuestions, generateOutline } from "./plan";
export { diffOutlines, isEmptyDiff, outlineForFeedback } from "./versions";

const FIELD_NAMES: Record<string, string> = {
  title: "the title",
  knowledge_points: "the list of knowledge points",
  search_strategy: "the search strategy",
  year_from: "the first year",
  year_to: "the last year",
  id: "id",
  category: "category",
  topic: "topic",
  search_keywords: "keywords",
  importance: "importance",
};

/** A zod issue in plain English: "point 2's topic is too short (at least 2 characters)". */
export function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return "it is not an outline.";
  const path = issue.path.map(String);
  let where = "the outline";
  if (path[0] === "knowledge_points" && path.length >= 2 && /^\d+$/.test(path[1] ?? "")) {
    const field = path[2] ? (FIELD_NAMES[path[2]] ?? path[2]) : "";
    where = `point ${Number(path[1]) + 1}${field ? `'s ${field}` : ""}${path[3] ? ` (item ${Number(path[3]) + 1})` : ""}`;
  } else if (path[0]) {
    where = FIELD_NAMES[path[0]] ?? path[0];
  }
  const i = issue as {
    code: string;
    minimum?: number | bigint;
    maximum?: number | bigint;
    origin?: string;
    values?: unknown[];
  };
  switch (i.code) {
    case "too_small":
      return i.origin === "array"
        ? `${where} needs at least ${i.minimum} ${i.minimum === 1 ? "entry" : "entries"}.`
        : i.origin === "string"
          ? `${where} is too short (at least ${i.minimum} characters).`
          : `${where} is too small (at least ${i.minimum}).`;
    case "too_big":
      return i.origin === "array"
        ? `${where} has too many entries (at most ${i.maximum}).`
        : i.origin === "string"
          ? `${where} is too long (at most ${i.maximum} characters).`
          : `${where} is too large (at most ${i.maximum}).`;
    case "invalid_value":
      return `${where} must be one of ${(i.values ?? []).map((v) => JSON.stringify(v)).join(", ")}.`;
    case "invalid_type":
      return `${where} is missing or of the wrong kind.`;
    default:
      return `${where}: ${issue.message}`;
  }
}

/** Validates an outline (as edited by hand or in the UI) with a message fit for a user. */
export function parseOutline(value: unknown): Outline {
  const r = outlineSchema.safeParse(value);
  if (!r.success) {
    throw new LecternError("bad_request:outline", `The outline is not valid: ${describeIssue(r.error.issues[0])}`);
  }
  return r.data;
}

/** Starts a deep research run over an outline; `parentId` makes it a new version of that run. */
export function startDeepRun(
  deps: ResearchDeps,
  input: {
    question: string;
    outline: Outline;
    answers?: ClarifyingAnswer[];
    parentId?: string | null;
    feedback?: string;
    /** Its author's account (null: the command line). */
    ownerId?: string | null;
  },
  { signal }: { signal?: AbortSignal } = {},
): StartedRun {
  const options: RunOptions = {
    deep: true,
    outline: input.outline,
    ...(input.answers && input.answers.length > 0 ? { answers: input.answers } : {}),
    ...(input.feedback ? { feedback: input.feedback } : {}),
  };
  return startRun(deps, input.question, {
    signal,
    runner: deepRunner({ outline: input.outline, feedback: input.feedback }),
    options,
    parentId: input.parentId ?? null,
    ownerId: input.ownerId ?? null,
  });
}

/** The run a new version is made of: it must exist, be finished and — from the app — be the author's own. */
async function loadParent(deps: ResearchDeps, runId: string, authorId: string | null) {
  const parent = await getRun(deps.db, runId);
  if (!parent) throw new LecternError("not_found:run", "That research run does not exist (any more).");
  if (authorId !== null) assertRunAuthor(parent, authorId);
  if (parent.status === "running") {
    throw new LecternError("conflict:run", "That run is still going; wait for it to finish, or cancel it first.");
  }
  return { parent, deep: "deep" in parent.options ? parent.options : null };
}

/** Runs an edited outline as a new version of a finished run (`authorId`: who asks; null at the command line). */
export async function rerunWithOutline(
  deps: ResearchDeps,
  runId: string,
  outline: Outline,
  authorId: string | null,
): Promise<StartedRun> {
  const { parent, deep } = await loadParent(deps, runId, authorId);
  return startDeepRun(deps, {
    question: parent.question,
    outline,
    answers: deep?.answers,
    parentId: parent.runId,
    ownerId: authorId ?? parent.ownerId,
  });
}

/** Refuses "Improve: …" on a run without a whole answer (canImprove), saying why; the app checks before counting. */
export function assertImprovable(run: Pick<StoredRun, "status" | "answer">): void {
  if (run.status === "running") {
    throw new LecternError("conflict:run", "That run is still going; wait for it to finish, or cancel it first.");
  }
  if (canImprove(run)) return;
  throw new LecternError(
    "conflict:run",
    run.answer.trim() === ""
      ? "That run has no answer to improve: ask the question again, or differently."
      : `That run was ${run.status} before its answer was finished, so there is nothing to improve: ask the question again.`,
  );
}

/**
 * "Improve: …" on a finished run: a new version re-synthesised with the feedback, with a new knowledge point (and so
 * new evidence) when the feedback asks for something the outline does not cover. A quick run gets an outline first.
 */
export async function improveRun(
  deps: ResearchDeps,
  runId: string,
  feedback: string,
  authorId: string | null,
): Promise<{ started: StartedRun; addedPoint: string | null; addedPoints: string[]; reshapedPoints: string[] }> {
  const text = feedback.trim();
  const { minChars, maxChars } = LIMITS.improveFeedback;
  if (text.length < minChars) throw new LecternError("bad_request:feedback", LIMIT_MESSAGES.improveTooShort);
  if (text.length > maxChars) throw new LecternError("bad_request:feedback", LIMIT_MESSAGES.improveTooLong);
  const { parent, deep } = await loadParent(deps, runId, authorId);
  assertImprovable(parent);
  const base = deep?.outline ?? (await generateOutline(deps, parent.question)).value;
  const { outline, addedPoint, added, reshaped } = outlineForFeedback(base, text);
  const started = startDeepRun(deps, {
    question: parent.question,
    outline,
    answers: deep?.answers,
    parentId: parent.runId,
    feedback: text,
    ownerId: authorId ?? parent.ownerId,
  });
  return {
    started,
    addedPoint: addedPoint?.topic ?? null,
    addedPoints: added.map((p) => p.topic),
    reshapedPoints: reshaped.map((p) => p.topic),
  };
}
