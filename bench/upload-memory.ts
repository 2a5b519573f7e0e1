/**
 * The server's memory while it refuses oversized uploads: `npm run bench:upload-memory -- [--port 3250]
 * [--skip-build] [--uploads 4] [--size-mb 150] [--limit-mb 100] [--json]`.
 *
 * Builds the app (`next build`, unless --skip-build) and starts `next start` on 127.0.0.1:<port> as a child process,
 * offline, on a fresh embedded database in a temporary data directory with LECTERN_MAX_UPLOAD_MB=<limit-mb>. An owner
 * account is made there first and signed in (the upload route needs a member's session). Then `uploads` uploads of
 * `size-mb` MB each (one PDF-headed file per request, multipart as a browser sends it, generated as it is sent) go to
 * POST /api/ingest at once. The server's resident memory — VmRSS in /proc/<pid>/status of the process listening on
 * the port — is read before (after a warm-up request), then every 25 ms until the last upload has its answer: the rise
 * from before to the peak is the figure, against a target of under 100 MB. Each upload must be refused with 413 and
 * the limit in its message, and no temporary file may be left in <dataDir>/uploads.
 *
 * Prints a markdown summary, or one JSON document with --json (on stdout; progress on stderr). The server is always
 * stopped at the end, also on an error or Ctrl-C, and the data directory deleted.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "@/db";
import { createOwner } from "@/lib/auth/people";
import { signIn } from "@/lib/auth/session";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DATE = process.env.BENCH_DATE ?? new Date().toISOString().slice(0, 10);
const TARGET_RISE_MB = 100;
const MB = 1024 * 1024;

interface Args {
  port: number;
  skipBuild: boolean;
  uploads: number;
  sizeMb: number;
  limitMb: number;
  json: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { port: 3250, skipBuild: false, uploads: 4, sizeMb: 150, limitMb: 100, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return Number(v);
    };
    if (a === "--json") args.json = true;
    else if (a === "--skip-build") args.skipBuild = true;
    else if (a === "--port") args.port = value();
    else if (a === "--uploads") args.uploads = value();
    else if (a === "--size-mb") args.sizeMb = value();
    else if (a === "--limit-mb") args.limitMb = value();
    else throw new Error(`Unknown option ${a}`);
  }
  if (!Number.isInteger(args.port) || args.port <= 0 || args.port > 65535) throw new Error("--port: a port number");
  if (args.port === 3000 || args.port === 3100) {
    throw new Error(`--port ${args.port} belongs to the app (3000) or the e2e server (3100); use another`);
  }
  if (!(args.uploads >= 1 && args.sizeMb > 0 && args.limitMb > 0)) throw new Error("--uploads, --size-mb, --limit-mb");
  if (args.sizeMb <= args.limitMb) throw new Error("--size-mb must exceed --limit-mb: the uploads are to be refused");
  return args;
}

// ---------------------------------------------------------------------------------------------------------------
// Child processes (`next build`, `next start`), each in its own process group so that stopping one stops everything
// it started; only these groups are ever signalled.

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
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => process.exit(130));
}

function childEnv(dataDir: string, limitMb: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    // exported empty rather than deleted: Next's env loader fills only undefined variables from .env files
    OPENAI_API_KEY: "",
    OPENAI_BASE_URL: "",
    DATABASE_URL: "",
    LECTERN_DATA_DIR: dataDir,
    LECTERN_MAX_UPLOAD_MB: String(limitMb),
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_ENV: "production",
  };
}

async function build(log: (s: string) => void, env: NodeJS.ProcessEnv): Promise<void> {
  log("next build …");
  const child = spawn("npx", ["next", "build"], { cwd: ROOT, env, detached: true, stdio: ["ignore", 2, 2] });
  children.add(child);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  children.delete(child);
  if (code !== 0) throw new Error(`next build failed (exit code ${code})`);
}

// ---------------------------------------------------------------------------------------------------------------
// The server's memory: VmRSS of the process that listens on the port (npx and the `next` launcher are other
// processes of the group, which hold no upload).

function pidsOfGroup(pgid: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        // field 5 of /proc/<pid>/stat is the process group (after the command name in parentheses)
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) === pgid;
      } catch {
        return false;
      }
    });
}

function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, "utf8").split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      const local = cols[1];
      // state 0A is LISTEN
      if (local && cols[3] === "0A" && Number.parseInt(local.split(":")[1] ?? "", 16) === port) {
        inodes.add(cols[9] as string);
      }
    }
  }
  return inodes;
}

function serverPid(pgid: number, port: number): number | null {
  const inodes = listeningInodes(port);
  for (const pid of pidsOfGroup(pgid)) {
    try {
      for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
        const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode && inodes.has(inode)) return pid;
      }
    } catch {
      // a process that ended meanwhile
    }
  }
  return null;
}

function rssBytes(pid: number): number {
  const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
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

async function startServer(port: number, env: NodeJS.ProcessEnv, log: (s: string) => void) {
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn("npx", ["next", "start", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  const tail: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      for (const line of chunk.split("\n").filter((l) => l.trim())) {
        tail.push(line);
        if (tail.length > 100) tail.shift();
        process.stderr.write(`[next] ${line}\n`);
      }
    });
  }
  const deadline = Date.now() + 90_000;
  while (!(await answers(`${baseUrl}/icon.svg`))) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`next start exited (${child.exitCode ?? child.signalCode}):\n${tail.join("\n")}`);
    }
    if (Date.now() > deadline) throw new Error(`next start did not answer on ${baseUrl} within 90 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const pid = serverPid(child.pid as number, port);
  if (pid === null) throw new Error(`no process of the server's group listens on ${port}`);
  log(`next start answered on ${baseUrl}; the server is process ${pid}`);
  return { child, baseUrl, pid };
}

// ---------------------------------------------------------------------------------------------------------------
// The uploads: multipart bodies written as they are sent (64 KB at a time, respecting backpressure), as a browser's
// form upload of one file; the answer is read as soon as it comes, and sending stops then.

interface UploadOutcome {
  status: number | null;
  message: string | null;
  /** Bytes of the body sent before the answer arrived. */
  sentBeforeAnswer: number;
  ms: number;
  error: string | null;
}

