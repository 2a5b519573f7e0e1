import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import pg from "pg";
// Relative imports: Playwright does not resolve the `@/` alias.
import { makeTestPdf } from "../lib/testing/pdf";
import { startTestS3, type TestS3 } from "../lib/testing/s3";
import { LibraryPage } from "./pages/library";
import { ResearchPage } from "./pages/research";

/**
 * The multi-process topology of issue 24, started by this file itself on PostgreSQL (DATABASE_URL; skipped without
 * it): two app instances (A and B: `next start` on the e2e run's build, LECTERN_WORKER=off, a data directory each),
 * two workers (`cli worker --concurrency 1`), one fresh database `<db>_mp` on that server, PDFs in an S3 stand-in
 * (s3rver), and a chat-model stand-in for instance A whose requests can be held, so a research run stays in flight
 * for as long as a test needs. Everything is killed, and the database dropped, afterwards.
 *
 * 1. 20 PDFs uploaded through A are followed to the end from B (its library page's server queue, then its list).
 * 2. A worker SIGKILLed as it claims a file (its output says so): the other finishes that file (its job retried once
 *    the heartbeat stops) and the rest, and nothing is half-written — every paper's PDF is in the bucket and no
 *    object there is unnamed, no upload is left, no passage lacks its vector once the library step has run.
 * 3. A run started on A is followed live from B (its steps while A's model call is held, the answer once released,
 *    without a reload); a second held run's instance is SIGKILLed and B shows the run interrupted (its lease expired).
 * 4. 20 offline runs at once, 10 pages on each instance (A restarted), all complete.
 *
 * Waits are generous: they guard hangs, not speed (2 shared cores; a killed worker's job waits for its heartbeat to
 * stop, then for the retry's backoff).
 */

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const OWNER = { name: "Multi Owner", email: "owner@mp.example", password: "multi-process owner password 1" };
/** LECTERN_RUN_LEASE_MS of every instance: a dead instance's run is interrupted within 1.5 × this. */
const LEASE_MS = 5_000;
/** LECTERN_JOB_HEARTBEAT_SECONDS of every process (pg-boss's floor): a killed worker's job is taken again sooner. */
const HEARTBEAT_SECONDS = 10;
const S3_BUCKET = "lectern-mp";
const S3_PREFIX = "lab";

// ---- Papers ---------------------------------------------------------------------------------------------------------

interface Topic {
  method: string;
  field: string;
  benchmark: string;
  figure: string;
}

const METHODS = [
  "Amberline",
  "Birchwood",
  "Cedarfall",
  "Duneglass",
  "Emberlake",
  "Fjordmark",
  "Granitewing",
  "Harborlight",
  "Irisfield",
  "Junipercrest",
  "Kelpstone",
  "Lagoonreach",
  "Meadowrun",
  "Nimbusgate",
  "Obsidianpath",
  "Prairiefold",
  "Quartzhollow",
  "Reefwatch",
  "Sierraloft",
  "Tundrabridge",
  "Umberglen",
  "Valewind",
  "Willowmere",
  "Xenonridge",
  "Yarrowdale",
  "Zephyrholm",
  "Ashgrove",
  "Brackenhill",
  "Copperbay",
  "Driftmoor",
];
const FIELDS = [
  "protein folding",
  "traffic forecasting",
  "speech enhancement",
  "crop yield estimation",
  "malware detection",
  "glacier monitoring",
  "legal document retrieval",
  "sign language recognition",
  "battery health prediction",
  "coral reef mapping",
  "earthquake early warning",
  "music transcription",
  "wildfire spread modelling",
  "drug interaction screening",
  "air quality sensing",
  "handwriting recognition",
  "sea ice charting",
  "fraud detection",
  "bird song classification",
  "solar flare forecasting",
  "soil moisture retrieval",
  "wind turbine inspection",
  "pollen counting",
  "tide gauge repair",
  "lichen surveying",
  "bridge strain analysis",
  "volcano ash tracking",
  "river sediment tracing",
  "honeybee colony health",
  "meteor shower counting",
];

function topic(i: number): Topic {
  return {
    method: METHODS[i] as string,
    field: FIELDS[i] as string,
    benchmark: `${(METHODS[i] as string).slice(0, 4)}Bench`,
    figure: `${10 + i}.${(i * 7) % 10}`,
  };
}

function paperTitle(t: Topic): string {
  return `${t.method} Networks for ${t.field.replace(/\b\w/g, (c) => c.toUpperCase())}`;
}

