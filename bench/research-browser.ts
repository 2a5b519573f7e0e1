/**
 * What a user sees on /research, in a real browser: `npm run bench:research-browser -- [--port 3200] [--rounds 3]
 * [--json] [--skip-build] [--questions file.json] [--no-compression] [--server-stalls]`.
 *
 * Builds the app (`next build`, unless --skip-build), starts `next start` on 127.0.0.1:<port> as a child process with
 * the caller's environment — LECTERN_DATA_DIR (PGlite) or DATABASE_URL (PostgreSQL) choose the library — but offline
 * (OPENAI_API_KEY / OPENAI_BASE_URL exported empty, so a .env file cannot bring a model in), and drives Debian's
 * Chromium (the full browser, `/usr/bin/chromium`: `bash scripts/setup-browser.sh --full`; the flags of
 * playwright.config.ts; no browser download).
 *
 * Every question starts from a fresh load of /research (so no earlier run is in flight: asking again would cancel
 * it), is typed into the question box and submitted with Enter. The timings are taken inside the page, not by polling
 * from Playwright: an init script stamps `performance.now()` at the Enter keydown (its event timestamp) and a
 * MutationObserver stamps, from that moment, when the "Starting the research…" placeholder, the first step card, the
 * first completed step, the first answer text and the finished run enter the DOM (plus the frame after the first step
 * card: when it can have been painted). A wrapper around `fetch` reads a copy of the server action's response as it
 * arrives and stamps when the bytes of `run_started`, the first completed step, the first answer delta and
 * `run_finished` reach the page; the run's own `startedAt` (the server's clock, shown in the run header) places the
 * start of the run on the server between the two. Long main-thread tasks (PerformanceObserver `longtask`) are summed.
 *
 * Order: the cold run (the first question after the server started, reported on its own), one warm-up question (not
 * measured), then `rounds` passes over the questions (../shared/corpus/dev-questions.json when present, else a few
 * built-in ones). Prints a markdown table, or one JSON document with --json (on stdout; progress on stderr). The
 * server is always stopped at the end, also on an error or Ctrl-C.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "@playwright/test";
import playwrightConfig from "../playwright.config";
import { type BenchQuestion, DEV_QUESTIONS, loadBenchQuestions } from "./questions";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DATE = process.env.BENCH_DATE ?? new Date().toISOString().slice(0, 10);
/** The product target: the first event reaches the page within this long of submitting. */
const TARGET_MS = 200;
/** A run that has not finished after this long is recorded as timed out (the app's own run timeout is 180 s). */
const RUN_WAIT_MS = 200_000;

interface Args {
  port: number;
  rounds: number;
  json: boolean;
  skipBuild: boolean;
  questions: string;
  /** Ask for uncompressed responses (Accept-Encoding: identity): what gzip on the streamed response costs. */
  noCompression: boolean;
  /** Log the server's event-loop stalls (bench/server-loop-stalls.mjs) and line them up with each run. */
  serverStalls: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    port: 3200,
    rounds: Number(process.env.BENCH_ROUNDS ?? 3),
    json: false,
    skipBuild: false,
    noCompression: false,
    serverStalls: false,
    questions: DEV_QUESTIONS,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--json") args.json = true;
    else if (a === "--skip-build") args.skipBuild = true;
    else if (a === "--no-compression") args.noCompression = true;
    else if (a === "--server-stalls") args.serverStalls = true;
    else if (a === "--port") args.port = Number(value());
    else if (a === "--rounds") args.rounds = Number(value());
    else if (a === "--questions") args.questions = path.resolve(value());
    else if (!a.startsWith("--")) args.questions = path.resolve(a);
    else throw new Error(`Unknown option ${a}`);
  }
  if (!Number.isInteger(args.port) || args.port <= 0 || args.port > 65535) throw new Error("--port: a port number");
  if (args.port === 3000 || args.port === 3100) {
    throw new Error(`--port ${args.port} belongs to the app (3000) or the e2e server (3100); use another`);
  }
  if (!Number.isInteger(args.rounds) || args.rounds < 1) throw new Error("--rounds: a positive integer");
  return args;
}

