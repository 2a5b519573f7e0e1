/**
 * The kind of answer a question asks for, by rules: weighted patterns over its wording. The research orchestrator's
 * query analysis starts from it (lib/research/analysis.ts, where a configured model may overrule it), and content
 * search reads it to decide whether a question asks for one stated fact (see FACT_SEEKING).
 */
export type Intent = "performance" | "comparison" | "technical" | "summary" | "unknown";

const PATTERNS: Record<Exclude<Intent, "unknown">, { re: RegExp; weight: number; label: string }[]> = {
  performance: [
    {
      re: /\b(accuracy|f1|bleu|rouge|perplexity|exact match|top-?[15]|recall@?\d*|precision|error rate|wer|score[sd]?)\b/i,
      weight: 2,
      label: "a metric",
    },
    {
      re: /\b(how (well|much|fast|many|accurate)|perform(s|ed|ance)?|results?|benchmarks?|state[- ]of[- ]the[- ]art|sota|outperform\w*|improve(s|d|ment)?|gains?|speed-?ups?|slow(s|er)?( down)?|latency|throughput|emissions?|cost)\b/i,
      weight: 1.5,
      label: "results or efficiency",
    },
    { re: /\d+(\.\d+)?\s*(%|percent|x\b|×)/i, weight: 1, label: "a number" },
  ],
  comparison: [
    {
      re: /\b(compare[sd]?|comparison|comparing|versus|vs\.?|contrast\w*|differ(s|ence|ences|ent)?|relative to|trade-?offs?)\b/i,
      weight: 2,
      label: "a comparison",
    },
    { re: /\b(better|worse|faster|slower|more|less|higher|lower) than\b/i, weight: 1.5, label: "a comparative" },
    { re: /\b(which (one|method|model|approach)|or the)\b/i, weight: 1, label: "a choice" },
  ],
  technical: [
    { re: /^\s*(why|how)\b/i, weight: 1.5, label: "a why/how question" },
    {
      re: /\b(how (does|do|is|are|can)|mechanism|architecture|algorithm|implement\w*|derive\w*|formula|equation|objective|loss|layer|attention|training procedure|optimi[sz]\w*)\b/i,
      weight: 1.5,
      label: "a method or mechanism",
    },
  ],
  summary: [
    {
      re: /\b(summar\w*|overview|survey|state of|landscape|main (ideas?|contributions?|findings?)|key (ideas?|points?|findings?)|tell me about|introduc\w* to)\b/i,
      weight: 2,
      label: "an overview",
    },
    { re: /^\s*(what (is|are)|explain|describe)\b/i, weight: 1, label: "a definition" },
  ],
};

export interface IntentScores {
  /** The best-scoring intent, "unknown" when no pattern matched. */
  intent: Intent;
  /** Its pattern weight, and how far ahead of the next intent it is. */
  score: number;
  margin: number;
  /** What matched, in words ("a metric", "a why/how question"). */
  labels: string[];
}

/** The intent whose patterns the question matches most (weighted); "unknown" when none matches. */
export function classifyIntent(question: string): IntentScores {
  const scores: { intent: Exclude<Intent, "unknown">; score: number; labels: string[] }[] = [];
  for (const [intent, patterns] of Object.entries(PATTERNS) as [
    Exclude<Intent, "unknown">,
    (typeof PATTERNS)["performance"],
  ][]) {
    const hit = patterns.filter((p) => p.re.test(question));
    scores.push({ intent, score: hit.reduce((a, p) => a + p.weight, 0), labels: hit.map((p) => p.label) });
  }
  scores.sort((a, b) => b.score - a.score);
  const [best, second] = scores;
  if (!best || best.score === 0) return { intent: "unknown", score: 0, margin: 0, labels: [] };
  return { intent: best.intent, score: best.score, margin: best.score - (second?.score ?? 0), labels: best.labels };
}

/**
 * Intents whose questions ask for one stated fact — a result ("how much faster…", "what accuracy…") or a mechanism
 * ("why does…", "how does… work") — which a single sentence of the answering page usually states. Comparisons,
 * overviews and questions of no recognised kind are answered across passages or papers.
 */
export const FACT_SEEKING: ReadonlySet<Intent> = new Set<Intent>(["performance", "technical"]);

/**
 * Whether a question asks to compare or choose, whatever intent wins its scoring: "How does BERT compare to ELMo?" is
 * a "how" question first (technical) and a comparison too; "Which is better for retrieval, DPR or BM25?" and "LoRA or
 * adapters: which should I use?" match no intent's pattern. Deep research asks such a question which approaches to
 * compare. (Not read by search: the intent that wins stays what search and the answer weigh.)
 */
export function asksToCompare(question: string): boolean {
  return COMPARES.some((re) => re.test(question));
}

/**
 * What asks to compare or choose: the comparison words (not "different", "contrastive" or "relative to", which name
 * things as often as they compare them), "X is better than Y", and a "which" that asks which is better or which to use.
 */
const COMPARES = [
  /\b(compare[sd]?|comparison|comparing|versus|vs\.?|contrast(s|ed|ing)?|differ(s|ence|ences)?|trade-?offs?|pros and cons)\b/i,
  /\b(better|worse|faster|slower|cheaper|preferable) than\b/i,
  /\bwhich\b[^.?!]*\b(is|are|was|were) (the )?(better|best|worse|faster|preferable)\b/i,
  /\bwhich\b[^.?!]*\b(should|would) (i|we|one) (use|choose|pick)\b/i,
  /\b(choose|pick|decide) between\b/i,
];
