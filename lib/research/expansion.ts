import { generateText, type LanguageModel } from "ai";
import { z } from "zod";
import { tokenize } from "@/lib/text/terms";
import type { QueryAnalysis } from "./analysis";
import { parseModelJson } from "./json";
import type { Intent } from "./types";

export const MAX_EXPANDED_QUERIES = 6;

/** Words an intent's answer tends to contain, added to the question's keywords. */
const INTENT_TERMS: Record<Intent, string[]> = {
  performance: ["results", "accuracy", "evaluation", "outperforms"],
  comparison: ["compared", "baseline", "outperforms", "difference"],
  technical: ["method", "approach", "we propose"],
  summary: ["we propose", "contribution", "overview"],
  unknown: [],
};

/** Rule-based expansions: the keywords alone, and the keywords with the intent's vocabulary. */
export function ruleExpansions(question: string, analysis: QueryAnalysis): string[] {
  const kw = analysis.keywords.slice(0, 8).join(" ");
  const out: string[] = [];
  if (kw && kw.toLowerCase() !== question.trim().toLowerCase()) out.push(kw);
  const extra = INTENT_TERMS[analysis.intent];
  if (kw && extra.length > 0) out.push(`${analysis.keywords.slice(0, 5).join(" ")} ${extra.join(" ")}`);
  return out;
}

/**
 * Words of scientific prose too generic to steer a search (they are in most passages of most papers). Stemmed, as
 * `tokenize` gives them.
 */
const GENERIC = new Set(
  tokenize(
    "model models method methods result results paper papers approach approaches work works show shows shown table " +
      "figure section using used based task tasks data dataset number different large small new first second third " +
      "require requires required resulting result compute computed computing training trained train performance " +
      "example examples case cases set sets value values further following given general well make makes made include " +
      "includes including provide provides use uses respectively thus since however therefore propose proposed study " +
      "experiment experiments evaluate evaluated analysis present presents order also approximately appendix",
  ),
);

/**
 * Pseudo-relevance feedback: terms frequent across the top passages of a first search but absent from the question
 * (the library's own words for what the question paraphrases). A term must appear in at least two passages.
 */
export function feedbackTerms(question: string, passages: string[], max = 6): string[] {
  const asked = new Set(tokenize(question));
  const df = new Map<string, number>();
  const surface = new Map<string, Map<string, number>>();
  for (const p of passages) {
    const seen = new Set<string>();
    for (const m of p.normalize("NFKC").matchAll(/[\p{L}][\p{L}\p{N}-]{2,}/gu)) {
      const word = m[0].toLowerCase();
      const [stem] = tokenize(word);
      if (!stem || asked.has(stem) || GENERIC.has(stem) || stem.length < 4) continue;
      const forms = surface.get(stem) ?? new Map<string, number>();
      forms.set(word, (forms.get(word) ?? 0) + 1);
      surface.set(stem, forms);
      if (!seen.has(stem)) {
        seen.add(stem);
        df.set(stem, (df.get(stem) ?? 0) + 1);
      }
    }
  }
  return [...df.entries()]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, max)
    .map(([stem]) => {
      const forms = [...(surface.get(stem) ?? new Map<string, number>()).entries()].sort((a, b) => b[1] - a[1]);
      return forms[0]?.[0] ?? stem;
    });
}

const llmQueriesSchema = z.object({ queries: z.array(z.string().min(2).max(300)).max(6) });

/** Up to three alternative search queries from the model (other words for the same need). */
export async function llmExpansions(
  model: LanguageModel,
  question: string,
  analysis: QueryAnalysis,
  { signal }: { signal?: AbortSignal } = {},
): Promise<string[]> {
  const { text } = await generateText({
    model,
    instructions:
      "You write search queries for a library of scientific papers. Give up to 3 short alternative queries that use " +
      'the vocabulary a paper answering the question would use. Reply with JSON only: {"queries": ["...", "..."]}',
    prompt: `Question: ${question}\nIntent: ${analysis.intent}\nKeywords: ${analysis.keywords.join(", ")}`,
    temperature: 0.2,
    maxOutputTokens: 300,
    maxRetries: 0,
    abortSignal: signal,
  });
  return parseModelJson(text, llmQueriesSchema).queries.slice(0, 3);
}

/** The original first, then the others in order, without duplicates (case and spacing ignored), at most `max`. */
export function mergeQueries(question: string, lists: string[][], max = MAX_EXPANDED_QUERIES): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const q of [question, ...lists.flat()]) {
    const text = q.replace(/\s+/g, " ").trim();
    const key = text.toLowerCase();
    if (!text || seen.has(key)) continue;
    seen.add(key);
    out.push(text);
    if (out.length >= max) break;
  }
  return out;
}
