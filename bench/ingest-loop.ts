/**
 * The app server's event loop while it ingests, on the embedded database: `npm run bench:ingest-loop -- [--app-dir DIR]
 * [--port 3482] [--corpus DIR] [--files 20] [--json]`.
 *
 * With PGlite the app works the job queue in its own process (lib/jobs/inline.ts), so whatever ingestion does on the
 * main thread delays every request. This starts `next start` from a production build in --app-dir (default: here;
 * `npm run build` first), offline, on a fresh embedded database in a temporary data directory with an owner signed
 * in, and with bench/server-loop-delay.mjs preloaded: the server's own event-loop delay (Node's
 * monitorEventLoopDelay), one line per second. Then `files` PDFs of the corpus are uploaded in one request to
 * POST /api/ingest and its NDJSON stream is read to its end (every file and the library step done), while a client
 * asks GET /icon.svg every 100 ms. Reported: the per-second p99 of the loop delay during the ingestion (its highest
 * and its median), the highest single delay, the small request's latency (p50, p99, max), pages and pages/s.
 * Target (issue 24): loop p99 ≤ 100 ms while ingesting.
 *
 * Run it against two builds to compare (e.g. before and after a change): --app-dir points at each. The server is
 * always stopped at the end, and the data directory deleted.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { openDatabase } from "@/db";
import { createOwner } from "@/lib/auth/people";
import { signIn } from "@/lib/auth/session";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const { values } = parseArgs({
  options: {
    "app-dir": { type: "string", default: ROOT },
    port: { type: "string", default: "3482" },
    corpus: { type: "string", default: path.join(ROOT, "../shared/corpus/papers") },
    files: { type: "string", default: "20" },
    json: { type: "boolean", default: false },
  },
});
const APP_DIR = path.resolve(values["app-dir"] as string);
const PORT = Number(values.port);
const FILES = Number(values.files);
if (!Number.isInteger(PORT) || PORT <= 1024 || PORT === 3000 || PORT === 3100) throw new Error("--port: a free port");
if (!Number.isInteger(FILES) || FILES < 1) throw new Error("--files: a whole number");
if (!fs.existsSync(path.join(APP_DIR, ".next", "BUILD_ID"))) {
  throw new Error(`No production build in ${APP_DIR}/.next: run \`npm run build\` there (or pass --app-dir).`);
}
const log = (s: string) => process.stderr.write(`${s}\n`);

let server: ChildProcess | null = null;
function stopServer() {
  if (server?.pid !== undefined && server.exitCode === null && server.signalCode === null) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // gone
    }
  }
}
process.on("exit", stopServer);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));

const pct = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

async function main() {
  const corpus = fs
    .readdirSync(values.corpus as string)
    .filter((f) => f.toLowerCase().endsWith(".pdf"))
    .sort()
    .slice(0, FILES)
    .map((f) => path.join(values.corpus as string, f));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-ingest-loop-"));
  const loopFile = path.join(dataDir, "loop-delay.txt");
  try {
    const handle = await openDatabase({ dataDir, role: "bench:ingest-loop" });
    let cookie: string;
    try {
      const password = "bench password, long enough";
      await createOwner(handle.db, { email: "bench@lectern.local", name: "Bench", password });
      const { setCookies } = await signIn(handle.db, { email: "bench@lectern.local", password }, new Headers());
      cookie = setCookies.map((c) => c.split(";")[0]).join("; ");
    } finally {
      await handle.close();
    }

    const baseUrl = `http://127.0.0.1:${PORT}`;
    server = spawn(
      process.execPath,
      [
        path.join(APP_DIR, "node_modules/next/dist/bin/next"),
        "start",
        "--hostname",
        "127.0.0.1",
        "--port",
        String(PORT),
      ],
      {
        cwd: APP_DIR,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          ...process.env,
          OPENAI_API_KEY: "",
          OPENAI_BASE_URL: "",
          DATABASE_URL: "",
          LECTERN_DATA_DIR: dataDir,
          NEXT_TELEMETRY_DISABLED: "1",
          NODE_ENV: "production",
          NODE_OPTIONS: `--import ${path.join(ROOT, "bench/server-loop-delay.mjs")}`,
          LECTERN_BENCH_LOOP_DELAY: loopFile,
          PORT: String(PORT),
        },
      },
    );
    for (const s of [server.stdout, server.stderr]) {
      s?.setEncoding("utf8");
      s?.on("data", (chunk: string) => {
        for (const line of chunk.split("\n").filter((l) => l.trim())) log(`[next] ${line}`);
      });
    }
    const deadline = Date.now() + 120_000;
    for (;;) {
      const ok = await fetch(`${baseUrl}/icon.svg`, { signal: AbortSignal.timeout(2000) })
        .then(async (r) => {
          await r.arrayBuffer();
          return r.ok;
        })
        .catch(() => false);
      if (ok) break;
      if (server.exitCode !== null) throw new Error(`next start exited (${server.exitCode})`);
      if (Date.now() > deadline) throw new Error("next start did not answer within 120 s");
      await new Promise((r) => setTimeout(r, 250));
    }
    // the server's start (migrations, the in-process worker) is not part of the measure
    await new Promise((r) => setTimeout(r, 3000));

    const form = new FormData();
    for (const f of corpus) form.append("files", new File([fs.readFileSync(f)], path.basename(f)));
    log(`${corpus.length} PDFs to ${baseUrl}/api/ingest …`);
    const latencies: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const t = performance.now();
        await fetch(`${baseUrl}/icon.svg`)
          .then((r) => r.arrayBuffer())
          .catch(() => {});
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const started = Date.now();
    const res = await fetch(`${baseUrl}/api/ingest`, {
      method: "POST",
      body: form,
      headers: { cookie, origin: baseUrl, "sec-fetch-site": "same-origin" },
    });
    if (!res.ok) throw new Error(`/api/ingest answered ${res.status}: ${await res.text()}`);
    // the stream's events as they come, with their time (stderr): which stage a slow second falls in
    const lines: string[] = [];
    const decoder = new TextDecoder();
    let rest = "";
    for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
      rest += decoder.decode(part, { stream: true });
      const complete = rest.split("\n");
      rest = complete.pop() ?? "";
      for (const l of complete.filter(Boolean)) {
        lines.push(l);
        const e = JSON.parse(l) as { type: string; stage?: string; index?: number };
        if (e.type !== "file_stage" || e.stage === "extracting" || e.stage === "saving")
          log(`  +${((Date.now() - started) / 1000).toFixed(1)} s ${e.type} ${e.stage ?? ""} ${e.index ?? ""}`);
      }
    }
    const ended = Date.now();
    probing = false;
    await probe;
    const events = lines.map((l) => JSON.parse(l) as { type: string; result?: { status: string; pages: number } });
    const results = events.filter((e) => e.type === "file_done").map((e) => e.result);
    const ingested = results.filter((r) => r?.status === "ingested").length;
    const pages = results.reduce((n, r) => n + (r?.pages ?? 0), 0);

    await new Promise((r) => setTimeout(r, 1200)); // the last second's line
    const seconds = fs
      .readFileSync(loopFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split(" ").map(Number) as [number, number, number, number])
      .filter(([at]) => at >= started && at <= ended + 1000);
    for (const [at, p50, p99, max] of seconds) {
      log(`  loop +${((at - started) / 1000).toFixed(0)} s: p50 ${p50} p99 ${p99} max ${max} ms`);
    }
    const p99s = seconds.map((s) => s[2]).sort((a, b) => a - b);
    const lat = [...latencies].sort((a, b) => a - b);
    const summary = {
      date: new Date().toISOString().slice(0, 10),
      appDir: APP_DIR,
      files: corpus.length,
      ingested,
      errors: results.filter((r) => r?.status === "error").length,
      pages,
      seconds: (ended - started) / 1000,
      pagesPerSecond: pages / ((ended - started) / 1000),
      loop: {
        secondsMeasured: seconds.length,
        p99Max: p99s.at(-1) ?? 0,
        p99Median: pct(p99s, 50),
        secondsOver100: p99s.filter((v) => v > 100).length,
        max: Math.max(0, ...seconds.map((s) => s[3])),
      },
      probe: { requests: lat.length, p50: pct(lat, 50), p99: pct(lat, 99), max: lat.at(-1) ?? 0 },
    };
    if (values.json) console.log(JSON.stringify(summary, null, 2));
    else {
      const r = (v: number) => Math.round(v);
      console.log(
        `| ${summary.files} files (${summary.ingested} ingested, ${summary.errors} errors), ${pages} pages | ` +
          `${summary.seconds.toFixed(1)} s | ${summary.pagesPerSecond.toFixed(1)} | ` +
          `${r(summary.loop.p99Max)} ms (median ${r(summary.loop.p99Median)}, ${summary.loop.secondsOver100} of ` +
          `${summary.loop.secondsMeasured} s over 100) | ${r(summary.loop.max)} ms | ` +
          `${r(summary.probe.p50)} / ${r(summary.probe.p99)} / ${r(summary.probe.max)} ms |`,
      );
    }
  } finally {
    stopServer();
    await new Promise((r) => setTimeout(r, 1500));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
