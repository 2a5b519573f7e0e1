/**
 * Load on the deployed topology: `DATABASE_URL=postgres://… npm run bench:load [-- --corpus DIR] [--app-dir DIR]
 * [--levels 1,10,50] [--json]`. Needs PostgreSQL (the server of DATABASE_URL; the benchmark makes its own databases
 * there and drops them) and a production build of the app in --app-dir (default: here; `npm run build`).
 *
 * 1. Ingestion: the corpus queued (`cli ingest --enqueue-only`), then worked by one `npm run worker` process, and again
 *    (a fresh database) by two: pages per second from the workers' start until every file and the library step have
 *    ended. Meanwhile an app instance (LECTERN_WORKER=off) serves the queue panel's polls; its event-loop delay is
 *    recorded (bench/server-loop-delay.mjs).
 * 2. Research and search over HTTP (`POST /api/research`, `GET /api/search`), offline, at each concurrency level, on
 *    one instance and then on two (requests alternate between them) with two idle workers: latency p50/p95/max, errors
 *    (an HTTP error, or a run that failed other than by finding nothing on the question: `no_papers`, `no_answer`),
 *    and each instance's event-loop delay during the level. Each
 *    concurrent request signs in as an account of its own (the per-account limits stay the page's).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { type DbHandle, openDatabase } from "@/db";
import { addPerson, createOwner } from "@/lib/auth/people";
import { signIn } from "@/lib/auth/session";
import { percentile } from "@/lib/search/eval";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const { values } = parseArgs({
  options: {
    corpus: { type: "string", default: path.join(ROOT, "../shared/corpus/papers") },
    "app-dir": { type: "string", default: ROOT },
    levels: { type: "string", default: "1,10,50" },
    json: { type: "boolean", default: false },
  },
});
const APP_DIR = path.resolve(values["app-dir"] as string);
const LEVELS = (values.levels as string).split(",").map(Number);
const SERVER = process.env.DATABASE_URL;
if (!SERVER) {
  console.error("bench:load needs PostgreSQL: set DATABASE_URL (any database on the server; its own are made there).");
  process.exit(2);
}
if (!fs.existsSync(path.join(APP_DIR, ".next", "BUILD_ID"))) {
  console.error(`No production build in ${APP_DIR}/.next: run \`npm run build\` there (or pass --app-dir).`);
  process.exit(2);
}
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-load-"));
const log = (line: string) => process.stderr.write(`[load] ${line}\n`);
const children: ChildProcess[] = [];

function dbUrl(name: string): string {
  const u = new URL(SERVER as string);
  u.pathname = `/${name}`;
  return u.toString();
}

async function freshDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
  return dbUrl(name);
}

async function dropDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`).catch(() => {});
  await admin.end();
}

function baseEnv(db: string, dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: db,
    LECTERN_DATA_DIR: dataDir,
    LECTERN_WORKER: "off",
    LECTERN_WARMUP: "0",
    OPENAI_API_KEY: "",
    OPENAI_BASE_URL: "",
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

function start(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): ChildProcess {
  const out = fs.openSync(path.join(WORK, `${name}.log`), "a");
  const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", out, out] });
  children.push(child);
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await Promise.race([done, new Promise((r) => setTimeout(r, 60_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

function startWorker(name: string, env: NodeJS.ProcessEnv): ChildProcess {
  return start(name, process.execPath, ["--import", "tsx", "cli/index.ts", "worker", "--concurrency", "2"], env);
}

interface Instance {
  url: string;
  child: ChildProcess;
  loopFile: string;
}

async function startInstance(name: string, port: number, env: NodeJS.ProcessEnv): Promise<Instance> {
  const loopFile = path.join(WORK, `${name}.loop`);
  const preload = new URL(`file://${path.join(ROOT, "bench/server-loop-delay.mjs")}`).href;
  const child = start(
    name,
    process.execPath,
    [path.join(APP_DIR, "node_modules/next/dist/bin/next"), "start", "--hostname", "127.0.0.1", "--port", String(port)],
    { ...env, NODE_OPTIONS: `--import ${preload}`, LECTERN_BENCH_LOOP_DELAY: loopFile, PORT: String(port) },
    APP_DIR,
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited; see ${WORK}/${name}.log`);
    const ok = await fetch(`${url}/sign-in`).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) return { url, child, loopFile };
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${name} did not start; see ${WORK}/${name}.log`);
}

/** The event-loop delay an instance recorded between two moments: the highest per-second p99 and max. */
function loopDelay(inst: Instance, from: number, to: number): { p99Ms: number; maxMs: number; seconds: number } {
  const lines = fs.existsSync(inst.loopFile) ? fs.readFileSync(inst.loopFile, "utf8").trim().split("\n") : [];
  const rows = lines
    .map((l) => l.split(" ").map(Number))
    .filter((r) => (r[0] as number) >= from && (r[0] as number) <= to + 1000);
  return {
    p99Ms: Math.max(0, ...rows.map((r) => r[2] as number)),
    maxMs: Math.max(0, ...rows.map((r) => r[3] as number)),
    seconds: rows.length,
  };
}

