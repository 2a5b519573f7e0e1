import { z } from "zod";
import { clarifyingAnswerSchema } from "@/lib/research/deep/types";
import { LIMIT_MESSAGES, LIMITS } from "@/lib/research/limits";
import { questionSchema, runIdSchema } from "../schema";

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters (but tab and newline) is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** The answers to the clarifying questions: blank ones are dropped (the researcher skipped them). */
export const answersSchema = z
  .array(clarifyingAnswerSchema, "The answers must be a list.")
  .max(LIMITS.clarifyingAnswers, `At most ${LIMITS.clarifyingAnswers} answers.`)
  .default([])
  .transform((list) =>
    list
      .map((a) => ({
        ...a,
        question: a.question.replace(CONTROL, " ").trim(),
        answer: a.answer.replace(CONTROL, " ").trim(),
        ...(a.choices ? { choices: a.choices.map((c) => c.replace(CONTROL, " ").trim()).filter(Boolean) } : {}),
      }))
      .filter((a) => a.answer.length > 0),
  );

/** "improve: …" feedback: the same bounds `improveRun` enforces (LIMITS.improveFeedback). */
export const feedbackSchema = z
  .string("The feedback must be text.")
  .transform((t) => t.replace(CONTROL, " ").trim())
  .pipe(
    z
      .string()
      .min(LIMITS.improveFeedback.minChars, LIMIT_MESSAGES.improveTooShort)
      .max(LIMITS.improveFeedback.maxChars, LIMIT_MESSAGES.improveTooLong),
  );

export const clarifyInputSchema = z.object({ question: questionSchema });
export type ClarifyInput = z.infer<typeof clarifyInputSchema>;

export const outlineInputSchema = z.object({ question: questionSchema, answers: answersSchema });
export type OutlineInput = z.infer<typeof outlineInputSchema>;

/** The outline itself is checked by `parseOutline` (lib), whose message names the field. */
export const startDeepInputSchema = z.object({
  question: questionSchema,
  outline: z.unknown(),
  answers: answersSchema,
});
export type StartDeepInput = z.infer<typeof startDeepInputSchema>;

export const rerunInputSchema = z.object({ runId: runIdSchema, outline: z.unknown() });
export type RerunInput = z.infer<typeof rerunInputSchema>;

export const improveInputSchema = z.object({ runId: runIdSchema, feedback: feedbackSchema });
export type ImproveInput = z.infer<typeof improveInputSchema>;
