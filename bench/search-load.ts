/**
 * `GET /api/search` under load against a running app, with what each search costs in CPU:
 * `DATABASE_URL=postgres://… npx tsx bench/search-load.ts --url http://127.0.0.1:PORT --pid PID [--levels 1,10,50]`.
 * The app (`next start`, PID its process) serves the library in DATABASE_URL — a database nothing else uses, since
 * the CPU of all its server backends is counted. Adds 50 member accounts there (signed in, one cookie each; the
 * library's owner adds them, made first if it has none), warms the app with 20 searches, then at each level sends
 * that many searches at once, in rounds (the dev questions in turn, each request as its own account, as bench/load.ts
 * does), and prints latency p50/p95/max, throughput, and per search the app process's CPU and the database
 * backends' CPU (from /proc). bench/load.ts measures the deployed topology from scratch (ingestion, two instances,
 * research); this one measures one instance on a library already there, to compare two builds back to back.
 */
import fs from "node:fs";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openDatabase, queryRows } from "@/db";
import { addPerson, createOwner } from "@/lib/auth/people";
import { signIn } from "@/lib/auth/session";
import { percentile } from "@/lib/search/eval";
import { loadBenchQuestions } from "./questions";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    pid: { type: "string" },
    levels: { type: "string", default: "1,10,50" },
  },
});
if (!values.url || !values.pid || !process.env.DATABASE_URL) {
  console.error("usage: DATABASE_URL=… npx tsx bench/search-load.ts --url http://host:port --pid <app pid>");
  process.exit(2);
}
const URL_BASE = values.url;
const APP_PID = Number(values.pid);

/** CPU milliseconds (user + system) of the processes, from /proc (clock ticks of 10 ms). */
function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks * 10;
}

async function main() {
  const handle = await openDatabase({ url: process.env.DATABASE_URL });
  const db = handle.db;
  const password = "bench search-load password, long enough";
  const run = Date.now().toString(36);
  // the library's owner adds the members (a library made for the benchmark gets one)
  const [existing] = await queryRows<{ id: string; email: string }>(
    db,
    sql`select id, email from users where role = 'owner' limit 1`,
  );
  const owner =
    existing ?? (await createOwner(db, { email: `owner-${run}@search-load.bench`, name: "Owner", password }));
  const cookies: string[] = [];
  for (let i = 0; i < 50; i++) {
    const email = `m${i}-${run}@search-load.bench`;
    await addPerson(db, owner, { email, name: `Member ${i}`, password, role: "member" });
    const { setCookies } = await signIn(db, { email, password }, new Headers());
    cookies.push(setCookies.map((c) => c.split(";")[0]).join("; "));
  }
  const questions = loadBenchQuestions().questions.map((q) => q.question);
  const backends = async () =>
    (
      await queryRows<{ pid: number }>(
        db,
        sql`select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`,
      )
    ).map((r) => Number(r.pid));
  let n = 0;
  const one = async (): Promise<number> => {
    const i = n++;
    const q = questions[i % questions.length] as string;
    const t0 = performance.now();
    const res = await fetch(`${URL_BASE}/api/search?q=${encodeURIComponent(q)}`, {
      headers: { cookie: cookies[i % cookies.length] as string },
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /api/search: HTTP ${res.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 20; i++) await one();
  for (const c of (values.levels as string).split(",").map(Number)) {
    const rounds = c === 1 ? 40 : c <= 10 ? 8 : 3;
    const before = await backends();
    const app0 = cpuMs([APP_PID]);
    const db0 = cpuMs(before);
    const t0 = performance.now();
    const ms: number[] = [];
    for (let r = 0; r < rounds; r++) ms.push(...(await Promise.all(Array.from({ length: c }, one))));
    const seconds = (performance.now() - t0) / 1000;
    const after = [...new Set([...before, ...(await backends())])];
    const appCpu = cpuMs([APP_PID]) - app0;
    const dbCpu = cpuMs(after) - db0;
    ms.sort((a, b) => a - b);
    const round1 = (x: number) => Math.round(x * 10) / 10;
    console.log(
      JSON.stringify({
        concurrent: c,
        requests: ms.length,
        p50Ms: Math.round(percentile(ms, 50)),
        p95Ms: Math.round(percentile(ms, 95)),
        maxMs: Math.round(ms.at(-1) ?? 0),
        perSecond: round1(ms.length / seconds),
        appCpuMsPerSearch: round1(appCpu / ms.length),
        dbCpuMsPerSearch: round1(dbCpu / ms.length),
        loadavg: fs.readFileSync("/proc/loadavg", "utf8").trim(),
      }),
    );
  }
  await handle.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