// ---- 1. Ingestion ---------------------------------------------------------------------------------------------------

interface IngestFigures {
  workers: number;
  files: number;
  ingested: number;
  pages: number;
  filesSeconds: number;
  totalSeconds: number;
  pagesPerSecond: number;
  appLoopDelay: { p99Ms: number; maxMs: number; seconds: number };
}

async function ingestWith(workers: number, port: number): Promise<IngestFigures> {
  const name = `lectern_load_ingest${workers}`;
  const db = await freshDatabase(name);
  const env = baseEnv(db, path.join(WORK, `data-ingest${workers}`));
  const enqueue = start(
    `enqueue${workers}`,
    process.execPath,
    ["--import", "tsx", "cli/index.ts", "ingest", "--enqueue-only", values.corpus as string],
    env,
  );
  const code = await new Promise((r) => enqueue.once("exit", r));
  if (code !== 0) throw new Error(`enqueueing failed; see ${WORK}/enqueue${workers}.log`);
  const app = await startInstance(`app-ingest${workers}`, port, env);
  // past its cold start (the first requests load the server's modules) before the delay is measured
  for (let i = 0; i < 5; i++) await fetch(`${app.url}/sign-in`).catch(() => null);
  await new Promise((r) => setTimeout(r, 2000));
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  const t0 = Date.now();
  const procs = Array.from({ length: workers }, (_, i) => startWorker(`worker${workers}-${i}`, env));
  let filesDone = 0;
  for (;;) {
    // the queue panel's poll, as a page would make it, keeps the app serving while the workers ingest
    await fetch(`${app.url}/sign-in`).catch(() => null);
    const { rows } = await client.query(
      `select count(*) filter (where f.status in ('queued','running'))::int as open,
              count(*) filter (where f.status in ('ingested','replaced'))::int as ingested,
              count(*)::int as files, coalesce(sum(f.pages) filter (where f.status in ('ingested','replaced')), 0)::int as pages,
              bool_and(b.library_status not in ('waiting','running')) as library_done
         from ingest_files f join ingest_batches b on b.id = f.batch_id`,
    );
    const r = rows[0];
    if (r.open === 0 && filesDone === 0) filesDone = Date.now();
    if (r.open === 0 && r.library_done) {
      const end = Date.now();
      const figures: IngestFigures = {
        workers,
        files: r.files,
        ingested: r.ingested,
        pages: r.pages,
        filesSeconds: (filesDone - t0) / 1000,
        totalSeconds: (end - t0) / 1000,
        pagesPerSecond: r.pages / ((end - t0) / 1000),
        appLoopDelay: loopDelay(app, t0, end),
      };
      await client.end();
      await Promise.all([...procs.map(stop), stop(app.child)]);
      await dropDatabase(name);
      return figures;
    }
    await new Promise((res) => setTimeout(res, 500));
  }
}

// ---- 2. Research and search over HTTP -------------------------------------------------------------------------------

