import { generateText, type LanguageModel } from "ai";
import { z } from "zod";
import { type GraphQuestion, recognizeGraphQuestion } from "@/lib/graph/question";
import { classifyIntent } from "@/lib/search/intent";
import { parseModelJson } from "./json";
import type { Intent } from "./types";

export interface QueryAnalysis {
  intent: Intent;
  /** In [0, 1]. */
  confidence: number;
  /** The question's content words and phrases, most specific first. */
  keywords: string[];
  method: "rules" | "llm";
  /** Why this intent (the patterns that matched, or the model's reason). */
  reasoning: string;
  /** The question asks how works relate ("what improves on X"): what to ask the knowledge graph (by rules). */
  graph: GraphQuestion | null;
}

/** Below this rule confidence, a configured LLM is asked. */
export const RULE_CONFIDENCE_THRESHOLD = 0.7;

const STOP = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have how i if in into is it its of on or " +
    "our so such than that the their them then there these they this those to was we were what when where which while " +
    "who why will with would you your about between does did paper papers study work use used using one two also more " +
    "most much many well versus vs compare compared comparison difference different tell explain describe"
  ).split(" "),
);

/** Content words and quoted phrases of the question, in order, deduplicated; ids and acronyms kept as typed. */
export function extractKeywords(question: string, max = 10): string[] {
  const out: string[] = [];
  const add = (k: string) => {
    const key = k.trim();
    if (key && !out.some((o) => o.toLowerCase() === key.toLowerCase())) out.push(key);
  };
  for (const m of question.matchAll(/["“]([^"”]{2,80})["”]/g)) add(m[1] as string);
  for (const m of question.normalize("NFKC").matchAll(/[\p{L}\p{N}][\p{L}\p{N}\-.]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu)) {
    const w = m[0];
    const lower = w.toLowerCase();
    if (STOP.has(lower) || (w.length < 3 && !/^[A-Z0-9]{2}$/.test(w))) continue;
    add(/[A-Z].*[A-Z]|\d/.test(w) ? w : lower);
  }
  return out.slice(0, max);
}

/** Rule-based intent: weighted pattern matches; confidence grows with the winner's score and its margin. */
export function analyzeWithRules(question: string): QueryAnalysis {
  const best = classifyIntent(question);
  const keywords = extractKeywords(question);
  const graph = recognizeGraphQuestion(question);
  if (best.intent === "unknown") {
    return {
      intent: "unknown",
      confidence: 0.3,
      keywords,
      method: "rules",
      reasoning: "No intent pattern matched; searching with the question's own words.",
      graph,
    };
  }
  const confidence = Math.min(0.95, 0.4 + 0.1 * best.score + 0.12 * best.margin);
  return {
    intent: best.intent,
    confidence: Math.round(confidence * 100) / 100,
    keywords,
    method: "rules",
    reasoning: `Looks like a ${best.intent} question: it asks for ${best.labels.join(", ")}.`,
    graph,
  };
}

const llmAnalysisSchema = z.object({
  intent: z.enum(["performance", "comparison", "technical", "summary", "unknown"]),
  confidence: z.coerce.number().min(0).max(1).catch(0.6),
  keywords: z.array(z.string().min(1).max(80)).max(12).catch([]),
  reason: z.string().max(400).optional().catch(undefined),
});

/** Asks the model for the intent as JSON; throws when the call fails or the JSON is unusable (callers keep the rules). */
export async function analyzeWithLlm(
  model: LanguageModel,
  question: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<QueryAnalysis> {
  const { text } = await generateText({
    model,
    instructions:
      "You classify research questions about a library of scientific papers. Reply with JSON only, no prose: " +
      '{"intent": "performance|comparison|technical|summary|unknown", "confidence": 0..1, "keywords": ["..."], "reason": "..."}',
    prompt: `Question: ${question}`,
    temperature: 0,
    maxOutputTokens: 300,
    maxRetries: 0,
    abortSignal: signal,
  });
  const parsed = parseModelJson(text, llmAnalysisSchema);
  const keywords = parsed.keywords.length > 0 ? parsed.keywords : extractKeywords(question);
  return {
    intent: parsed.intent,
    confidence: parsed.confidence,
    keywords,
    method: "llm",
    reasoning: parsed.reason ?? `The model classified this as a ${parsed.intent} question.`,
    graph: recognizeGraphQuestion(question),
  };
}