function upload(baseUrl: string, cookie: string, name: string, sizeBytes: number): Promise<UploadOutcome> {
  const boundary = `----lecternbench${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n` +
      "Content-Type: application/pdf\r\n\r\n%PDF-1.7\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const fileBytes = sizeBytes - "%PDF-1.7\n".length;
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const t0 = performance.now();
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const outcome: UploadOutcome = { status: null, message: null, sentBeforeAnswer: 0, ms: 0, error: null };
    const url = new URL("/api/ingest", baseUrl);
    const req = http.request(url, {
      method: "POST",
      headers: {
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(head.length + fileBytes + tail.length),
        cookie,
        origin: baseUrl,
        "sec-fetch-site": "same-origin",
      },
    });
    const finish = () => {
      outcome.ms = performance.now() - t0;
      req.destroy();
      resolve(outcome);
    };
    req.on("response", (res) => {
      answered = true;
      outcome.status = res.statusCode ?? null;
      outcome.sentBeforeAnswer = sent;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        body += c;
      });
      res.on("end", () => {
        try {
          outcome.message = (JSON.parse(body) as { error?: { message?: string } }).error?.message ?? body;
        } catch {
          outcome.message = body.slice(0, 300);
        }
        finish();
      });
      res.on("error", () => finish());
    });
    req.on("error", (e) => {
      if (!answered) {
        outcome.error = e.message;
        outcome.sentBeforeAnswer = sent;
        finish();
      }
    });
    const write = async () => {
      req.write(head);
      sent += head.length;
      let left = fileBytes;
      while (left > 0 && !answered && !req.destroyed) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        sent += piece.length;
        if (!req.write(piece)) {
          await new Promise<void>((r) => {
            const done = () => {
              req.off("drain", done);
              req.off("close", done);
              r();
            };
            req.on("drain", done);
            req.on("close", done);
          });
        }
      }
      if (!answered && !req.destroyed) req.end(tail);
    };
    void write();
  });
}

