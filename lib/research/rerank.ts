import type { ContentResult } from "@/lib/search/search";
import { tokenize } from "@/lib/text/terms";
import type { Intent } from "./types";

export interface RerankedResult extends ContentResult {
  /** The score the research ranks by: fused retrieval score, keyword coverage and the intent's boost. */
  rerankScore: number;
  coverage: number;
  intentBoost: number;
}

const NUMBER = /(?<![\p{L}])\d+(?:[.,]\d+)?\s*(?:%|x\b|×|points?\b|ms\b|s\b)?/gu;
const COMPARATIVE =
  /\b(than|compared|comparison|outperform\w*|versus|vs\.?|better|worse|higher|lower|whereas|unlike)\b/gi;
const DEFINITIONAL =
  /\b(we propose|we introduce|is defined|refers to|consists of|we present|our method|our approach)\b/gi;

/** How much a passage looks like what the intent asks for, in [0, 1]. */
export function intentBoost(intent: Intent, text: string): number {
  const count = (re: RegExp) => (text.match(re) ?? []).length;
  switch (intent) {
    case "performance":
      return Math.min(1, count(NUMBER) / 6);
    case "comparison":
      return Math.min(1, count(COMPARATIVE) / 3);
    case "summary":
    case "technical":
      return Math.min(1, count(DEFINITIONAL) / 2);
    default:
      return 0;
  }
}

/** Share of the keywords (stemmed) the passage contains. */
export function keywordCoverage(keywords: string[], text: string): number {
  const wanted = new Set(keywords.flatMap((k) => tokenize(k)));
  if (wanted.size === 0) return 0;
  const have = new Set(tokenize(text));
  let n = 0;
  for (const w of wanted) if (have.has(w)) n++;
  return n / wanted.size;
}

/**
 * Contextual re-ranking: the fused retrieval score (normalised to the best) counts most; keyword coverage and the
 * intent's boost (numbers for performance questions, comparatives for comparisons) reorder close calls.
 */
export function rerank(
  results: ContentResult[],
  { intent, keywords }: { intent: Intent; keywords: string[] },
): RerankedResult[] {
  const max = Math.max(...results.map((r) => r.score), 1e-9);
  return results
    .map((r) => {
      const coverage = keywordCoverage(keywords, r.text);
      const boost = intentBoost(intent, r.text);
      return { ...r, coverage, intentBoost: boost, rerankScore: 0.6 * (r.score / max) + 0.3 * coverage + 0.1 * boost };
    })
    .sort((a, b) => b.rerankScore - a.rerankScore);
}
