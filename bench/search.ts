/**
 * Search latency on the library in LECTERN_DATA_DIR (or DATABASE_URL): `npm run bench:search [-- questions.json]`.
 * Uses the dev questions when present (../shared/corpus/dev-questions.json), else a few built-in questions, and runs
 * each through searchContent and searchSummaries (hybrid + MMR, the app's defaults). Prints p50/p95 per index:
 * - `firstPass`: the first pass over the questions after the database opened (a fresh process: the JIT, PGlite's
 *   WebAssembly and the database's caches are still warming up);
 * - `latencyMs`: steady state, BENCH_ROUNDS passes (default 3) after BENCH_WARMUP passes (default 3) — what a server
 *   that has answered a few dozen searches sees. On PGlite the same query keeps getting faster over its first ~20
 *   repetitions (489 → ~30 ms), so one warm-up pass is not enough to measure the steady state.
 */
import path from "node:path";
import { openDatabase } from "@/db";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { getEnv } from "@/lib/env";
import { runLibraryUpgrades } from "@/lib/library/upgrades";
import { percentile } from "@/lib/search/eval";
import { searchContent, searchSummaries } from "@/lib/search/search";
import { loadBenchQuestions } from "./questions";

async function main() {
  // the first argument that is not an option (`--json` is one: it used to be taken for the questions file)
  const file = process.argv.slice(2).find((a) => !a.startsWith("--"));
  const questions = loadBenchQuestions(file ? path.resolve(file) : undefined).questions.map((q) => q.question);
  const env = getEnv();
  const handle = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.dataDir,
    role: "bench:search",
    prepare: runLibraryUpgrades,
  });
  const embedder = getEmbeddingProvider(env);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const warmup = Number(process.env.BENCH_WARMUP ?? 3);
  try {
    const first: number[] = [];
    for (const q of questions) {
      const t0 = performance.now();
      await searchContent(handle.db, q, embedder);
      first.push(performance.now() - t0);
    }
    for (let r = 1; r < warmup; r++) {
      for (const q of questions) {
        await searchContent(handle.db, q, embedder);
        await searchSummaries(handle.db, q, embedder);
      }
    }
    const report: Record<string, { p50: number; p95: number; n: number }> = {};
    for (const [name, run] of [
      ["content", (q: string) => searchContent(handle.db, q, embedder)],
      ["summary", (q: string) => searchSummaries(handle.db, q, embedder)],
    ] as const) {
      const times: number[] = [];
      for (let r = 0; r < rounds; r++) {
        for (const q of questions) {
          const t0 = performance.now();
          await run(q);
          times.push(performance.now() - t0);
        }
      }
      report[name] = { p50: percentile(times, 50), p95: percentile(times, 95), n: times.length };
    }
    console.log(
      JSON.stringify(
        {
          driver: handle.driver,
          questions: questions.length,
          warmup,
          rounds,
          firstPass: { content: { p50: percentile(first, 50), p95: percentile(first, 95), n: first.length } },
          latencyMs: report,
        },
        null,
        2,
      ),
    );
  } finally {
    await handle.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