type Question = Pick<BenchQuestion, "qid" | "question">;

// ---------------------------------------------------------------------------------------------------------------
// The child processes: `next build` and `next start`, each in its own process group (npx → next → node), so that
// stopping one stops everything it started. Only these groups are ever signalled.

const children = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    children.delete(child);
    return;
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  killGroup(child, "SIGTERM");
  const timer = setTimeout(() => killGroup(child, "SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
  children.delete(child);
}

process.on("exit", () => {
  for (const c of children) killGroup(c, "SIGKILL");
});

/** The app's environment: the caller's, offline. */
function childEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    // exported empty rather than deleted: Next's env loader fills only undefined variables from .env files
    OPENAI_API_KEY: "",
    OPENAI_BASE_URL: "",
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_ENV: "production",
  };
}

async function build(log: (s: string) => void): Promise<number> {
  log("next build …");
  const t0 = performance.now();
  const child = spawn("npx", ["next", "build"], {
    cwd: ROOT,
    env: childEnv(),
    detached: true,
    // the build's output is progress: stderr, never stdout (which carries the JSON)
    stdio: ["ignore", 2, 2],
  });
  children.add(child);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  children.delete(child);
  if (code !== 0) throw new Error(`next build failed (exit code ${code})`);
  return performance.now() - t0;
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

interface Server {
  child: ChildProcess;
  baseUrl: string;
  /** From spawning `next start` until it answered. */
  startMs: number;
  /** What the app said about its database at start (`[lectern] database ready (pglite: …)`). */
  database: string | null;
  /** The server's last output lines, for an error report. */
  tail: string[];
}

async function startServer(port: number, log: (s: string) => void, stallsFile: string | null): Promise<Server> {
  const baseUrl = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const env = childEnv();
  if (stallsFile) {
    const preload = pathToFileURL(path.join(ROOT, "bench/server-loop-stalls.mjs")).href;
    env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ""} --import=${preload}`.trim();
    env.LECTERN_BENCH_STALLS = stallsFile;
  }
  const child = spawn("npx", ["next", "start", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  const server: Server = { child, baseUrl, startMs: 0, database: null, tail: [] };
  const onLine = (line: string) => {
    if (!line.trim()) return;
    server.tail.push(line);
    if (server.tail.length > 200) server.tail.shift();
    const m = /\[lectern\] database (ready \(.+\)|not available at start: .+)$/.exec(line);
    if (m) server.database = m[1] as string;
    process.stderr.write(`[next] ${line}\n`);
  };
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = "";
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const l of lines) onLine(l);
    });
  }
  // a cheap static route, so that waiting does not warm the research page or the database
  const probe = `${baseUrl}/icon.svg`;
  const deadline = Date.now() + 90_000;
  while (!(await answers(probe))) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`next start exited (${child.exitCode ?? child.signalCode}):\n${server.tail.join("\n")}`);
    }
    if (Date.now() > deadline) throw new Error(`next start did not answer on ${baseUrl} within 90 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  server.startMs = performance.now() - t0;
  log(`next start answered on ${baseUrl} after ${Math.round(server.startMs)} ms (${server.database ?? "?"})`);
  if (server.database?.startsWith("not available")) throw new Error(`the app has no database: ${server.database}`);
  return server;
}

// ---------------------------------------------------------------------------------------------------------------
// The probe, installed in the page before any of its scripts. Plain JavaScript in a string: a function compiled by
// tsx would carry esbuild's `__name` helper into the page, where it does not exist.

const PROBE = `(() => {
  const P = {
    armed: false, t0: 0, wall0: 0, handlerDelay: 0, marks: {}, chunkMarks: {}, serverStartedAt: null,
    status: null, problem: null, chunks: 0, bytes: 0, longTasks: [], fetchSeen: false, encoding: null,
  };
  window.__lcProbe = P;
  const mark = (name, t) => {
    if (P.marks[name] === undefined) P.marks[name] = (t === undefined ? performance.now() : t) - P.t0;
  };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) P.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {}
  const afterPaint = (name) =>
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => mark(name);
      ch.port2.postMessage(null);
    });
  const check = () => {
    const now = performance.now();
    if (P.marks.starting === undefined && document.querySelector('[data-testid="research-starting"]')) mark("starting", now);
    if (P.marks.firstStep === undefined && document.querySelector('[data-testid="research-step"]')) {
      mark("firstStep", now);
      afterPaint("firstStepPainted");
      const time = document.querySelector('[data-testid="research-run"] time[datetime]');
      if (time) P.serverStartedAt = time.getAttribute("datetime");
    }
    if (P.marks.firstDone === undefined && document.querySelector('[data-testid="research-step"][data-status="completed"]')) mark("firstDone", now);
    if (P.marks.firstAnswer === undefined) {
      const a = document.querySelector('[data-testid="research-answer-text"]');
      if (a && a.textContent && a.textContent.trim()) mark("firstAnswer", now);
    }
    if (P.marks.finished === undefined) {
      const run = document.querySelector('[data-testid="research-run"]');
      const problem = document.querySelector('[data-testid="research-problem"]');
      if (run && run.getAttribute("data-status") !== "running") {
        P.status = run.getAttribute("data-status");
        mark("finished", now);
      } else if (problem) {
        P.status = "problem";
        P.problem = problem.textContent;
        mark("finished", now);
      }
    }
  };
  window.addEventListener("keydown", (e) => {
    if (P.armed || e.key !== "Enter" || e.shiftKey) return;
    const t = e.target;
    if (!(t instanceof HTMLTextAreaElement) || t.getAttribute("data-testid") !== "research-question") return;
    const now = performance.now();
    P.armed = true;
    // the event's own timestamp: when the key event was created, before any listener ran
    P.t0 = e.timeStamp > 0 && e.timeStamp <= now ? e.timeStamp : now;
    P.handlerDelay = now - P.t0;
    P.wall0 = Date.now() - P.handlerDelay;
    new MutationObserver(check).observe(document, {
      subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"],
    });
  }, true);
  const MARKERS = [
    ["runStarted", '"run_started"'],
    ["stepCompleted", '"status":"completed"'],
    ["answerDelta", '"answer_delta"'],
    ["runFinished", '"run_finished"'],
  ];
  const isAction = (init) => {
    const h = init && init.headers;
    if (!h) return false;
    if (h instanceof Headers) return h.has("next-action");
    if (Array.isArray(h)) return h.some((kv) => String(kv[0]).toLowerCase() === "next-action");
    return Object.keys(h).some((k) => k.toLowerCase() === "next-action");
  };
  const original = window.fetch;
  window.fetch = function (input, init) {
    const p = original.apply(this, arguments);
    if (!P.armed || P.fetchSeen || !isAction(init)) return p;
    P.fetchSeen = true;
    mark("actionFetch");
    p.then((res) => {
      mark("responseHeaders");
      P.encoding = res.headers.get("content-encoding") || "identity";
      if (!res.body) return;
      const reader = res.clone().body.getReader();
      const decoder = new TextDecoder();
      let text = "";
      const pump = () => reader.read().then((r) => {
        const now = performance.now();
        if (r.done) { mark("responseEnd", now); return; }
        P.chunks++;
        P.bytes += r.value.byteLength;
        if (P.chunks === 1) mark("firstBytes", now);
        if (MARKERS.some((m) => P.chunkMarks[m[0]] === undefined)) {
          text += decoder.decode(r.value, { stream: true });
          for (const m of MARKERS) {
            if (P.chunkMarks[m[0]] === undefined && text.includes(m[1])) P.chunkMarks[m[0]] = now - P.t0;
          }
        }
        return pump();
      });
      return pump();
    }).catch(() => {});
    return p;
  };
})();`;

interface ProbeState {
  armed: boolean;
  t0: number;
  wall0: number;
  handlerDelay: number;
  marks: Record<string, number>;
  chunkMarks: Record<string, number>;
  serverStartedAt: string | null;
  status: string | null;
  problem: string | null;
  chunks: number;
  bytes: number;
  encoding: string | null;
  longTasks: { start: number; duration: number }[];
}

/** One question, in ms from the Enter keydown (null: did not happen). */
interface RunTiming {
  qid: string;
  phase: "cold" | "warm-up" | "measured";
  round: number;
  /** The browser's clock at the Enter keydown (epoch ms), to line the run up with server-side logs. */
  submittedAt: number;
  status: string | null;
  problem: string | null;
  /** Content-Encoding of the server action's streamed response (Next compresses with gzip by default). */
  responseEncoding: string | null;
  /** The load of /research before asking: navigation until the response's first byte, until `load`. */
  pageTtfbMs: number | null;
  pageLoadMs: number | null;
  /** Keydown event created → the first listener ran (the page's main thread was busy for this long). */
  handlerDelayMs: number;
  starting: number | null;
  actionFetch: number | null;
  responseHeaders: number | null;
  firstBytes: number | null;
  /** The run's `startedAt` on the server's clock minus the browser's clock at keydown (same machine; ±1 ms). */
  serverRunStarted: number | null;
  runStartedBytes: number | null;
  firstStep: number | null;
  firstStepPainted: number | null;
  stepCompletedBytes: number | null;
  firstDone: number | null;
  answerDeltaBytes: number | null;
  firstAnswer: number | null;
  runFinishedBytes: number | null;
  finished: number | null;
  responseEnd: number | null;
  /**
   * Main-thread tasks over 50 ms, summed: between keydown and the first step card, between the `run_started` bytes
   * and the first step card, and until the run finished.
   */
  longTasksToFirstStepMs: number | null;
  longTasksBytesToFirstStepMs: number | null;
  longTasksToFinishMs: number | null;
  responseChunks: number;
  responseBytes: number;
  /** With --server-stalls: how long the server's event loop was stalled between the run's start and its bytes. */
  serverStalledToBytesMs: number | null;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const opt = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? null : round1(x));

/** How much of [from, until] the intervals cover (they do not overlap one another). */
function covered(intervals: { start: number; duration: number }[], from: number, until: number): number {
  let sum = 0;
  for (const t of intervals) sum += Math.max(0, Math.min(t.start + t.duration, until) - Math.max(t.start, from));
  return round1(sum);
}

function longTaskSum(p: ProbeState, from: number | undefined, until: number | undefined): number | null {
  if (from === undefined || until === undefined) return null;
  return covered(p.longTasks, p.t0 + from, p.t0 + until);
}

async function askOnce(
  page: Page,
  baseUrl: string,
  q: Question,
  phase: RunTiming["phase"],
  round: number,
): Promise<RunTiming> {
  await page.goto(`${baseUrl}/research`, { waitUntil: "networkidle", timeout: 60_000 });
  const box = page.getByTestId("research-question");
  // hydrated: React has attached its props to the question box (before that, Enter would just add a new line)
  await page.waitForFunction(
    `(() => { const el = document.querySelector('[data-testid="research-question"]');
      return !!el && Object.keys(el).some((k) => k.startsWith("__reactProps")); })()`,
    undefined,
    { timeout: 30_000 },
  );
  await box.fill(q.question);
  // let React commit the typed text (and the page settle) before the Enter, as a typing user would
  await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null))))");
  await box.press("Enter");
  let timedOut = false;
  try {
    await page.waitForFunction("window.__lcProbe.armed && window.__lcProbe.marks.finished !== undefined", undefined, {
      timeout: RUN_WAIT_MS,
      polling: 100,
    });
    // the frame after the first step card (stamped from requestAnimationFrame) lands right after it
    await page
      .waitForFunction(
        "window.__lcProbe.marks.firstStep === undefined || window.__lcProbe.marks.firstStepPainted !== undefined",
        undefined,
        { timeout: 5_000 },
      )
      .catch(() => {});
  } catch {
    timedOut = true;
  }
  const p = (await page.evaluate("JSON.parse(JSON.stringify(window.__lcProbe))")) as ProbeState;
  const nav = (await page.evaluate(
    `(() => { const n = performance.getEntriesByType("navigation")[0];
      return n ? { ttfb: n.responseStart, load: n.loadEventEnd } : null; })()`,
  )) as { ttfb: number; load: number } | null;
  const m = p.marks;
  const c = p.chunkMarks;
  const serverStart = p.serverStartedAt ? Date.parse(p.serverStartedAt) : Number.NaN;
  return {
    qid: q.qid,
    phase,
    round,
    submittedAt: Math.round(p.wall0),
    status: timedOut ? "timed out" : p.status,
    problem: p.problem,
    responseEncoding: p.encoding,
    pageTtfbMs: nav ? round1(nav.ttfb) : null,
    pageLoadMs: nav ? round1(nav.load) : null,
    handlerDelayMs: round1(p.handlerDelay),
    starting: opt(m.starting),
    actionFetch: opt(m.actionFetch),
    responseHeaders: opt(m.responseHeaders),
    firstBytes: opt(m.firstBytes),
    serverRunStarted: opt(serverStart - p.wall0),
    runStartedBytes: opt(c.runStarted),
    firstStep: opt(m.firstStep),
    firstStepPainted: opt(m.firstStepPainted),
    stepCompletedBytes: opt(c.stepCompleted),
    firstDone: opt(m.firstDone),
    answerDeltaBytes: opt(c.answerDelta),
    firstAnswer: opt(m.firstAnswer),
    runFinishedBytes: opt(c.runFinished),
    finished: opt(m.finished),
    responseEnd: opt(m.responseEnd),
    longTasksToFirstStepMs: longTaskSum(p, 0, m.firstStep),
    longTasksBytesToFirstStepMs: longTaskSum(p, c.runStarted, m.firstStep),
    longTasksToFinishMs: longTaskSum(p, 0, m.finished),
    responseChunks: p.chunks,
    responseBytes: p.bytes,
    serverStalledToBytesMs: null,
  };
}

