/**
 * Do offline deep-research outlines cover every part of a question that asks about two things?
 *
 *   npm run bench:outline -- bench/questions/outline-two-part.json [--json]
 *
 * Each question of the file names, per part, a few names of its topic (`expect`); a part is covered when one of them
 * stands as a whole word in a knowledge point's topic or keywords (case-insensitive: "RAG" does not match "average").
 * Reports the parts covered, the questions with every part covered (Wilson 95 % intervals), the points per outline, and
 * the points named only by one of a question's `modifiers` (a context word such as "LLMs", singular or plural), over
 * the library the environment names (the corpus, ingested; offline: no model).
 */
import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "@/db";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { getEnv } from "@/lib/env";
import { runLibraryUpgrades } from "@/lib/library/upgrades";
import { generateOutline } from "@/lib/research/deep";
import { wilson } from "@/lib/research/eval-answers";
import { escapeRegExp } from "@/lib/text/regexp";

interface Question {
  id: string;
  question: string;
  parts: { paper: string; expect: string[] }[];
  /** Broad words the question uses as context, no topic of either part ("LLMs"): a point named only that is noise. */
  modifiers?: string[];
}

function covers(names: string[], texts: string[]): boolean {
  return names.some((n) => {
    const re = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(n.toLowerCase())}(?![\\p{L}\\p{N}])`, "u");
    return texts.some((t) => re.test(t));
  });
}

async function main() {
  const argv = process.argv.slice(2);
  const json = argv.includes("--json");
  const file = argv.find((a) => !a.startsWith("--"));
  if (!file) throw new Error("usage: npm run bench:outline -- <questions.json> [--json]");
  const set = JSON.parse(fs.readFileSync(path.resolve(file), "utf8")) as { questions: Question[] };
  const env = getEnv();
  const handle = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.dataDir,
    role: "bench:outline",
    prepare: runLibraryUpgrades,
  });
  const deps = {
    db: handle.db,
    embedder: getEmbeddingProvider(env),
    chatModel: null,
    llmTimeoutMs: env.LECTERN_LLM_TIMEOUT_MS,
    runTimeoutMs: env.LECTERN_RESEARCH_TIMEOUT_MS,
  };
  const rows: { id: string; covered: boolean[]; method: string; topics: string[]; modifierPoints: string[] }[] = [];
  try {
    for (const q of set.questions) {
      const r = await generateOutline(deps, q.question);
      const points = r.value.knowledge_points;
      const texts = points.map((p) => [p.topic, ...p.search_keywords].join(" | ").toLowerCase());
      const bare = (t: string) => t.toLowerCase().replace(/s$/, "");
      const modifiers = new Set((q.modifiers ?? []).map(bare));
      rows.push({
        id: q.id,
        covered: q.parts.map((p) => covers(p.expect, texts)),
        method: r.method,
        topics: points.map((p) => p.topic),
        modifierPoints: points.map((p) => p.topic).filter((t) => modifiers.has(bare(t))),
      });
    }
  } finally {
    await handle.close();
  }
  const parts = rows.flatMap((r) => r.covered);
  const partK = parts.filter(Boolean).length;
  const allK = rows.filter((r) => r.covered.every(Boolean)).length;
  const summary = {
    file,
    questions: rows.length,
    partsCovered: { k: partK, n: parts.length, ...(wilson(partK, parts.length) ?? { low: 0, high: 1 }) },
    questionsFullyCovered: { k: allK, n: rows.length, ...(wilson(allK, rows.length) ?? { low: 0, high: 1 }) },
    pointsPerOutline: rows.reduce((s, r) => s + r.topics.length, 0) / Math.max(1, rows.length),
    modifierPoints: rows.reduce((s, r) => s + r.modifierPoints.length, 0),
    rows,
  };
  if (json) {
    console.log(JSON.stringify(summary, null, 2));
    return;
  }
  for (const r of rows)
    console.log(`${r.id} ${r.covered.map((c) => (c ? "Y" : "n")).join("")} (${r.method}) ${r.topics.join(" · ")}`);
  const pct = (x: { k: number; n: number; low: number; high: number }) =>
    `${x.k}/${x.n} (95% CI ${x.low.toFixed(2)}–${x.high.toFixed(2)})`;
  console.log(`\nparts covered: ${pct(summary.partsCovered)}`);
  console.log(`questions with every part covered: ${pct(summary.questionsFullyCovered)}`);
  console.log(`points per outline: ${summary.pointsPerOutline.toFixed(1)}`);
  console.log(`points named only by a context word of the question: ${summary.modifierPoints}`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