/** A question the offline answer meets with the paper's result sentence. */
function question(t: Topic): string {
  return `How much does ${t.method} lower the error on the ${t.benchmark} benchmark for ${t.field}?`;
}

/** A generated paper about one topic; `extraPages` pads it (longer extraction, a wider window for a kill). */
async function topicPdf(t: Topic, extraPages = 0): Promise<{ name: string; bytes: Uint8Array; title: string }> {
  const title = paperTitle(t);
  const pages = [
    [
      title,
      "Mara Quill, Tobias Fenwick",
      "Abstract",
      `We introduce ${t.method}, a network for ${t.field}. ${t.method} combines a sparse encoder with a calibrated decoder and is evaluated on the ${t.benchmark} benchmark.`,
      "1 Introduction",
      `Work on ${t.field} needs models that are accurate and cheap. ${t.method} is both.`,
    ].join("\n"),
    [
      "2 Results",
      `${t.method} lowers the error on the ${t.benchmark} benchmark to ${t.figure} percent.`,
      `The gain over earlier ${t.field} systems comes from the calibrated decoder.`,
    ].join("\n"),
  ];
  // (each page in words of its own: lines repeated page after page are taken for running heads and removed, and a
  // paper left with no text is refused as scanned)
  for (let p = 0; p < extraPages; p++) {
    const other = FIELDS[(p * 7 + 3) % FIELDS.length] as string;
    const baseline = METHODS[(p * 11 + 5) % METHODS.length] as string;
    pages.push(
      [
        `${3 + p} Analysis, part ${p + 1}`,
        `This section studies ${t.method} on a split of ${t.benchmark} drawn from ${other}. Against ${baseline}, the encoder keeps its sparsity, and the decoder's calibration holds across ${p + 2} seeds.`,
        `Removing the ${baseline} component from ${t.method} costs accuracy on ${t.field} when ${other} data is mixed in.`,
      ].join("\n"),
    );
  }
  const bytes = await makeTestPdf({ pages, title, author: "Mara Quill, Tobias Fenwick" });
  return { name: `mp-${t.method.toLowerCase()}.pdf`, bytes, title };
}

// ---- Processes --------------------------------------------------------------------------------------------------------

interface Proc {
  name: string;
  child: ChildProcess;
  /** Its output, for the failure report. */
  log: string[];
  exit: Promise<number | null>;
  exited: boolean;
}

const procs: Proc[] = [];

/** Starts a process in a group of its own (npx and the node it starts are killed together). */
function startProc(name: string, args: string[], env: Env): Proc {
  const child = spawn("npx", args, {
    cwd: ROOT,
    env: env as NodeJS.ProcessEnv,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log: string[] = [];
  const proc: Proc = { name, child, log, exit: Promise.resolve(null), exited: false };
  const take = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (line.trim()) log.push(line);
    }
    if (log.length > 4000) log.splice(0, log.length - 4000);
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  proc.exit = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      proc.exited = true;
      log.push(`[exited: ${signal ?? code}]`);
      resolve(code);
    });
  });
  procs.push(proc);
  return proc;
}

function signalGroup(proc: Proc, signal: NodeJS.Signals): void {
  if (proc.exited || proc.child.pid === undefined) return;
  try {
    process.kill(-proc.child.pid, signal);
  } catch {
    // already gone
  }
}

async function stopProc(proc: Proc, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  signalGroup(proc, signal);
  const stopped = await Promise.race([proc.exit.then(() => true), sleep(15_000).then(() => false)]);
  if (!stopped) signalGroup(proc, "SIGKILL");
  await Promise.race([proc.exit, sleep(5_000)]);
}

// a test runner that dies leaves nothing running
process.on("exit", () => {
  for (const p of procs) signalGroup(p, "SIGKILL");
});

/** Environment variables of a process started here (NODE_ENV left to the process). */
type Env = Record<string, string | undefined>;

/** As node's APIs take it (Next's types make NODE_ENV required there; `next start` sets it itself). */
const processEnv = (env: Env) => env as unknown as NodeJS.ProcessEnv;