interface LevelFigures {
  kind: "research" | "search";
  topology: string;
  concurrency: number;
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  loopDelay: { instance: string; p99Ms: number; maxMs: number }[];
}

const QUESTIONS: string[] = (() => {
  const file = path.join(ROOT, "../shared/corpus/dev-questions.json");
  if (fs.existsSync(file))
    return (JSON.parse(fs.readFileSync(file, "utf8")) as { question: string }[]).map((q) => q.question);
  return ["How does multi-head attention work?", "What does dense passage retrieval improve on?"];
})();

async function accounts(handle: DbHandle, n: number): Promise<string[]> {
  const password = "bench load password, long enough";
  const owner = await createOwner(handle.db, { email: "owner@load.bench", name: "Owner", password });
  const cookies: string[] = [];
  for (let i = 0; i < n; i++) {
    const email = `member${i}@load.bench`;
    await addPerson(handle.db, owner, { email, name: `Member ${i}`, password, role: "member" });
    const { setCookies } = await signIn(handle.db, { email, password }, new Headers());
    cookies.push(setCookies.map((c) => c.split(";")[0]).join("; "));
  }
  return cookies;
}

async function timed(fn: () => Promise<string>): Promise<{ ms: number; status: string }> {
  const t0 = performance.now();
  let status: string;
  try {
    status = await fn();
  } catch (e) {
    status = `exception: ${(e as Error).message}`;
  }
  return { ms: performance.now() - t0, status };
}

async function research(url: string, cookie: string, question: string): Promise<string> {
  const res = await fetch(`${url}/api/research`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ question }),
  });
  const body = (await res.json().catch(() => null)) as {
    ok: boolean;
    data?: { status: string; error?: { code: string } };
  } | null;
  if (res.status !== 200 || !body?.ok) return `http ${res.status}`;
  const status = body.data?.status ?? "unknown";
  return body.data?.error ? `${status}:${body.data.error.code}` : status;
}

/** A run that ended saying the library holds nothing on the question is an answer, not an error. */
const HONEST_ENDINGS = new Set(["completed", "failed:no_papers", "failed:no_answer"]);

async function search(url: string, cookie: string, q: string): Promise<string> {
  const res = await fetch(`${url}/api/search?q=${encodeURIComponent(q)}`, { headers: { cookie } });
  await res.arrayBuffer();
  return res.status === 200 ? "ok" : `http ${res.status}`;
}

async function level(
  kind: "research" | "search",
  topology: string,
  instances: Instance[],
  cookies: string[],
  concurrency: number,
  rounds: number,
  cursor: { n: number },
): Promise<LevelFigures> {
  const samples: { ms: number; status: string }[] = [];
  const t0 = Date.now();
  for (let round = 0; round < rounds; round++) {
    const batch = Array.from({ length: concurrency }, () => {
      const i = cursor.n++;
      const inst = instances[i % instances.length] as Instance;
      const cookie = cookies[i % cookies.length] as string;
      const q = QUESTIONS[i % QUESTIONS.length] as string;
      return timed(() => (kind === "research" ? research(inst.url, cookie, q) : search(inst.url, cookie, q)));
    });
    samples.push(...(await Promise.all(batch)));
  }
  const t1 = Date.now();
  const isOk = (status: string) => (kind === "research" ? HONEST_ENDINGS.has(status) : status === "ok");
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  return {
    kind,
    topology,
    concurrency,
    requests: samples.length,
    errors: samples.filter((s) => !isOk(s.status)).length,
    statuses,
    p50Ms: Math.round(percentile(ms, 50)),
    p95Ms: Math.round(percentile(ms, 95)),
    maxMs: Math.round(ms.at(-1) ?? 0),
    loopDelay: instances.map((inst, i) => ({ instance: String.fromCharCode(65 + i), ...loopDelay(inst, t0, t1) })),
  };
}

