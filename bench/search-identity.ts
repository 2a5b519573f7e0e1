/**
 * Same results before and after a change to the search code: `npx tsx bench/search-identity.ts --write FILE` records
 * what every question of the dev set and of bench/questions/*.json gets from the library in LECTERN_DATA_DIR (or
 * DATABASE_URL); `--compare FILE` runs them again and fails on any difference — the ranked chunk ids, every score,
 * rank and relevance (numbers within 1e-9, relative), the texts and the queries. Searches, per question: content as
 * `GET /api/search` asks for it (k 20, proximity shown), content with the defaults (what research asks), summaries
 * as the route asks, and — every question with the next one — a two-query content and summary search (the research
 * orchestrator's expanded queries). For optimisations that must not move a result; a change meant to move results is
 * measured with `npm run cli -- eval` instead.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "@/db";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { getEnv } from "@/lib/env";
import { runLibraryUpgrades } from "@/lib/library/upgrades";
import { searchContent, searchSummaries } from "@/lib/search/search";
import { DEV_QUESTIONS, loadBenchQuestions } from "./questions";

const QUESTION_FILES = [
  DEV_QUESTIONS,
  ...["heldout.json", "heldout-2.json", "answers-heldout.json", "answers-heldout-2.json"].map((f) =>
    path.resolve(path.dirname(new URL(import.meta.url).pathname), "questions", f),
  ),
];

const { values } = parseArgs({ options: { write: { type: "string" }, compare: { type: "string" } } });
if (!values.write === !values.compare) {
  console.error("usage: npx tsx bench/search-identity.ts --write FILE | --compare FILE");
  process.exit(2);
}

/** Relative difference under which two numbers count as the same (the database's float sums move the last bits). */
const EPSILON = 1e-9;

function differences(a: unknown, b: unknown, at: string, out: string[]): void {
  if (out.length > 20) return;
  if (typeof a === "number" && typeof b === "number") {
    const scale = Math.max(1, Math.abs(a), Math.abs(b));
    if (!(Math.abs(a - b) <= EPSILON * scale) && !(Number.isNaN(a) && Number.isNaN(b))) out.push(`${at}: ${a} ≠ ${b}`);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${at}: length ${a.length} ≠ ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) differences(a[i], b[i], `${at}[${i}]`, out);
    return;
  }
  if (a && b && typeof a === "object" && typeof b === "object") {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`, out);
    }
    return;
  }
  if (a !== b) out.push(`${at}: ${JSON.stringify(a)?.slice(0, 80)} ≠ ${JSON.stringify(b)?.slice(0, 80)}`);
}

async function main() {
  const questions = QUESTION_FILES.filter((f) => fs.existsSync(f)).flatMap((f) =>
    loadBenchQuestions(f).questions.map((q) => q.question),
  );
  const unique = [...new Set(questions)];
  const env = getEnv();
  const handle = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.dataDir,
    role: "bench:search-identity",
    prepare: runLibraryUpgrades,
  });
  const embedder = getEmbeddingProvider(env);
  const db = handle.db;
  const route = { showProximity: true, includeBibliography: false } as const;
  const record: Record<string, unknown> = {};
  try {
    for (const [i, q] of unique.entries()) {
      const next = unique[(i + 1) % unique.length] as string;
      record[q] = {
        route: await searchContent(db, q, embedder, { ...route, k: 20 }),
        defaults: await searchContent(db, q, embedder),
        summaries: await searchSummaries(db, q, embedder, route),
        twoQueries: await searchContent(db, [q, next], embedder),
        twoQuerySummaries: await searchSummaries(db, [q, next], embedder),
      };
    }
  } finally {
    await handle.close();
  }
  if (values.write) {
    fs.writeFileSync(values.write, JSON.stringify(record));
    console.log(`${unique.length} questions × 5 searches recorded in ${values.write}`);
    return;
  }
  const before = JSON.parse(fs.readFileSync(values.compare as string, "utf8")) as Record<string, unknown>;
  const diffs: string[] = [];
  differences(before, JSON.parse(JSON.stringify(record)), "", diffs);
  if (diffs.length > 0) {
    console.error(`DIFFERENT from ${values.compare}:\n${diffs.join("\n")}`);
    process.exit(1);
  }
  const results = Object.values(record).reduce<number>(
    (n, r) => n + Object.values(r as Record<string, unknown[]>).reduce((m, l) => m + l.length, 0),
    0,
  );
  console.log(`identical: ${unique.length} questions × 5 searches, ${results} results (numbers within ${EPSILON})`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