/** A message as one table cell: one line, at most 160 characters, no `|`. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/** A warm-up request: the route's modules loaded, the session read, the form parsed (no file: 400). */
async function warmUp(baseUrl: string, cookie: string): Promise<number> {
  const form = new FormData();
  form.append("note", "warm-up");
  const res = await fetch(new URL("/api/ingest", baseUrl), {
    method: "POST",
    body: form,
    headers: { cookie, origin: baseUrl, "sec-fetch-site": "same-origin" },
  });
  await res.arrayBuffer();
  return res.status;
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-upload-"));
  const env = childEnv(dataDir, args.limitMb);
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    if (!args.skipBuild) await build(log, env);

    // an owner account and its session, in the database the server will open (PGlite: one process at a time)
    const handle = await openDatabase({ dataDir, role: "bench:upload-memory" });
    let cookie: string;
    try {
      const password = "bench password, long enough";
      await createOwner(handle.db, { email: "bench@lectern.local", name: "Bench", password });
      const { setCookies } = await signIn(handle.db, { email: "bench@lectern.local", password }, new Headers());
      cookie = setCookies.map((c) => c.split(";")[0]).join("; ");
    } finally {
      await handle.close();
    }

    server = await startServer(args.port, env, log);
    const warm = await warmUp(server.baseUrl, cookie);
    if (warm !== 400) throw new Error(`the warm-up upload answered ${warm}, not 400 (no files): is the session valid?`);
    await new Promise((r) => setTimeout(r, 1000));
    const before = rssBytes(server.pid);
    log(`RSS before: ${(before / MB).toFixed(1)} MB; ${args.uploads} uploads of ${args.sizeMb} MB …`);

    let peak = before;
    const { pid } = server;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, rssBytes(pid));
      } catch {
        // the process went away: the uploads will say so
      }
    }, 25);
    const t0 = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: args.uploads }, (_, i) =>
        upload(server?.baseUrl as string, cookie, `oversized-${i + 1}.pdf`, args.sizeMb * MB),
      ),
    );
    const wallMs = performance.now() - t0;
    // a last look, once the answers are in (a late allocation would show here)
    await new Promise((r) => setTimeout(r, 500));
    peak = Math.max(peak, rssBytes(pid));
    clearInterval(sampler);

    const uploadsDir = path.join(dataDir, "uploads");
    const leftOver = fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir).length : 0;
    const limitText = `${args.limitMb} MB`;
    const refused = outcomes.every(
      (o) => o.status === 413 && o.message?.includes(limitText) && o.message.includes("LECTERN_MAX_UPLOAD_MB"),
    );
    const riseMb = (peak - before) / MB;
    const result = {
      date: DATE,
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 1024 ** 3)} GB, Node ${process.version}`,
      uploads: args.uploads,
      sizeMb: args.sizeMb,
      limitMb: args.limitMb,
      rssBeforeMb: Math.round((before / MB) * 10) / 10,
      rssPeakMb: Math.round((peak / MB) * 10) / 10,
      riseMb: Math.round(riseMb * 10) / 10,
      targetRiseMb: TARGET_RISE_MB,
      pass: riseMb < TARGET_RISE_MB && refused && leftOver === 0,
      wallMs: Math.round(wallMs),
      temporaryFilesLeft: leftOver,
      outcomes: outcomes.map((o) => ({
        status: o.status,
        message: o.message,
        sentBeforeAnswerMb: Math.round((o.sentBeforeAnswer / MB) * 10) / 10,
        ms: Math.round(o.ms),
        error: o.error,
      })),
    };
    if (args.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      const lines = [
        `## Upload memory (${result.date})`,
        "",
        `${result.uploads} concurrent uploads of ${result.sizeMb} MB, limit ${result.limitMb} MB (LECTERN_MAX_UPLOAD_MB); ${result.machine}`,
        "",
        "| server RSS before | peak | rise | target | all refused (413, limit named) | temporary files left | wall |",
        "|---|---|---|---|---|---|---|",
        `| ${result.rssBeforeMb} MB | ${result.rssPeakMb} MB | ${result.riseMb} MB | < ${TARGET_RISE_MB} MB | ${refused ? "yes" : "NO"} | ${leftOver} | ${(wallMs / 1000).toFixed(1)} s |`,
        "",
        "| upload | status | sent before the answer | answer after | message |",
        "|---|---|---|---|---|",
        ...result.outcomes.map(
          (o, i) =>
            `| ${i + 1} | ${o.status ?? o.error} | ${o.sentBeforeAnswerMb} MB | ${(o.ms / 1000).toFixed(1)} s | ${oneLine(o.message ?? "")} |`,
        ),
        "",
        result.pass ? "PASS" : "FAIL",
      ];
      process.stdout.write(`${lines.join("\n")}\n`);
    }
    process.exitCode = result.pass ? 0 : 1;
  } finally {
    if (server) await stopChild(server.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