async function main() {
  const started = Date.now();
  log(`work directory ${WORK}`);
  log("ingestion with one worker…");
  const ingest1 = await ingestWith(1, 31_801);
  log(`  ${ingest1.pages} pages in ${ingest1.totalSeconds.toFixed(1)} s: ${ingest1.pagesPerSecond.toFixed(1)} pages/s`);
  log("ingestion with two workers…");
  const ingest2 = await ingestWith(2, 31_802);
  log(`  ${ingest2.pages} pages in ${ingest2.totalSeconds.toFixed(1)} s: ${ingest2.pagesPerSecond.toFixed(1)} pages/s`);

  // the library the HTTP load runs on: the corpus, ingested once more, kept for both topologies
  const name = "lectern_load_http";
  const db = await freshDatabase(name);
  const env = baseEnv(db, path.join(WORK, "data-http"));
  log("ingesting the library for the HTTP load…");
  const ingest = start(
    "ingest-http",
    process.execPath,
    ["--import", "tsx", "cli/index.ts", "ingest", values.corpus as string],
    env,
  );
  if ((await new Promise((r) => ingest.once("exit", r))) !== 0) throw new Error(`see ${WORK}/ingest-http.log`);
  const handle = await openDatabase({ url: db });
  const cookies = await accounts(handle, Math.max(...LEVELS));
  await handle.close();

  const results: LevelFigures[] = [];
  const a = await startInstance("app-a", 31_811, env);
  const cursor = { n: 0 };
  const rounds = (kind: "research" | "search", c: number) =>
    kind === "research" ? (c === 1 ? 10 : c <= 10 ? 2 : 1) : c === 1 ? 30 : c <= 10 ? 5 : 2;
  const measure = async (topology: string, instances: Instance[]) => {
    // warm: the first run and search of each instance load the latent model and fill caches
    for (const inst of instances) {
      await research(inst.url, cookies[0] as string, QUESTIONS[0] as string);
      await search(inst.url, cookies[0] as string, QUESTIONS[0] as string);
    }
    for (const kind of ["search", "research"] as const) {
      for (const c of LEVELS) {
        const r = await level(kind, topology, instances, cookies, c, rounds(kind, c), cursor);
        log(
          `  ${topology} ${kind} ×${c}: p50 ${r.p50Ms} ms, p95 ${r.p95Ms} ms, errors ${r.errors}/${r.requests} ` +
            JSON.stringify(r.statuses),
        );
        results.push(r);
      }
    }
  };
  log("one instance…");
  await measure("1 instance", [a]);
  log("two instances and two workers…");
  const b = await startInstance("app-b", 31_812, env);
  const workers = [startWorker("worker-http-0", env), startWorker("worker-http-1", env)];
  await measure("2 instances + 2 workers", [a, b]);
  await Promise.all([stop(a.child), stop(b.child), ...workers.map(stop)]);
  await dropDatabase(name);

  const report = {
    machine: { cpus: os.cpus().length, memoryGiB: Math.round(os.totalmem() / 2 ** 30) },
    ingestion: [ingest1, ingest2],
    http: results,
    seconds: Math.round((Date.now() - started) / 1000),
  };
  if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    for (const f of report.ingestion) {
      console.log(
        `ingestion, ${f.workers} worker(s): ${f.ingested}/${f.files} files, ${f.pages} pages, files ${f.filesSeconds.toFixed(1)} s, ` +
          `with the library step ${f.totalSeconds.toFixed(1)} s → ${f.pagesPerSecond.toFixed(1)} pages/s; ` +
          `app event-loop delay p99 ${f.appLoopDelay.p99Ms} ms (max ${f.appLoopDelay.maxMs} ms)`,
      );
    }
    console.log(
      "| topology | kind | concurrent | requests | errors | p50 ms | p95 ms | max ms | loop delay p99 (max) ms |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|");
    for (const r of results) {
      const loop = r.loopDelay.map((l) => `${l.instance}: ${l.p99Ms} (${l.maxMs})`).join(", ");
      console.log(
        `| ${r.topology} | ${r.kind} | ${r.concurrency} | ${r.requests} | ${r.errors} | ${r.p50Ms} | ${r.p95Ms} | ${r.maxMs} | ${loop} |`,
      );
    }
  }
}

try {
  await main();
} finally {
  await Promise.all(children.map(stop));
}