/** Prints how long the current step took (figures for the report; nothing asserts on them). */
function stopwatch(name: string): (what: string) => void {
  const t0 = Date.now();
  return (what) => console.log(`[multi-process] ${name}: ${what} after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function tail(proc: Proc, lines = 60): string {
  return `---- ${proc.name} (last ${lines} lines) ----\n${proc.log.slice(-lines).join("\n")}`;
}

/** Waits until `url` answers (any status below 500); fails at once when the process exits. */
async function waitForHttp(proc: Proc, url: string, timeoutMs = 180_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.exited) throw new Error(`${proc.name} exited before answering on ${url}\n${tail(proc)}`);
    try {
      const res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new Error(`${proc.name} did not answer on ${url} within ${timeoutMs / 1000} s\n${tail(proc)}`);
}

async function waitForLog(proc: Proc, pattern: RegExp, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.log.some((l) => pattern.test(l))) return;
    if (proc.exited) throw new Error(`${proc.name} exited before logging ${pattern}\n${tail(proc)}`);
    await sleep(250);
  }
  throw new Error(`${proc.name} did not log ${pattern} within ${timeoutMs / 1000} s\n${tail(proc)}`);
}

// ---- The chat-model stand-in --------------------------------------------------------------------------------------------

/**
 * What instance A takes for an OpenAI-compatible server (the AI SDK's chat-completions endpoint, lib/ai/providers.ts):
 * while `holding`, every request waits unanswered; otherwise (and when released) it gets a 500, so each model step
 * falls back to its offline path and the run completes.
 */
interface ModelStandIn {
  port: number;
  /** Requests received (any state). */
  received: number;
  /** Requests waiting now. */
  waiting: number;
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

function startModelStandIn(): Promise<ModelStandIn> {
  let holding = false;
  const held = new Set<http.ServerResponse>();
  const fail = (res: http.ServerResponse) => {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "the test's model stand-in answers nothing", type: "server_error" } }));
  };
  const state = { received: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `no ${req.method} ${req.url} here` } }));
        return;
      }
      state.received++;
      if (!holding) return fail(res);
      held.add(res);
      res.on("close", () => held.delete(res));
    });
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        port,
        get received() {
          return state.received;
        },
        get waiting() {
          return held.size;
        },
        hold() {
          holding = true;
        },
        release() {
          holding = false;
          for (const res of held) fail(res);
          held.clear();
        },
        close: () =>
          new Promise<void>((r) => {
            holding = false;
            for (const res of held) res.destroy();
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

// ---- The topology -------------------------------------------------------------------------------------------------------

interface Instance {
  proc: Proc;
  url: string;
}

const run = promisify(execFile);

/** The database of this file, beside DATABASE_URL's (as scripts/e2e-server.sh makes `<db>_e2e_<port>`). */
function mpDatabaseUrl(base: string): { url: string; name: string; admin: string } {
  const url = new URL(base);
  const baseName = decodeURIComponent(url.pathname.slice(1)) || "postgres";
  const name = `${baseName}_mp`.replace(/[^A-Za-z0-9_]/g, "_").toLowerCase();
  const admin = url.toString();
  url.pathname = `/${name}`;
  return { url: url.toString(), name, admin };
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The environment every process of the topology shares (nothing of the caller's configuration leaks in). */
function sharedEnv(dbUrl: string, s3: TestS3): Env {
  const env: Env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(OPENAI_|LECTERN_|AWS_|DATABASE_URL$|PORT$|HOSTNAME$|NODE_ENV$|__NEXT|NEXT_)/.test(k)) continue;
    env[k] = v;
  }
  return {
    ...env,
    ...s3.env(S3_PREFIX),
    DATABASE_URL: dbUrl,
    // empty: set, so a .env file cannot fill them (the app treats empty as unset)
    OPENAI_API_KEY: "",
    OPENAI_BASE_URL: "",
    LECTERN_EMBEDDING_PROVIDER: "latent",
    LECTERN_EMBEDDING_MODEL: "",
    LECTERN_EMBEDDING_DIMENSIONS: "",
    LECTERN_WORKER: "off",
    LECTERN_RUN_LEASE_MS: String(LEASE_MS),
    LECTERN_JOB_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS),
    LECTERN_WARMUP: "0",
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

test.describe
  .serial("several processes on one PostgreSQL (issue 24)", () => {
    test.skip(
      !process.env.DATABASE_URL,
      "The multi-process topology needs PostgreSQL: set DATABASE_URL (it runs in .ci/run's PostgreSQL phase).",
    );

    let db: { url: string; name: string; admin: string };
    let s3: TestS3;
    let s3client: S3Client;
    let model: ModelStandIn;
    let env: Env;
    let tmp: string;
    let A: Instance;
    let B: Instance;
    let workers: Proc[] = [];
    let context: BrowserContext;
    let pool: pg.Pool;
    let batch1 = "";

    const startInstance = async (name: string, extra: Env = {}): Promise<Instance> => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const proc = startProc(name, ["next", "start", "--hostname", "127.0.0.1", "--port", String(port)], {
        ...env,
        PORT: String(port),
        HOSTNAME: "127.0.0.1",
        LECTERN_PUBLIC_URL: url,
        LECTERN_DATA_DIR: fs.mkdtempSync(path.join(tmp, `${name}-`)),
        ...extra,
      });
      return { proc, url };
    };
    const startWorkerProc = (name: string): Proc =>
      startProc(name, ["tsx", "cli/index.ts", "worker", "--concurrency", "1"], {
        ...env,
        LECTERN_DATA_DIR: fs.mkdtempSync(path.join(tmp, `${name}-`)),
      });
    /** Instance A's model: the stand-in (its runs can be held in flight). */
    const modelEnv = (): Env => ({
      OPENAI_BASE_URL: `http://127.0.0.1:${model.port}/v1`,
      OPENAI_API_KEY: "test",
    });

    const q = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> =>
      (await pool.query<T>(sql, params)).rows;

    test.beforeAll(async ({ browser }) => {
      test.setTimeout(6 * 60_000);
      const lap = stopwatch("start");
      db = mpDatabaseUrl(process.env.DATABASE_URL as string);
      await adminQuery(db.admin, `drop database if exists "${db.name}" with (force)`);
      await adminQuery(db.admin, `create database "${db.name}"`);
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-mp-"));
      s3 = await startTestS3(S3_BUCKET);
      s3client = new S3Client({
        endpoint: s3.endpoint,
        region: "us-east-1",
        forcePathStyle: true,
        credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
      });
      model = await startModelStandIn();
      env = sharedEnv(db.url, s3);

      // the owner account, by the command line (which also applies the migrations once, before anything races on them)
      const add = ["user", "add", OWNER.email, "--name", OWNER.name, "--role", "owner", "--password", OWNER.password];
      await run("npx", ["tsx", "cli/index.ts", ...add, "--json"], {
        cwd: ROOT,
        env: processEnv({ ...env, LECTERN_DATA_DIR: fs.mkdtempSync(path.join(tmp, "cli-")) }),
        timeout: 180_000,
      });
      pool = new pg.Pool({ connectionString: db.url, max: 3 });
      lap("database, bucket and owner account ready");

      A = await startInstance("instance-A", modelEnv());
      B = await startInstance("instance-B");
      workers = [startWorkerProc("worker-1"), startWorkerProc("worker-2")];
      await Promise.all([
        waitForHttp(A.proc, `${A.url}/sign-in`),
        waitForHttp(B.proc, `${B.url}/sign-in`),
        ...workers.map((w) => waitForLog(w, /is working the job queue/)),
      ]);

      lap("2 instances and 2 workers ready");
      // signed in once through A's page; the session is in the shared database, and cookies on 127.0.0.1 go to B too
      context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
      const page = await context.newPage();
      await page.goto(`${A.url}/`);
      await expect(page).toHaveURL(/\/sign-in/);
      await page.getByLabel("Email").fill(OWNER.email);
      await page.getByLabel("Password").fill(OWNER.password);
      await page.getByTestId("auth-submit").click();
      await expect(page).toHaveURL(`${A.url}/`);
      await expect(page.getByTestId("user-menu")).toBeVisible();
      await page.goto(`${B.url}/`);
      await expect(page).toHaveURL(`${B.url}/`);
      await expect(page.getByTestId("user-menu")).toBeVisible();
      await page.close();
      lap("signed in");
    });

    // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructured first argument
    test.afterEach(async ({}, testInfo) => {
      if (testInfo.status === testInfo.expectedStatus) return;
      for (const p of procs) await testInfo.attach(p.name, { body: p.log.join("\n"), contentType: "text/plain" });
      console.log(procs.map((p) => tail(p, 40)).join("\n"));
    });

    test.afterAll(async () => {
      test.setTimeout(2 * 60_000);
      // E2E_MP_LOG_DIR: every process's output is kept there (to read what the processes did in a passing run)
      const logDir = process.env.E2E_MP_LOG_DIR;
      if (logDir) {
        fs.mkdirSync(logDir, { recursive: true });
        for (const [i, p] of procs.entries())
          fs.writeFileSync(path.join(logDir, `${i}-${p.name}.log`), `${p.log.join("\n")}\n`);
      }
      await context?.close().catch(() => {});
      await Promise.all(procs.map((p) => stopProc(p)));
      await pool?.end().catch(() => {});
      await model?.close().catch(() => {});
      s3client?.destroy();
      await s3?.stop().catch(() => {});
      if (db) await adminQuery(db.admin, `drop database if exists "${db.name}" with (force)`).catch(() => {});
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    });

    /** The session cookie of the browser context, for requests made outside the browser. */
    const cookieHeader = async (url: string) =>
      (await context.cookies(url)).map((c) => `${c.name}=${c.value}`).join("; ");

    /**
     * POST /api/ingest on `base` with the files, as a script would: returns the batch id from the stream's first line
     * and, in `finished`, every event of the stream up to its end (it follows the batch until it is done).
     */
    const upload = async (base: string, files: { name: string; bytes: Uint8Array }[]) => {
      const form = new FormData();
      for (const f of files)
        form.append("files", new Blob([new Uint8Array(f.bytes)], { type: "application/pdf" }), f.name);
      const res = await fetch(`${base}/api/ingest`, {
        method: "POST",
        body: form,
        headers: { cookie: await cookieHeader(base), origin: base },
      });
      expect(res.status, `POST ${base}/api/ingest`).toBe(200);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let buffered = "";
      const events: Record<string, unknown>[] = [];
      const next = async (): Promise<boolean> => {
        const { done, value } = await reader.read();
        if (done) return false;
        buffered += decoder.decode(value, { stream: true });
        let at = buffered.indexOf("\n");
        while (at >= 0) {
          const line = buffered.slice(0, at).trim();
          buffered = buffered.slice(at + 1);
          if (line) events.push(JSON.parse(line));
          at = buffered.indexOf("\n");
        }
        return true;
      };
      while (events.length === 0 && (await next())) {}
      const first = events[0];
      expect(first?.type, `the upload stream's first event: ${JSON.stringify(first)}`).toBe("queued");
      const finished = (async () => {
        while (await next()) {}
        return events;
      })();
      finished.catch(() => {}); // awaited by the test; a test that fails before must not leave an unhandled rejection
      return { batchId: first?.batch_id as string, finished };
    };

    /** The files of a batch as the database has them. */
    const batchFiles = (batchId: string) =>
      q<{
        id: string;
        file_name: string;
        status: string;
        attempts: number;
        paper_id: string | null;
        error: string | null;
      }>(
        "select id, file_name, status, attempts, paper_id, error from ingest_files where batch_id = $1 order by position",
        [batchId],
      );

    async function listObjects(folder: string): Promise<string[]> {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await s3client.send(
          new ListObjectsV2Command({ Bucket: S3_BUCKET, Prefix: `${S3_PREFIX}/${folder}`, ContinuationToken: token }),
        );
        for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key.slice(S3_PREFIX.length + 1));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    }

    test("20 PDFs uploaded through instance A are followed to the end from instance B", async () => {
      test.setTimeout(10 * 60_000);
      const files = await Promise.all(Array.from({ length: 20 }, (_, i) => topicPdf(topic(i))));
      const pageB = await context.newPage();
      const libraryB = new LibraryPage(pageB);
      // an idle library page asks the server to answer when work is queued (GET /api/ingest/queue?wait=25)
      const idleWait = pageB.waitForRequest((r) => r.url().includes("/api/ingest/queue?wait="));
      await pageB.goto(`${B.url}/`);
      await expect(libraryB.rows).toHaveCount(0);
      await idleWait;
      const waitSent = Date.now();

      const lap = stopwatch("20 uploads");
      const { batchId, finished } = await upload(A.url, files);
      batch1 = batchId;
      lap("queued");

      // B's library page shows the server's queue, each file's stage, then every file ingested and the papers listed.
      // The batch queued on A reaches B's waiting request by PostgreSQL's NOTIFY, before that wait (25 s) could have
      // ended on its own.
      const queue = pageB.getByTestId("job-queue");
      await expect(queue, "B's library page shows the server's queue").toBeVisible();
      expect(Date.now() - waitSent, "B's waiting page was woken by the batch, not by its wait's end").toBeLessThan(
        24_000,
      );
      await expect(queue.getByTestId("job-file")).toHaveCount(20);
      await expect(queue.locator('[data-testid="job-file"][data-status="ingested"]')).toHaveCount(20, {
        timeout: 8 * 60_000,
      });
      await expect(queue.locator('[data-testid="job-file"][data-status="error"]')).toHaveCount(0);
      lap("all ingested (B's queue panel)");
      await expect(libraryB.rows).toHaveCount(20, { timeout: 60_000 });
      lap("listed on B");
      // all done without a failure, B's queue folds to its count; "Show files" opens it again
      const toggle = queue.getByTestId("job-queue-toggle");
      await expect(toggle).toHaveAttribute("aria-expanded", "false", { timeout: 60_000 });
      await expect(queue.getByTestId("job-file").first()).toBeHidden();
      await expect(queue.getByTestId("job-queue-count")).toHaveText("(20 files, all done)");
      await queue.screenshot({ path: test.info().outputPath("queue-folded.png") });
      await toggle.click();
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
      await expect(queue.getByTestId("job-file").first()).toBeVisible();
      await pageB.screenshot({ path: test.info().outputPath("queue-open.png") });
      for (const f of files) await expect(libraryB.rowWithTitle(f.title)).toHaveCount(1);
      await pageB.close();

      // B's queue API says the same, from the database
      const res = await context.request.get(`${B.url}/api/ingest/queue`);
      expect(res.status()).toBe(200);
      const body = (await res.json()) as { ok: boolean; data: { id: string; files: { status: string }[] }[] };
      const mine = body.data.find((b) => b.id === batchId);
      expect(mine?.files.map((f) => f.status)).toEqual(Array(20).fill("ingested"));

      // and A's upload stream followed the batch to its end, from the database, whichever worker ran each file
      const events = await finished;
      const done = events.at(-1) as { type: string; results?: { status: string; error: string | null }[] };
      expect(done.type, `the stream's last event: ${JSON.stringify(done)}`).toBe("done");
      expect(done.results?.map((r) => r.status)).toEqual(Array(20).fill("ingested"));
      expect(events.filter((e) => e.type === "file_done")).toHaveLength(20);
    });

    test("a worker SIGKILLed mid-job: the other finishes it, and nothing is left half-written", async () => {
      test.setTimeout(10 * 60_000);
      expect(batch1, "the first test's batch").not.toBe("");
      // long papers (22 pages: about a second of work each, where a 6-page one takes 0.1–0.2 s), so the file a worker
      // is killed on is still being worked when the signal lands, whichever file it claims first
      const files = await Promise.all(Array.from({ length: 10 }, (_, i) => topicPdf(topic(20 + i), 20)));
      // the victim is killed as soon as it says it has claimed a file (cli worker: "file … working, attempt 1"): a kill
      // at an arbitrary moment could land between two of its files, or after a file's outcome was recorded, and no
      // file would be taken again
      const [victim, survivor] = workers as [Proc, Proc];
      let claimed = "";
      const killed = new Promise<void>((resolve) => {
        let pending = "";
        const onOutput = (chunk: Buffer) => {
          // whole lines only (a chunk may end inside one)
          const lines = (pending + chunk.toString("utf8")).split("\n");
          pending = lines.pop() ?? "";
          const line = lines.map((l) => /^\[worker\] file (\S+) .*: working, attempt 1$/.exec(l)).find(Boolean);
          if (!line) return;
          signalGroup(victim, "SIGKILL");
          claimed = line[1] as string;
          victim.child.stderr?.off("data", onOutput);
          resolve();
        };
        // (the CLI prints its progress on stderr: stdout is for --json)
        victim.child.stderr?.on("data", onOutput);
      });
      const lap = stopwatch("worker killed");
      const { batchId, finished } = await upload(A.url, files);
      lap("queued");
      let waited: NodeJS.Timeout | undefined;
      await Promise.race([
        killed,
        new Promise((_, reject) => {
          waited = setTimeout(() => reject(new Error(`${victim.name} claimed no file\n${tail(victim)}`)), 180_000);
        }),
      ]).finally(() => clearTimeout(waited));
      await victim.exit;
      lap("one worker SIGKILLed as it claimed a file");

      // the survivor finishes every file, the killed one retried once its heartbeat stopped
      await expect
        .poll(async () => (await batchFiles(batchId)).filter((f) => f.status === "queued" || f.status === "running"), {
          message: "every file of the batch finished by the surviving worker",
          timeout: 6 * 60_000,
          intervals: [1000],
        })
        .toEqual([]);
      lap("every file finished");
      const rows = await batchFiles(batchId);
      expect(
        rows.filter((f) => f.status === "error"),
        "no file failed",
      ).toEqual([]);
      const retried = rows.filter((f) => f.attempts > 1);
      expect(retried.length, "the killed worker's file was taken again").toBeGreaterThanOrEqual(1);
      expect(
        retried.map((f) => f.id),
        "the file the worker was killed on",
      ).toContain(claimed);
      // a file whose paper was saved just before the kill is found unchanged by its retry; every other is ingested
      for (const f of rows)
        expect(f.status, f.file_name).toMatch(f.attempts > 1 ? /^(ingested|unchanged)$/ : /^ingested$/);
      expect(
        rows.every((f) => f.paper_id),
        "every file names its paper",
      ).toBe(true);
      const events = await finished;
      expect((events.at(-1) as { type: string }).type).toBe("done");

      // the library step has run for both batches (the survivor's)
      await expect
        .poll(
          async () =>
            (await q<{ library_status: string }>("select library_status from ingest_batches order by created_at")).map(
              (b) => b.library_status,
            ),
          { message: "the library step done for every batch", timeout: 5 * 60_000, intervals: [1000] },
        )
        .toEqual(["done", "done"]);
      lap("library step done");

      // nothing half-written: 30 papers, each with its PDF in the bucket, and no object in the bucket that no paper names
      const papers = await q<{ id: string; file_path: string }>("select id, file_path from papers order by id");
      expect(papers).toHaveLength(30);
      for (const p of papers) {
        const head = await s3client
          .send(new HeadObjectCommand({ Bucket: S3_BUCKET, Key: `${S3_PREFIX}/${p.file_path}` }))
          .catch((e: Error) => ({ ContentLength: 0, error: e.name }));
        expect(head.ContentLength, `${p.id}'s PDF (${p.file_path}) in the bucket`).toBeGreaterThan(0);
      }
      expect((await listObjects("pdfs/")).sort()).toEqual(papers.map((p) => p.file_path).sort());
      // no upload left waiting for a file that is finished
      expect(await listObjects("uploads/"), "uploads left in the bucket").toEqual([]);
      expect(await q("select id from ingest_files where upload_key is not null")).toEqual([]);
      // no passage without its vector
      const [missing] = await q<{ chunks: number; summaries: number; total: number }>(
        `select (select count(*) from chunks where embedding is null)::int as chunks,
                (select count(*) from summary_chunks where embedding is null)::int as summaries,
                (select count(*) from chunks)::int as total`,
      );
      expect(missing?.total, "passages stored").toBeGreaterThan(0);
      expect(missing, "passages without a vector").toMatchObject({ chunks: 0, summaries: 0 });
      expect(survivor.exited, "the surviving worker still runs").toBe(false);
    });

    test("a run started on A is followed live from B, and B shows it interrupted when A is killed", async () => {
      test.setTimeout(8 * 60_000);
      const pageA = await context.newPage();
      const pageB = await context.newPage();
      const researchA = new ResearchPage(pageA);
      const researchB = new ResearchPage(pageB);
      const stepStates = (page: Page) =>
        page
          .getByTestId("research-step")
          .evaluateAll((els) =>
            els.map((e) => `${(e as HTMLElement).dataset.stepId}:${(e as HTMLElement).dataset.status}`),
          );

      // A's model holds its answer: the run stays in flight
      model.hold();
      const before = model.received;
      await pageA.goto(`${A.url}/research`);
      await researchA.ask(question(topic(0)));
      await expect(pageA).toHaveURL(/\/research\/[A-Za-z0-9_-]{16,}$/);
      const runId = researchA.runIdFromUrl() as string;
      await expect
        .poll(() => model.waiting, { message: "A's run waits on its model", timeout: 60_000 })
        .toBeGreaterThanOrEqual(1);
      expect(model.received).toBeGreaterThan(before);
      await expect(researchA.run).toHaveAttribute("data-status", "running");

      // B, which does not run it, shows it live: its steps as A has them, still running
      await pageB.goto(`${B.url}/research/${runId}`);
      await expect(researchB.run).toHaveAttribute("data-run-id", runId);
      await expect(researchB.run).toHaveAttribute("data-status", "running");
      await expect(researchB.steps.first()).toBeVisible();
      // both pages read at each poll: A's own page may still be drawing the step its run reached before the model call
      await expect
        .poll(
          async () => {
            const [a, b] = await Promise.all([stepStates(pageA), stepStates(pageB)]);
            return { same: a.join(" ") === b.join(" "), a, b };
          },
          { message: "B's step cards are A's" },
        )
        .toMatchObject({ same: true });
      expect(
        (await stepStates(pageB)).some((s) => s.endsWith(":in_progress")),
        "a step in progress on B",
      ).toBe(true);
      await pageB.evaluate(() => {
        (window as unknown as { __notReloaded?: boolean }).__notReloaded = true;
      });

      const lap = stopwatch("live runs");
      // released: the model fails, each step falls back offline, the run completes — and B shows it without a reload
      model.release();
      await expect(researchA.run).toHaveAttribute("data-status", "completed", { timeout: 3 * 60_000 });
      await expect(researchB.run).toHaveAttribute("data-status", "completed", { timeout: 3 * 60_000 });
      await expect(researchB.answer).toContainText(`${topic(0).figure} percent`);
      expect(await stepStates(pageB)).toEqual(await stepStates(pageA));
      expect(
        await pageB.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded),
        "B's page was not reloaded",
      ).toBe(true);
      const [stored] = await q<{ status: string }>("select status from research_runs where id = $1", [runId]);
      expect(stored?.status).toBe("completed");
      lap("B showed the run completed");

      // a second held run; its instance is killed outright — B sees it interrupted once A's lease has expired
      model.hold();
      await pageA.goto(`${A.url}/research`);
      await researchA.ask(question(topic(1)));
      await expect(pageA).toHaveURL(/\/research\/[A-Za-z0-9_-]{16,}$/);
      const killedRunId = researchA.runIdFromUrl() as string;
      expect(killedRunId).not.toBe(runId);
      await expect
        .poll(() => model.waiting, { message: "A's second run waits on its model", timeout: 60_000 })
        .toBeGreaterThanOrEqual(1);
      await pageB.goto(`${B.url}/research/${killedRunId}`);
      await expect(researchB.run).toHaveAttribute("data-status", "running");
      await pageA.close();
      signalGroup(A.proc, "SIGKILL");
      await A.proc.exit;
      model.release();
      const killedAt = stopwatch("live runs");
      // (within 1.5 leases of the last renewal; the wait only guards a hang)
      await expect(researchB.run).toHaveAttribute("data-status", "interrupted", { timeout: 90_000 });
      await expect(pageB.getByTestId("research-interrupted")).toBeVisible();
      killedAt("B showed the run interrupted (A SIGKILLed)");
      await expect(pageB.getByTestId("research-run-again")).toBeVisible();
      const [killed] = await q<{ status: string }>("select status from research_runs where id = $1", [killedRunId]);
      expect(killed?.status).toBe("interrupted");
      await pageB.close();
    });

    test("20 concurrent offline runs, 10 on each instance, all complete", async () => {
      test.setTimeout(10 * 60_000);
      const lap = stopwatch("20 concurrent runs");
      // A again, offline this time (its model stand-in is no longer needed)
      A = await startInstance("instance-A2");
      await waitForHttp(A.proc, `${A.url}/sign-in`);

      const pages = await Promise.all(Array.from({ length: 20 }, () => context.newPage()));
      const bases = pages.map((_, i) => (i % 2 === 0 ? A.url : B.url));
      await Promise.all(
        pages.map(async (page, i) => {
          await page.goto(`${bases[i]}/research`, { timeout: 120_000 });
          await expect(new ResearchPage(page).question).toBeEditable({ timeout: 120_000 });
        }),
      );
      lap("A restarted, 20 pages open");
      // all asked at once
      await Promise.all(pages.map((page, i) => new ResearchPage(page).ask(question(topic(i)))));
      const runIds = await Promise.all(
        pages.map(async (page, i) => {
          const research = new ResearchPage(page);
          await expect(page, `run ${i} started on ${bases[i]}`).toHaveURL(/\/research\/[A-Za-z0-9_-]{16,}$/, {
            timeout: 120_000,
          });
          await expect(research.run, `run ${i} (${bases[i]})`).toHaveAttribute("data-status", "completed", {
            timeout: 6 * 60_000,
          });
          await expect(research.answer).toContainText(`${topic(i).figure} percent`);
          await expect(research.error).toHaveCount(0);
          return research.runIdFromUrl() as string;
        }),
      );
      lap("all 20 completed");
      expect(new Set(runIds).size).toBe(20);
      const rows = await q<{ status: string; n: number }>(
        "select status, count(*)::int as n from research_runs where id = any($1) group by status",
        [runIds],
      );
      expect(rows).toEqual([{ status: "completed", n: 20 }]);
      await Promise.all(pages.map((p) => p.close()));
    });
  });
