import { z } from "zod";
import { clarifyingAnswerSchema, clarifyingQuestionSchema, IMPORTANCE, outlineSchema } from "@/lib/research/deep/types";
import { LIMITS } from "@/lib/research/limits";
import { MAX_KEYWORD_CHARS, MAX_KEYWORDS, MAX_POINTS } from "./outline-state";

/**
 * A deep research plan not yet run — the question typed, the clarifying answers, the outline as edited — kept in the
 * tab's sessionStorage so that leaving /research (for the library, a paper) and coming back finds it as it was.
 *
 * sessionStorage rather than localStorage: a draft belongs to the tab it was made in. Two tabs planning two reviews
 * would overwrite each other's in localStorage, and a plan half made last week should not greet a new session. The key
 * also names the user, so that signing in as someone else in the same tab does not show them the last person's plan.
 *
 * What is stored is untrusted on the way back (another version of the app wrote it, or anyone with the devtools): it
 * is parsed with the schema below, and dropped whole when it does not fit.
 */

/** Longest text kept for a field: above every limit the forms check (a draft may exceed them: the form says so). */
const TEXT_MAX = 20_000;
const text = z.string().max(TEXT_MAX);

/** How a plan was made (`PlanMethod`). */
const methodSchema = z.enum(["llm", "library", "fallback"]);

/** A knowledge point as being edited: any text typed so far, checked only when the outline runs. */
const pointDraftSchema = z.object({
  id: z.string().min(1).max(40),
  category: text,
  topic: text,
  search_keywords: z.array(z.string().max(MAX_KEYWORD_CHARS)).max(MAX_KEYWORDS),
  importance: z.enum(IMPORTANCE),
  keywordsFromTopic: z.boolean().optional(),
});

/** The outline editor's state worth keeping: its draft and the point ids used (the undo history is not kept). */
export const editorSnapshotSchema = z.object({
  draft: z.object({
    title: text,
    knowledge_points: z.array(pointDraftSchema).max(MAX_POINTS),
    search_strategy: text,
    year_from: z.string().max(4),
    year_to: z.string().max(4),
  }),
  usedIds: z.array(z.string().max(40)).max(1000),
});
export type EditorSnapshot = z.infer<typeof editorSnapshotSchema>;

const common = {
  question: text,
  /** Quick mode: no clarifying questions. */
  quick: z.boolean(),
};

export const plannerDraftSchema = z.discriminatedUnion("stage", [
  /** A question typed, not yet sent (or sent, and its reply not yet come: it is sent again from here). */
  z.object({ stage: z.literal("ask"), ...common }),
  z.object({
    stage: z.literal("clarify"),
    ...common,
    questions: z.array(clarifyingQuestionSchema).min(1).max(10),
    method: methodSchema,
    warning: text.optional(),
    /** Answers as typed, by question id. */
    answers: z.record(z.string().max(40), z.string().max(LIMITS.clarifyingAnswerChars)),
  }),
  z.object({
    stage: z.literal("edit"),
    ...common,
    answers: z.array(clarifyingAnswerSchema).max(LIMITS.clarifyingAnswers),
    /** The outline as the server made it (the editor's starting point). */
    outline: outlineSchema,
    method: methodSchema,
    warning: text.optional(),
    /** The outline as edited since; none before the editor reported its first state. */
    editor: editorSnapshotSchema.optional(),
  }),
]);
export type PlannerDraft = z.infer<typeof plannerDraftSchema>;

/** The storage key of a user's draft (the storage itself is the tab's). */
export function plannerDraftKey(userId: string): string {
  return `lectern:deep-draft:${userId}`;
}

/** The draft in a stored text, or null when it is not JSON or not a draft. */
export function parsePlannerDraft(raw: string): PlannerDraft | null {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = plannerDraftSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** The draft stored under `key`, or null: none, or not a draft (then it is removed). */
export function readPlannerDraft(storage: Storage, key: string): PlannerDraft | null {
  let raw: string | null;
  try {
    raw = storage.getItem(key);
  } catch {
    // storage refused (disabled, or a sandboxed frame): no draft, as if none was kept
    return null;
  }
  if (raw === null) return null;
  const draft = parsePlannerDraft(raw);
  if (!draft) clearPlannerDraft(storage, key);
  return draft;
}

/** Keeps `draft` under `key` (a full or refused storage loses the draft, never the page). */
export function writePlannerDraft(storage: Storage, key: string, draft: PlannerDraft): void {
  try {
    storage.setItem(key, JSON.stringify(draft));
  } catch {
    // quota exceeded or storage disabled: the plan goes on, it is only not kept
  }
}

export function clearPlannerDraft(storage: Storage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // as above
  }
}
