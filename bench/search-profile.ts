/**
 * Where one search's time and CPU go: `npx tsx bench/search-profile.ts [--index content|summaries] [--rounds N]
 * [--warmup N]` on the library in LECTERN_DATA_DIR (or DATABASE_URL). Runs the dev questions as `GET /api/search`
 * runs them (the same lib call and options, k 20, proximity shown; plus the per-account rate-limit write and the
 * response's JSON), warm, and prints per search: wall time and this process's CPU (p50/p95), the database server's
 * CPU (PostgreSQL: its backends' CPU from /proc, summed over the run — run it on a database nothing else uses), and
 * each kind of SQL statement's round trips and time, the query embedding's time. For a profile of the JavaScript,
 * run it under `node --cpu-prof --import tsx`.
 */
import fs from "node:fs";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase, queryRows } from "@/db";
import { consumeRateLimit } from "@/lib/auth/rate-limit";
import { getEmbeddingProvider } from "@/lib/embeddings";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { getEnv } from "@/lib/env";
import { runLibraryUpgrades } from "@/lib/library/upgrades";
import { percentile } from "@/lib/search/eval";
import { searchContent, searchSummaries } from "@/lib/search/search";
import { loadBenchQuestions } from "./questions";

const { values } = parseArgs({
  options: {
    index: { type: "string", default: "content" },
    rounds: { type: "string", default: "5" },
    warmup: { type: "string", default: "3" },
  },
});

/** Which statement a SQL text is, by what it reads. */
function label(text: string): string {
  const t = text.replace(/\s+/g, " ");
  if (/^(begin|commit|rollback)/i.test(t.trim())) return "transaction begin/commit";
  if (t.includes("set_config")) return "set local";
  if (t.includes("unnest(to_tsvector")) return "query lexemes (+ row count, signature)";
  if (t.includes("count(*)::int as n from") && t.includes("to_tsquery")) return "document frequencies";
  if (t.includes("with q as")) return "full text (BM25, cover density)";
  if (t.includes("with nearest as")) return "vector (HNSW) + hubness";
  if (t.includes("with v as materialized")) return "pairwise similarities (MMR)";
  if (t.includes("tsvector_to_array") && t.includes("from chunks")) return "content rows (+ positions)";
  if (t.includes("tsvector_to_array")) return "summary rows";
  if (t.includes("c.chunk_uid, c.text from chunks")) return "result texts";
  if (t.includes("rate_limit")) return "rate limit";
  if (t.includes("latent_model")) return "latent model id";
  return t.slice(0, 60);
}

interface StatementStats {
  n: number;
  ms: number;
}
const statements = new Map<string, StatementStats>();
let recording = false;

/** Times every statement a pg client sends (the pool's and the transactions' alike). */
function instrumentPg(): void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === "string" ? first : ((first as { text?: string })?.text ?? "");
    const t0 = performance.now();
    const done = () => {
      if (!recording) return;
      const key = label(text);
      const s = statements.get(key) ?? { n: 0, ms: 0 };
      s.n++;
      s.ms += performance.now() - t0;
      statements.set(key, s);
    };
    const last = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = (...cb: unknown[]) => {
        done();
        return (last as (...a: unknown[]) => unknown)(...cb);
      };
      return original.apply(this, args);
    }
    const r = original.apply(this, args);
    if (r && typeof (r as Promise<unknown>).then === "function") (r as Promise<unknown>).then(done, done);
    return r;
  };
}

/** CPU seconds (user + system) of the given processes, from /proc (clock ticks of 1/100 s). */
function cpuOf(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the backend has gone
    }
  }
  return ticks / 100;
}

async function main() {
  instrumentPg();
  const questions = loadBenchQuestions().questions.map((q) => q.question);
  const env = getEnv();
  const handle = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.dataDir,
    role: "bench:search-profile",
    prepare: runLibraryUpgrades,
  });
  const db = handle.db;
  const base = getEmbeddingProvider(env);
  let embedMs = 0;
  const embedder: EmbeddingProvider = {
    ...base,
    async embed(texts, options) {
      const t0 = performance.now();
      try {
        return await base.embed(texts, options);
      } finally {
        if (recording) embedMs += performance.now() - t0;
      }
    },
  };
  const summaries = values.index === "summaries";
  const opts = { showProximity: true, includeBibliography: false } as const;
  let serialiseMs = 0;
  let limitMs = 0;
  const one = async (q: string) => {
    const l0 = performance.now();
    await consumeRateLimit(db, "search:bench-profile", { limit: 1e9, windowMs: 60_000 }, "");
    limitMs += recording ? performance.now() - l0 : 0;
    const results = summaries
      ? await searchSummaries(db, q, embedder, opts)
      : await searchContent(db, q, embedder, { ...opts, k: 20 });
    const s0 = performance.now();
    JSON.stringify({ ok: true, data: { index: values.index, results } });
    if (recording) serialiseMs += performance.now() - s0;
  };
  const backends = async () =>
    handle.driver === "postgres"
      ? (
          await queryRows<{ pid: number }>(
            db,
            sql`select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`,
          )
        ).map((r) => Number(r.pid))
      : [];
  try {
    for (let r = 0; r < Number(values.warmup); r++) for (const q of questions) await one(q);
    const pids = await backends();
    const dbCpu0 = cpuOf(pids);
    const wall: number[] = [];
    const cpu: number[] = [];
    recording = true;
    const t0 = performance.now();
    for (let r = 0; r < Number(values.rounds); r++) {
      for (const q of questions) {
        const c0 = process.cpuUsage();
        const w0 = performance.now();
        await one(q);
        wall.push(performance.now() - w0);
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
      }
    }
    const total = performance.now() - t0;
    recording = false;
    const morePids = await backends();
    const dbCpu = cpuOf([...new Set([...pids, ...morePids])]) - dbCpu0;
    const n = wall.length;
    const per = (x: number) => Math.round((x / n) * 100) / 100;
    const load = fs.existsSync("/proc/loadavg") ? fs.readFileSync("/proc/loadavg", "utf8").trim() : "";
    console.log(
      JSON.stringify(
        {
          driver: handle.driver,
          index: values.index,
          searches: n,
          loadavg: load,
          wallMs: { p50: percentile(wall, 50), p95: percentile(wall, 95), mean: per(total) },
          nodeCpuMs: { p50: percentile(cpu, 50), p95: percentile(cpu, 95), mean: per(cpu.reduce((a, b) => a + b, 0)) },
          dbServerCpuMsPerSearch: handle.driver === "postgres" ? per(dbCpu * 1000) : null,
          perSearchMs: {
            embedQuery: per(embedMs),
            rateLimit: per(limitMs),
            serialiseJson: per(serialiseMs),
          },
          statementsPerSearch: Object.fromEntries(
            [...statements.entries()]
              .sort((a, b) => b[1].ms - a[1].ms)
              .map(([k, s]) => [k, { roundTrips: per(s.n), ms: per(s.ms) }]),
          ),
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
