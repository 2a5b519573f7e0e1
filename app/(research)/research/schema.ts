import { z } from "zod";
import { LIMIT_MESSAGES, LIMITS } from "@/lib/research/limits";

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters (but tab and newline) is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** A question: text with at least one word, at most LIMITS.questionChars characters once trimmed. */
export const questionSchema = z
  .string("The question must be text.")
  .transform((q) => q.replace(CONTROL, " ").trim())
  .pipe(
    z
      .string()
      .min(1, LIMIT_MESSAGES.emptyQuestion)
      .max(LIMITS.questionChars, {
        error: (issue) => LIMIT_MESSAGES.questionTooLong(String(issue.input ?? "").length),
      })
      .regex(/[\p{L}\p{N}]/u, "The question has no words in it (only punctuation or symbols)."),
  );

/** Run ids are 128 random bits in base64url (lib/research/runs.ts `newRunId`); anything else is not a run. */
export const runIdSchema = z
  .string("The run id must be text.")
  .trim()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "That is not a research run id.");

export const startResearchInputSchema = z.object({
  question: questionSchema,
  /** The form's "search the web too" toggle (ignored when no web search provider is configured). */
  web: z.boolean("The web search choice must be on or off.").optional().default(false),
});
export type StartResearchInput = z.infer<typeof startResearchInputSchema>;

export const runInputSchema = z.object({ runId: runIdSchema });
export type RunInput = z.infer<typeof runInputSchema>;

export const feedbackInputSchema = z.object({
  runId: runIdSchema,
  rating: z.enum(["helpful", "not_helpful"], "Feedback is “helpful” or “not helpful”."),
  comment: z
    .string("The comment must be text.")
    .transform((c) => c.replace(CONTROL, " ").trim())
    .pipe(z.string().max(LIMITS.feedbackCommentChars, LIMIT_MESSAGES.commentTooLong))
    .optional()
    .transform((c) => c || null),
});
export type FeedbackInput = z.input<typeof feedbackInputSchema>;

/** The first message of a failed parse, for the user. */
export function firstIssue(error: z.ZodError, fallback: string): string {
  return error.issues[0]?.message ?? fallback;
}