/** Sets each run's `serverStalledToBytesMs` from the stalls the server logged (then deletes the log). */
function lineUpStalls(file: string, runs: RunTiming[]) {
  const stalls = fs.existsSync(file)
    ? fs
        .readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => {
          const [start, duration] = l.split(" ").map(Number);
          return { start: start as number, duration: duration as number };
        })
    : [];
  fs.rmSync(file, { force: true });
  for (const r of runs) {
    if (r.serverRunStarted === null || r.runStartedBytes === null) continue;
    r.serverStalledToBytesMs = covered(stalls, r.submittedAt + r.serverRunStarted, r.submittedAt + r.runStartedBytes);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Statistics and the report

/** Nearest rank, as lib/search/eval's `percentile` (not imported: it would load the database modules). */
function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

interface Stat {
  p50: number;
  p95: number;
  max: number;
  n: number;
}

function stats(xs: (number | null)[]): Stat | null {
  const v = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  if (v.length === 0) return null;
  return { p50: round1(percentile(v, 50)), p95: round1(percentile(v, 95)), max: round1(Math.max(...v)), n: v.length };
}

/** The milestones, in the order they happen, with what the table calls them. */
const MILESTONES: [keyof RunTiming, string][] = [
  ["handlerDelayMs", "keydown → the page's first keydown listener runs"],
  ["starting", '"Starting the research…" placeholder in the DOM (React, no server yet)'],
  ["actionFetch", "server action request sent (`fetch` called)"],
  ["serverRunStarted", "run started on the server (its `startedAt`, server clock)"],
  ["responseHeaders", "response headers reach the page"],
  ["runStartedBytes", "`run_started` bytes reach the page"],
  ["firstStep", "**first step card in the DOM**"],
  ["firstStepPainted", "first step card painted (the frame after)"],
  ["stepCompletedBytes", "first completed step: bytes reach the page"],
  ["firstDone", "**first step shows Done**"],
  ["answerDeltaBytes", "first answer text: bytes reach the page"],
  ["firstAnswer", "**first answer text in the DOM**"],
  ["runFinishedBytes", "`run_finished` bytes reach the page"],
  ["finished", "**run shown as finished**"],
  ["longTasksToFirstStepMs", "main-thread long tasks (> 50 ms) before the first step card, summed"],
  ["longTasksBytesToFirstStepMs", "… of which between the `run_started` bytes and the first step card"],
  [
    "serverStalledToBytesMs",
    "server event loop stalled (> 10 ms) between the run's start and its bytes (--server-stalls)",
  ],
  ["longTasksToFinishMs", "main-thread long tasks until the run finished, summed"],
];

/** Where the time to the first step card goes, per run (differences of its own stamps). */
const SPANS: [string, (r: RunTiming) => number | null][] = [
  ["keydown → request sent (React handler, action queue, encoding the arguments)", (r) => r.actionFetch],
  [
    "request sent → run started on the server (HTTP, Next's action handling, `startRun`)",
    (r) => diff(r.serverRunStarted, r.actionFetch),
  ],
  [
    "run started → `run_started` bytes in the page (server flush, network)",
    (r) => diff(r.runStartedBytes, r.serverRunStarted),
  ],
  [
    "bytes in the page → step card in the DOM (Flight decode, React render and commit)",
    (r) => diff(r.firstStep, r.runStartedBytes),
  ],
  ["DOM → painted (next frame)", (r) => diff(r.firstStepPainted, r.firstStep)],
];

function diff(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : round1(a - b);
}

function summarize(runs: RunTiming[]) {
  const milestones: Record<string, Stat | null> = {};
  for (const [key] of MILESTONES) milestones[key] = stats(runs.map((r) => r[key] as number | null));
  const spans: Record<string, Stat | null> = {};
  for (const [label, f] of SPANS) spans[label] = stats(runs.map(f));
  const statuses: Record<string, number> = {};
  const encodings: Record<string, number> = {};
  for (const r of runs) {
    statuses[r.status ?? "?"] = (statuses[r.status ?? "?"] ?? 0) + 1;
    encodings[r.responseEncoding ?? "?"] = (encodings[r.responseEncoding ?? "?"] ?? 0) + 1;
  }
  return {
    n: runs.length,
    statuses,
    responseEncodings: encodings,
    milestones,
    spans,
    pageTtfbMs: stats(runs.map((r) => r.pageTtfbMs)),
    pageLoadMs: stats(runs.map((r) => r.pageLoadMs)),
    responseChunks: stats(runs.map((r) => r.responseChunks)),
  };
}

function gitCommit(): string | null {
  try {
    const head = fs.readFileSync(path.join(ROOT, ".git/HEAD"), "utf8").trim();
    if (!head.startsWith("ref: ")) return head.slice(0, 7);
    const ref = head.slice(5);
    const loose = path.join(ROOT, ".git", ref);
    if (fs.existsSync(loose)) return fs.readFileSync(loose, "utf8").trim().slice(0, 7);
    const packed = fs.readFileSync(path.join(ROOT, ".git/packed-refs"), "utf8");
    return (
      packed
        .split("\n")
        .find((l) => l.endsWith(` ${ref}`))
        ?.slice(0, 7) ?? null
    );
  } catch {
    return null;
  }
}

const load = () => os.loadavg().map((x) => Math.round(x * 100) / 100);

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const { questions, source } = loadBenchQuestions(args.questions);
  const loadAtStart = load();
  const driver = process.env.DATABASE_URL ? "postgres" : "pglite";
  const location = process.env.DATABASE_URL
    ? process.env.DATABASE_URL.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@")
    : path.resolve(ROOT, process.env.LECTERN_DATA_DIR || ".data");
  log(`${driver} at ${location}; ${questions.length} questions from ${source}; load average ${loadAtStart.join(" ")}`);

  if (await answers(`http://127.0.0.1:${args.port}/`)) {
    throw new Error(`Something already answers on 127.0.0.1:${args.port}: stop it or pass another --port`);
  }
  let server: Server | null = null;
  let browser: Browser | null = null;
  let interrupted = false;
  const shutdown = async () => {
    await browser?.close().catch(() => {});
    for (const c of [...children]) await stopChild(c);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping the build / the server`);
    void shutdown().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  try {
    let buildMs: number | null = null;
    if (args.skipBuild) {
      if (!fs.existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("--skip-build: no .next build to start");
    } else {
      buildMs = await build(log);
    }
    const stallsFile = args.serverStalls ? path.join(os.tmpdir(), `lectern-bench-stalls-${process.pid}.log`) : null;
    if (stallsFile) fs.rmSync(stallsFile, { force: true });
    server = await startServer(args.port, log, stallsFile);
    const use = playwrightConfig.projects?.[0]?.use;
    // the browser exactly as the e2e suite launches it (one list of flags, in playwright.config.ts)
    const launchArgs = use?.launchOptions?.args;
    if (!launchArgs) throw new Error("playwright.config.ts has no Chromium launch arguments to reuse.");
    // the full browser, as a user runs it (the e2e suite runs the headless shell)
    const executablePath = "/usr/bin/chromium";
    browser = await chromium.launch({ executablePath, args: launchArgs, headless: true });
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    await context.addInitScript({ content: PROBE });
    if (args.noCompression) await context.setExtraHTTPHeaders({ "Accept-Encoding": "identity" });
    const page = await context.newPage();
    page.on("pageerror", (e) => log(`[page] ${e.message}`));
    const loadBeforeRuns = load();

    const progress = (r: RunTiming) =>
      log(
        `${r.phase}${r.phase === "measured" ? ` ${r.round}` : ""} ${r.qid}: first step ${r.firstStep ?? "—"} ms, ` +
          `done ${r.firstDone ?? "—"}, answer ${r.firstAnswer ?? "—"}, finished ${r.finished ?? "—"} (${r.status})`,
      );
    const first = questions[0] as Question;
    const cold = await askOnce(page, server.baseUrl, first, "cold", 0);
    progress(cold);
    const warmUp = await askOnce(page, server.baseUrl, questions[1 % questions.length] as Question, "warm-up", 0);
    progress(warmUp);
    const runs: RunTiming[] = [];
    for (let round = 1; round <= args.rounds; round++) {
      for (const q of questions) {
        const r = await askOnce(page, server.baseUrl, q, "measured", round);
        runs.push(r);
        progress(r);
      }
      log(`round ${round}/${args.rounds} done; load average ${load().join(" ")}`);
    }
    const loadAtEnd = load();
    if (stallsFile) lineUpStalls(stallsFile, [cold, warmUp, ...runs]);
    const warm = summarize(runs);
    const firstStep = warm.milestones.firstStep;
    const cpus = os.cpus();
    const report = {
      benchmark: "research-browser",
      date: DATE,
      machine: {
        cpus: cpus.length,
        cpu: cpus[0]?.model.trim() ?? "?",
        node: process.version,
        loadAverageAtStart: loadAtStart,
        loadAverageBeforeRuns: loadBeforeRuns,
        loadAverageAtEnd: loadAtEnd,
      },
      commit: gitCommit(),
      driver,
      location,
      serverDatabase: server.database,
      browser: { name: "chromium", version: browser.version(), executablePath, args: launchArgs },
      server: {
        port: args.port,
        buildMs: buildMs === null ? null : Math.round(buildMs),
        startMs: Math.round(server.startMs),
      },
      questions: questions.length,
      questionSource: source,
      rounds: args.rounds,
      acceptEncoding: args.noCompression ? "identity" : "browser default (gzip and others)",
      target: {
        description: `the first event reaches the page within ${TARGET_MS} ms of submitting (first step card in the DOM)`,
        ms: TARGET_MS,
        warmP50Met: firstStep ? firstStep.p50 <= TARGET_MS : null,
        warmP95Met: firstStep ? firstStep.p95 <= TARGET_MS : null,
        coldMet: cold.firstStep === null ? null : cold.firstStep <= TARGET_MS,
      },
      cold,
      warmUp,
      warm,
      runs,
    };
    if (args.json) console.log(JSON.stringify(report, null, 2));
    else printHuman(report);
  } catch (e) {
    if (server && server.tail.length > 0) log(`server output (last lines):\n${server.tail.slice(-30).join("\n")}`);
    throw e;
  } finally {
    if (!interrupted) await shutdown();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the report is printed field by field
function printHuman(r: any) {
  const m = r.machine;
  console.log(
    `\nResearch in the browser — ${r.driver} (${r.location}), ${r.questions} questions (${r.questionSource}), ` +
      `cold run + 1 warm-up + ${r.rounds} measured rounds; each question on a fresh load of /research`,
  );
  console.log(
    `machine: ${m.cpus} cores (${m.cpu}), Node ${m.node}, Chromium ${r.browser.version}, load average ` +
      `${m.loadAverageAtStart.join(" / ")} at start, ${m.loadAverageBeforeRuns.join(" / ")} before the runs, ` +
      `${m.loadAverageAtEnd.join(" / ")} at the end (1 / 5 / 15 min); commit ${r.commit ?? "?"}; date ${r.date}`,
  );
  console.log(
    `server: ${r.serverDatabase ?? "?"}; build ${r.server.buildMs === null ? "skipped" : `${Math.round(r.server.buildMs / 1000)} s`}, ` +
      `next start answered after ${r.server.startMs} ms\n`,
  );
  const cell = (x: number | null | undefined) =>
    x === null || x === undefined ? "—" : Math.round(x).toLocaleString("en");
  const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
  console.log(row(["keydown → … (ms)", `cold (${r.cold.qid})`, "warm p50", "warm p95", "warm max"]));
  console.log(row(["---", "---:", "---:", "---:", "---:"]));
  for (const [key, label] of MILESTONES) {
    const s: Stat | null = r.warm.milestones[key];
    if (!s && (r.cold[key] === null || r.cold[key] === undefined)) continue; // not measured (e.g. no --server-stalls)
    console.log(row([label, cell(r.cold[key]), cell(s?.p50), cell(s?.p95), cell(s?.max)]));
  }
  console.log(
    `\nwarm: ${r.warm.n} runs, ${JSON.stringify(r.warm.statuses)}; cold: ${r.cold.status}; ` +
      `action response encoding ${JSON.stringify(r.warm.responseEncodings)} (asked: ${r.acceptEncoding}); ` +
      `page load before asking (TTFB / load event) p50 ${cell(r.warm.pageTtfbMs?.p50)} / ${cell(r.warm.pageLoadMs?.p50)} ms, ` +
      `cold ${cell(r.cold.pageTtfbMs)} / ${cell(r.cold.pageLoadMs)} ms`,
  );
  console.log("\nWhere the time to the first step card goes (per run):\n");
  console.log(row(["span", "cold", "warm p50", "warm p95"]));
  console.log(row(["---", "---:", "---:", "---:"]));
  for (const [label, f] of SPANS) {
    const s: Stat | null = r.warm.spans[label];
    console.log(row([label, cell(f(r.cold)), cell(s?.p50), cell(s?.p95)]));
  }
  const t = r.target;
  const verdict = (met: boolean | null) => (met === null ? "no data" : met ? "met" : "NOT met");
  console.log(
    `\nTarget — ${t.description}: warm p50 ${verdict(t.warmP50Met)} (${cell(r.warm.milestones.firstStep?.p50)} ms), ` +
      `warm p95 ${verdict(t.warmP95Met)} (${cell(r.warm.milestones.firstStep?.p95)} ms), ` +
      `cold ${verdict(t.coldMet)} (${cell(r.cold.firstStep)} ms).`,
  );
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
