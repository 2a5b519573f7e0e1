/**
 * The knowledge graph on a library: `npm run bench:graph [-- --json] [--keep] [--sample N] [--gold file.json]`.
 *
 * Works on the library in LECTERN_DATA_DIR (or DATABASE_URL), which must already hold the papers — for the corpus:
 * `LECTERN_DATA_DIR=/tmp/graph-lib npm run cli -- ingest ../shared/corpus/papers` (about 3 minutes), then
 * `LECTERN_DATA_DIR=/tmp/graph-lib npm run bench:graph`. Reports:
 * - the offline build's time for the whole library, from an empty graph (unless --keep), and its counts;
 * - that every accepted edge's quote is its page's text at its offsets (must be 100 %);
 * - query latency p50/p95 (improves_on direct and transitive, uses/extends, evaluated on, entity lookup, an unknown
 *   name), after a warm-up pass;
 * - recall against the gold set's dev split (bench/graph/gold-dev.json, scored by bench/graph/score.ts) when present —
 *   never the held-out split unless it is named with --gold;
 * - with --sample N, N accepted edges drawn at random (seeded) to read and judge by hand.
 */
import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "@/db";
import { clearGraph, listEdgesWithPages } from "@/db/queries/graph";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { getEnv } from "@/lib/env";
import { buildGraph } from "@/lib/graph/build";
import {
  coOccurring,
  evaluatedOn,
  type GraphEdgeResult,
  graphStats,
  improvesOn,
  listEdges,
  lookupEntity,
  usesOrExtends,
} from "@/lib/graph/query";
import { runLibraryUpgrades } from "@/lib/library/upgrades";
import { percentile } from "@/lib/search/eval";
import { loadGold, type PredictedEdge, scoreAgainstGold } from "./graph/score";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** A small seeded generator (mulberry32) for the sample. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main() {
  const json = process.argv.includes("--json");
  const keep = process.argv.includes("--keep");
  const sampleSize = Number(arg("--sample") ?? 0);
  const goldFile = arg("--gold") ?? path.join(import.meta.dirname, "graph", "gold-dev.json");
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const env = getEnv();
  const handle = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.dataDir,
    role: "bench:graph",
    prepare: runLibraryUpgrades,
  });
  const db = handle.db;
  try {
    const embedder = getEmbeddingProvider(env);
    if (!keep) await clearGraph(db);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const report = await buildGraph(db, {
      embedder,
      onProgress: (e) => {
        if (e.type === "paper" && e.done % 10 === 0) log(`${e.stage} ${e.done}/${e.of}`);
      },
    });
    const buildMs = Math.round(performance.now() - t0);
    // CPU time of this process (PGlite runs in it too): what the build costs when the machine is shared
    const cpu = process.cpuUsage(cpu0);
    const buildCpuMs = Math.round((cpu.user + cpu.system) / 1000);
    if (report.papers === 0) {
      log(`No papers in ${handle.location}: ingest the corpus first (see the header of bench/graph.ts).`);
      return 2;
    }
    const stats = await graphStats(db);

    // every accepted quote is its page's text at its offsets
    const accepted = await listEdgesWithPages(db, { statuses: ["accepted"] });
    const onPage = accepted.filter(
      (e) => e.pageText !== null && e.pageText.slice(e.charStart, e.charEnd) === e.quote && e.quote.length <= 300,
    ).length;

    // queries: the most connected entities as targets
    const targets = new Map<string, number>();
    const sources = new Map<string, number>();
    const datasets = new Map<string, number>();
    const edgesAll = await listEdges(db, { limit: 100_000 });
    for (const e of edgesAll) {
      if (e.relation === "improves_on") targets.set(e.target.name, (targets.get(e.target.name) ?? 0) + 1);
      if (e.relation === "uses" || e.relation === "extends")
        sources.set(e.source.name, (sources.get(e.source.name) ?? 0) + 1);
      if (e.relation === "evaluates_on") datasets.set(e.target.name, (datasets.get(e.target.name) ?? 0) + 1);
    }
    const top = (m: Map<string, number>, n: number) =>
      [...m.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k]) => k);
    const queries: { kind: string; run: () => Promise<unknown> }[] = [
      ...top(targets, 5).map((t) => ({ kind: "improves_on", run: () => improvesOn(db, t) })),
      ...top(targets, 5).map((t) => ({
        kind: "improves_on transitive",
        run: () => improvesOn(db, t, { transitive: true }),
      })),
      ...top(sources, 5).map((t) => ({ kind: "uses/extends", run: () => usesOrExtends(db, t) })),
      ...top(datasets, 5).map((t) => ({ kind: "evaluated on", run: () => evaluatedOn(db, t) })),
      ...top(targets, 5).map((t) => ({ kind: "entity", run: () => lookupEntity(db, t) })),
      ...top(targets, 3).map((t) => ({ kind: "co-occurring", run: () => coOccurring(db, t) })),
      { kind: "unknown name", run: () => lookupEntity(db, "Nonexistent Method 42") },
    ];
    for (const q of queries) await q.run(); // warm-up
    const times: number[] = [];
    const byKind = new Map<string, number[]>();
    for (let round = 0; round < 5; round++) {
      for (const q of queries) {
        const s = performance.now();
        await q.run();
        const ms = performance.now() - s;
        times.push(ms);
        byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), ms]);
      }
    }
    const round1 = (x: number) => Math.round(x * 10) / 10;

    // recall on the gold set's dev split
    let gold: ReturnType<typeof scoreAgainstGold> | null = null;
    if (fs.existsSync(goldFile)) {
      const goldEdges = loadGold(goldFile);
      const predicted: PredictedEdge[] = edgesAll.map((e) => ({
        relation: e.relation,
        source: { name: e.source.as_written ? `${e.source.as_written} (${e.source.name})` : e.source.name },
        target: { name: e.target.as_written ? `${e.target.as_written} (${e.target.name})` : e.target.name },
        paper_id: e.paper_id,
        page: e.page,
        quote: e.quote,
      }));
      gold = scoreAgainstGold(goldEdges, predicted);
    }

    // a sample to read
    const rand = seeded(20261126);
    const pool = [...edgesAll];
    const sample: GraphEdgeResult[] = [];
    while (sample.length < sampleSize && pool.length > 0)
      sample.push(pool.splice(Math.floor(rand() * pool.length), 1)[0] as GraphEdgeResult);

    const result = {
      database: handle.driver,
      papers: report.papers,
      buildMs,
      buildCpuMs,
      build: report,
      stats: stats.totals,
      entitiesByType: stats.entities,
      edgesByRelation: stats.edges,
      acceptedQuotesOnPage: { onPage, of: accepted.length },
      queryMs: {
        p50: round1(percentile(times, 50)),
        p95: round1(percentile(times, 95)),
        n: times.length,
        byKind: Object.fromEntries([...byKind].map(([k, v]) => [k, { p50: round1(percentile(v, 50)), n: v.length }])),
      },
      gold: gold
        ? {
            file: path.relative(process.cwd(), goldFile),
            overall: gold.overall,
            recall: gold.recall,
            missed: gold.missed,
          }
        : null,
      sample: sample.map((e) => ({
        relation: e.relation,
        source: e.source.as_written ?? e.source.name,
        target: e.target.as_written ?? e.target.name,
        paper_id: e.paper_id,
        page: e.page,
        confidence: e.confidence,
        quote: e.quote.replace(/\s+/g, " "),
      })),
    };
    if (json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      console.log(
        `Graph build (${report.extractor}, ${handle.driver}): ${report.papers} papers in ${(buildMs / 1000).toFixed(1)} s (CPU ${(buildCpuMs / 1000).toFixed(1)} s)`,
      );
      console.log(
        `  candidates ${report.candidates}, accepted ${report.accepted}, review ${report.review}, rejected ${JSON.stringify(report.rejected)}`,
      );
      console.log(
        `  entities ${stats.totals.entities} (+${stats.totals.aliases} aliases): ${stats.entities.map((e) => `${e.type} ${e.count}`).join(", ")}`,
      );
      console.log(`  edges: ${stats.edges.map((e) => `${e.relation}/${e.status} ${e.count}`).join(", ")}`);
      console.log(`Accepted quotes on their page: ${onPage}/${accepted.length}`);
      console.log(`Queries: p50 ${result.queryMs.p50} ms, p95 ${result.queryMs.p95} ms over ${times.length}`);
      for (const [k, v] of Object.entries(result.queryMs.byKind)) console.log(`  ${k}: p50 ${v.p50} ms`);
      if (result.gold) {
        console.log(`Gold (${result.gold.file}): recall ${result.gold.overall.k}/${result.gold.overall.n}`);
        for (const [r, s] of Object.entries(result.gold.recall)) if (s.n > 0) console.log(`  ${r}: ${s.k}/${s.n}`);
      } else console.log("Gold: no gold-dev.json yet");
      for (const s of result.sample) {
        console.log(
          `- [${s.relation}] ${s.source} → ${s.target} (${s.paper_id} p${s.page}, ${s.confidence}): ${s.quote}`,
        );
      }
    }
    return 0;
  } finally {
    await handle.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
