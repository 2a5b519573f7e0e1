import { z } from "zod";
import { LIMITS } from "../limits";

/** Deep research's plan: clarifying questions, then a knowledge-point outline the researcher can edit and rerun. */

export const CLARIFY_PURPOSES = ["scope", "focus", "depth", "timerange"] as const;
export type ClarifyPurpose = (typeof CLARIFY_PURPOSES)[number];

export const clarifyingQuestionSchema = z.object({
  id: z.string().min(1).max(40),
  question: z.string().min(3).max(400),
  purpose: z.enum(CLARIFY_PURPOSES),
  /** Suggested answers (chips in the UI); free text is always allowed. */
  options: z.array(z.string().min(1).max(120)).max(6).default([]),
  /**
   * Several of the options may be chosen at once ("Which approaches should be compared?"); otherwise one. Set where the
   * question is made; a model's unusable value counts as absent (one).
   */
  multiple: z.boolean().optional().catch(undefined),
});
export type ClarifyingQuestion = z.infer<typeof clarifyingQuestionSchema>;

export const clarifyingAnswerSchema = z.object({
  id: z.string().min(1).max(40),
  question: z.string().max(400).default(""),
  /** The answer in words: for a question that takes several options, the chosen ones and any text beside them. */
  answer: z.string().max(LIMITS.clarifyingAnswerChars),
  /** The options chosen of a question that takes several (`multiple`): the outline uses each on its own. */
  choices: z.array(z.string().trim().min(1).max(120)).max(6).optional(),
});
export type ClarifyingAnswer = z.infer<typeof clarifyingAnswerSchema>;

export const IMPORTANCE = ["high", "medium", "low"] as const;
export type Importance = (typeof IMPORTANCE)[number];

const keyword = z.string().trim().min(1).max(LIMITS.keywordChars);

export const knowledgePointSchema = z.object({
  id: z.string().trim().min(1).max(40),
  category: z.string().trim().min(1).max(60),
  topic: z.string().trim().min(2).max(200),
  search_keywords: z.array(keyword).min(1).max(LIMITS.pointKeywords),
  importance: z.enum(IMPORTANCE),
});
export type KnowledgePoint = z.infer<typeof knowledgePointSchema>;

const yearSchema = z.number().int().min(1900).max(2100);

/** An outline as the researcher may edit it: 1–12 points, an optional year range honoured by every search. */
export const outlineSchema = z
  .object({
    title: z.string().trim().min(2).max(300),
    knowledge_points: z.array(knowledgePointSchema).min(LIMITS.outlinePoints.min).max(LIMITS.outlinePoints.max),
    search_strategy: z.string().trim().max(1000).default(""),
    year_from: yearSchema.optional(),
    year_to: yearSchema.optional(),
  })
  .refine((o) => o.year_from === undefined || o.year_to === undefined || o.year_from <= o.year_to, {
    message: "The year range is empty (from is after to).",
    path: ["year_to"],
  })
  .refine((o) => new Set(o.knowledge_points.map((p) => p.id)).size === o.knowledge_points.length, {
    message: "Knowledge point ids must be unique.",
    path: ["knowledge_points"],
  });
export type Outline = z.infer<typeof outlineSchema>;

/** A generated outline must have 4–8 points (an edited one may have 1–12). */
export const GENERATED_POINTS = { min: 4, max: 8 } as const;
