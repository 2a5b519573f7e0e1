import { parseArgs } from "node:util";
import type { DbHandle } from "@/db";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { getEnv } from "@/lib/env";
import { LecternError } from "@/lib/errors";
import {
  comparisonsOf,
  EVAL_RETRIEVERS,
  type EvalRetriever,
  type EvalSummary,
  type RetrieverComparison,
  readEvalQuestions,
  runEvaluation,
} from "@/lib/search/eval";
import { DEFAULT_LEVEL, DEFAULT_RESAMPLES } from "@/lib/search/significance";
import { info, printJson } from "../output";

const USAGE =
  "usage: npm run cli -- eval <questions.json> [more.json …] [--retriever fts|vector|hybrid|hybrid-mmr|all] [--json]";

export function formatEvalTable(summaries: EvalSummary[]): string {
  const f = (x: number | null) => (x === null ? "—" : x.toFixed(2));
  const header =
    "| retriever | page R@5 | page R@10 | paper R@5 | MRR | nDCG@10 | passage hit | none → any | p50 ms | p95 ms |";
  const sep = "|---|---|---|---|---|---|---|---|---|---|";
  const rows = summaries.map(
    (s) =>
      `| ${s.retriever} | ${f(s.pageRecall5)} | ${f(s.pageRecall10)} | ${f(s.paperRecall5)} | ${f(s.mrr)} | ${f(s.ndcg10)} | ` +
      `${f(s.passageHitRate)} | ${f(s.noneFalseHitRate)} | ${s.latencyP50Ms.toFixed(0)} | ${s.latencyP95Ms.toFixed(0)} |`,
  );
  return [header, sep, ...rows].join("\n");
}

/** Each retriever's means with their 95% bootstrap intervals. */
export function formatIntervalTable(summaries: EvalSummary[]): string {
  const f = (x: number) => x.toFixed(2);
  const cell = (s: EvalSummary, m: keyof EvalSummary["intervals"]) =>
    `${f(s[m])} (${f(s.intervals[m].low)}–${f(s.intervals[m].high)})`;
  return [
    "| retriever | page R@5 | page R@10 | MRR | nDCG@10 |",
    "|---|---|---|---|---|",
    ...summaries.map(
      (s) =>
        `| ${s.retriever} | ${cell(s, "pageRecall5")} | ${cell(s, "pageRecall10")} | ${cell(s, "mrr")} | ${cell(s, "ndcg10")} |`,
    ),
  ].join("\n");
}

/** Paired differences between retrievers with their permutation-test p-values. */
export function formatComparisonTable(comparisons: RetrieverComparison[]): string {
  const p = (x: number) => (x < 0.001 ? "< 0.001" : x.toFixed(3));
  const cell = (t: RetrieverComparison["tests"]["mrr"]) => {
    const d = t.difference.toFixed(3);
    const signed = Number(d) > 0 ? `+${d}` : Number(d) < 0 ? `−${d.slice(1)}` : (0).toFixed(3);
    return `${signed} (p ${p(t.pValue)}, Holm ${p(t.adjustedPValue)})`;
  };
  return [
    "| comparison | Δ page R@5 | Δ page R@10 | Δ MRR | Δ nDCG@10 |",
    "|---|---|---|---|---|",
    ...comparisons.map(
      (c) =>
        `| ${c.a} − ${c.b} | ${cell(c.tests.pageRecall5)} | ${cell(c.tests.pageRecall10)} | ${cell(c.tests.mrr)} | ${cell(c.tests.ndcg10)} |`,
    ),
  ].join("\n");
}

export async function runEval(handle: DbHandle, args: string[], json: boolean): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: false,
    options: { retriever: { type: "string", default: "hybrid-mmr" }, json: { type: "boolean" } },
  });
  if (positionals.length === 0) {
    info(USAGE);
    return 2;
  }
  const which = String(values.retriever);
  const retrievers: EvalRetriever[] =
    which === "all"
      ? EVAL_RETRIEVERS
      : EVAL_RETRIEVERS.includes(which as EvalRetriever)
        ? [which as EvalRetriever]
        : [];
  if (retrievers.length === 0) throw new LecternError("bad_request:input", `Unknown retriever "${which}".\n${USAGE}`);
  // several files are evaluated as one set (a dev set and a held-out one, say)
  const { questions } = await readEvalQuestions(positionals);
  const embedder = getEmbeddingProvider(getEnv());
  const results = [];
  for (const r of retrievers) {
    info(`Evaluating ${r} on ${questions.length} questions…`);
    results.push(await runEvaluation(handle.db, questions, embedder, { retriever: r }));
  }
  const comparisons = comparisonsOf(results);
  if (json) {
    printJson(
      retrievers.length === 1
        ? { summary: results[0]?.summary, questions: results[0]?.outcomes }
        : { runs: results.map((r) => ({ summary: r.summary, questions: r.outcomes })), comparisons },
    );
    return 0;
  }
  const summaries = results.map((r) => r.summary);
  const answerable = summaries[0]?.answerable ?? 0;
  const out = [
    formatEvalTable(summaries),
    "",
    `${DEFAULT_LEVEL * 100}% bootstrap intervals of the means (${answerable} answerable questions, resampled ` +
      `${DEFAULT_RESAMPLES.toLocaleString("en")} times):`,
    "",
    formatIntervalTable(summaries),
  ];
  if (comparisons.length > 0) {
    out.push(
      "",
      "Paired differences, question by question: two-sided sign-flip permutation test, and its p-value adjusted for",
      "the other comparisons of the same metric (Holm). Holm ≥ 0.05: not told apart by this question set.",
      "",
      formatComparisonTable(comparisons),
    );
  }
  process.stdout.write(`${out.join("\n")}\n`);
  return 0;
}
