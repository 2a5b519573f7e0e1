import fs from "node:fs/promises";
import { parseArgs } from "node:util";
import type { DbHandle } from "@/db";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { getEnv } from "@/lib/env";
import { LecternError } from "@/lib/errors";
import {
  EVAL_RETRIEVERS,
  type EvalRetriever,
  type EvalSummary,
  evalQuestionsSchema,
  runEvaluation,
} from "@/lib/search/eval";
import { info, printJson } from "../output";

const USAGE = "usage: npm run cli -- eval <questions.json> [--retriever fts|vector|hybrid|hybrid-mmr|all] [--json]";

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

export async function runEval(handle: DbHandle, args: string[], json: boolean): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: false,
    options: { retriever: { type: "string", default: "hybrid-mmr" }, json: { type: "boolean" } },
  });
  const file = positionals[0];
  if (!file) {
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
  let raw: unknown;
  try {
    raw = JSON.parse(await fs.readFile(file, "utf8"));
  } catch (e) {
    throw new LecternError("bad_request:file", `Cannot read questions from ${file}: ${(e as Error).message}`);
  }
  const parsed = evalQuestionsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new LecternError(
      "bad_request:file",
      `${file} is not a question list: ${parsed.error.issues[0]?.message ?? "invalid"}`,
    );
  }
  const embedder = getEmbeddingProvider(getEnv());
  const results = [];
  for (const r of retrievers) {
    info(`Evaluating ${r} on ${parsed.data.length} questions…`);
    results.push(await runEvaluation(handle.db, parsed.data, embedder, { retriever: r }));
  }
  if (json) {
    printJson(
      retrievers.length === 1
        ? { summary: results[0]?.summary, questions: results[0]?.outcomes }
        : results.map((r) => ({ summary: r.summary, questions: r.outcomes })),
    );
    return 0;
  }
  process.stdout.write(`${formatEvalTable(results.map((r) => r.summary))}\n`);
  return 0;
}
