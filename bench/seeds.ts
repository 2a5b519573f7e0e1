/**
 * Retrieval quality over several fits of the offline latent model:
 * `npm run bench:seeds -- [questions.json …] [--seeds 0,1,2,3,4,5] [--retrievers fts,vector,hybrid,hybrid-mmr] [--json]`
 *
 * The latent model is a randomised SVD (lib/embeddings/latent.ts): its seed alone moves hybrid MRR on the dev set by
 * ±0.03, more than most changes we try. So a change to retrieval is judged by its mean over several fits, not by one.
 * For each seed the library's model is fitted again with that seed (every vector rewritten, every hubness computed
 * again) and the question files are evaluated as one set (as `cli eval a.json b.json` does); the means and ranges
 * over the seeds are printed per retriever and metric. Seed 0 stands for the library's default seed. At the end the
 * default model is fitted again, so the library is left as the app would have it.
 *
 * It rewrites every vector of the library in LECTERN_DATA_DIR (or DATABASE_URL) several times: run it on a copy, or
 * on a library you do not mind being re-embedded (the result is the same library). Needs the latent embedder.
 * Question files default to the dev set and bench/questions/heldout.json.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "@/db";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { refreshHubness } from "@/lib/embeddings/hubness";
import { refreshLatentVectors } from "@/lib/embeddings/latent-index";
import { getEnv } from "@/lib/env";
import { runLibraryUpgrades } from "@/lib/library/upgrades";
import {
  EVAL_RETRIEVERS,
  type EvalRetriever,
  type EvalSummary,
  readEvalQuestions,
  runEvaluation,
  summarize,
} from "@/lib/search/eval";
import { DEV_QUESTIONS } from "./questions";

const METRICS = ["pageRecall5", "pageRecall10", "paperRecall5", "mrr", "ndcg10", "noneFalseHitRate"] as const;
type Metric = (typeof METRICS)[number];

type Stats = { values: (number | null)[]; mean: number | null; min: number | null; max: number | null };

export interface SeedSweep {
  seeds: number[];
  /** The question sets: every file together ("all"), then each file alone (by its name), when there are several. */
  sets: { name: string; questions: number }[];
  /** Per set, retriever and metric: the value for each seed (same order as `seeds`), their mean, min and max. */
  results: Record<string, Record<string, Record<Metric, Stats>>>;
}

function stats(values: (number | null)[]) {
  const xs = values.filter((v): v is number => v !== null);
  if (xs.length === 0) return { values, mean: null, min: null, max: null };
  return { values, mean: xs.reduce((a, b) => a + b, 0) / xs.length, min: Math.min(...xs), max: Math.max(...xs) };
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      seeds: { type: "string", default: "0,1,2,3,4,5" },
      retrievers: { type: "string", default: EVAL_RETRIEVERS.join(",") },
      json: { type: "boolean", default: false },
    },
  });
  const files =
    positionals.length > 0
      ? positionals.map((f) => path.resolve(f))
      : [DEV_QUESTIONS, path.resolve("bench/questions/heldout.json")].filter((f) => fs.existsSync(f));
  if (files.length === 0) throw new Error("No question file: pass one (the dev set is not here).");
  const { questions, byFile } = await readEvalQuestions(files);
  const sets = [
    { name: "all", qids: new Set(questions.map((q) => q.qid)) },
    ...(byFile.length > 1 ? byFile.map((f) => ({ name: path.basename(f.file), qids: new Set(f.qids) })) : []),
  ];
  const seeds = String(values.seeds)
    .split(",")
    .map((s) => Number(s.trim()));
  if (seeds.some((s) => !Number.isInteger(s) || s < 0)) throw new Error("--seeds wants whole numbers ≥ 0, e.g. 0,1,2");
  const retrievers = String(values.retrievers).split(",") as EvalRetriever[];
  for (const r of retrievers) if (!EVAL_RETRIEVERS.includes(r)) throw new Error(`Unknown retriever ${r}`);

  const env = getEnv();
  const embedder = getEmbeddingProvider(env);
  if (embedder.kind !== "latent")
    throw new Error(`The seed sweep refits the latent model; the embedder is ${embedder.kind}.`);
  const handle = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.dataDir,
    role: "bench:seeds",
    prepare: runLibraryUpgrades,
  });
  /** Per set and retriever, one summary per seed. */
  const runs = new Map<string, EvalSummary[]>();
  const refit = async (seed: number) => {
    await refreshLatentVectors(handle.db, {
      dimensions: embedder.dimensions,
      force: true,
      seed: seed === 0 ? undefined : seed,
    });
    await refreshHubness(handle.db, { recompute: true });
  };
  let refitted = false;
  try {
    for (const seed of seeds) {
      refitted ||= seed !== 0;
      const t0 = performance.now();
      await refit(seed);
      const line: string[] = [];
      for (const r of retrievers) {
        const { summary, outcomes } = await runEvaluation(handle.db, questions, embedder, { retriever: r });
        for (const set of sets) {
          const key = `${set.name}\u0000${r}`;
          runs.set(key, [
            ...(runs.get(key) ?? []),
            summarize(
              r,
              outcomes.filter((o) => set.qids.has(o.qid)),
            ),
          ]);
        }
        line.push(
          `${r} R@5 ${summary.pageRecall5.toFixed(3)} MRR ${summary.mrr.toFixed(3)} nDCG ${summary.ndcg10.toFixed(3)}`,
        );
      }
      console.error(`seed ${seed} (${((performance.now() - t0) / 1000).toFixed(0)} s): ${line.join(" | ")}`);
    }
  } finally {
    // leave the library as the app fits it, whatever happened
    if (refitted) await refit(0).catch((e) => console.error(`The default model could not be fitted again: ${e}`));
    await handle.close();
  }
  const sweep: SeedSweep = {
    seeds,
    sets: sets.map((s) => ({ name: s.name, questions: s.qids.size })),
    results: Object.fromEntries(
      sets.map((set) => [
        set.name,
        Object.fromEntries(
          retrievers.map((r) => [
            r,
            Object.fromEntries(
              METRICS.map((m) => [m, stats((runs.get(`${set.name}\u0000${r}`) ?? []).map((s) => s[m]))]),
            ) as Record<Metric, Stats>,
          ]),
        ),
      ]),
    ),
  };
  if (values.json) {
    console.log(JSON.stringify(sweep, null, 2));
    return;
  }
  const f = (x: number | null) => (x === null ? "—" : x.toFixed(3));
  console.log(`Seeds ${seeds.join(", ")}: mean over the seeds (min–max)`);
  for (const set of sweep.sets) {
    console.log(`\n${set.name} (${set.questions} questions)\n`);
    console.log(`| retriever | ${METRICS.join(" | ")} |`);
    console.log(`|---|${METRICS.map(() => "---").join("|")}|`);
    for (const r of retrievers) {
      const cells = METRICS.map((m) => {
        const s = sweep.results[set.name]?.[r]?.[m];
        return s ? `${f(s.mean)} (${f(s.min)}–${f(s.max)})` : "—";
      });
      console.log(`| ${r} | ${cells.join(" | ")} |`);
    }
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
