import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db";
import { createServerDatabase } from "@/db/testing";
import { makeTestPdf } from "@/lib/testing/pdf";
import { cli, holdLibrary, type Run, releaseLibrary, replaceEnv } from "./testing";

/**
 * The CLI as a user runs it, over a fresh library (a PGlite directory, or a new database on the PostgreSQL server of
 * DATABASE_URL): its `--json` documents parsed from stdout, its exit codes and messages checked.
 *
 * Most commands run in this process (`run` from cli/index.ts, its stdout and stderr captured): the same code, each
 * command opening and closing the library as its own process would, without a process start per command. What only
 * a separate process shows is checked with one: the first ingest of the fresh library (exit code 0, stdout exactly one
 * JSON document, progress on stderr) and a second process refused the embedded database another one holds (exit
 * code 1, the error as JSON).
 */

const ROOT = path.resolve(__dirname, "..");
const SERVER = process.env.DATABASE_URL;
let dir: string;
let env: Record<string, string | undefined>;
let savedEnv: Record<string, string | undefined> | undefined;
let drop: (() => Promise<void>) | undefined;
let firstIngest: Run;

/** A command run as its own process: `node --import tsx cli/index.ts …args` (what `npm run cli` runs). */
function spawnCli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", path.join(ROOT, "cli/index.ts"), ...args],
      // killed before vitest gives up on the test, so a hung command cannot keep holding the PGlite directory
      {
        cwd: ROOT,
        env: env as NodeJS.ProcessEnv,
        maxBuffer: 64 * 1024 * 1024,
        timeout: 270_000,
        killSignal: "SIGKILL",
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr: error?.signal ? `${stderr}\nkilled by ${error.signal}` : stderr });
      },
    );
  });
}

const json = <T>(run: Run): T => {
  expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  return JSON.parse(run.stdout) as T;
};

const PAPERS = [
  {
    file: "glacier.pdf",
    title: "Glacier Retreat Measured by Repeat Photogrammetry",
    pages: [
      "Glacier Retreat Measured by Repeat Photogrammetry\nAbstract. We measure the retreat of alpine glaciers with repeat photogrammetry from archival aerial photographs and recent drone surveys.",
      "2 Method\nGround control points anchor each photogrammetric model. Terminus positions are digitised along flow lines every five years.",
      "3 Results\nThe terminus of the studied glacier retreated 412 metres between 1950 and 2020, with the fastest retreat after 1990 as summer temperatures rose.",
    ],
  },
  {
    file: "enzyme.pdf",
    title: "Thermostable Enzymes from Hot Spring Bacteria",
    pages: [
      "Thermostable Enzymes from Hot Spring Bacteria\nAbstract. We isolate bacteria from volcanic hot springs and characterise their thermostable polymerase enzymes.",
      "Assays. Enzyme activity was assayed at temperatures from 40 to 95 degrees Celsius in phosphate buffer with magnesium ions.",
      "Findings. The purified polymerase kept 80 percent of its activity after one hour at 90 degrees Celsius, far beyond mesophilic homologues.",
    ],
  },
  {
    file: "sonnet.pdf",
    title: "Meter and Rhyme in Renaissance Sonnets",
    pages: [
      "Meter and Rhyme in Renaissance Sonnets\nAbstract. A corpus study of iambic pentameter and rhyme schemes in English and Italian sonnets of the sixteenth century.",
      "Corpus. We scanned 1,200 sonnets for stress patterns and classified each rhyme scheme as Petrarchan, Spenserian or Shakespearean.",
      "Analysis. Shakespearean rhyme schemes dominate the English sonnets after 1590, while the Italian sonnets keep the Petrarchan octave and sestet.",
    ],
  },
];

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "lectern-cli-"));
  await fs.mkdir(path.join(dir, "papers"));
  for (const p of PAPERS) {
    await fs.writeFile(path.join(dir, "papers", p.file), await makeTestPdf({ title: p.title, pages: p.pages }));
  }
  await fs.writeFile(path.join(dir, "papers", "notes.pdf"), "meeting notes, not a PDF\n");
  // the defaults a fresh install has: none of the developer's own Lectern or model settings
  const rest = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(LECTERN_|OPENAI_|DATABASE_URL$)/.test(k)),
  );
  env = { ...rest, LECTERN_DATA_DIR: path.join(dir, "data"), NO_COLOR: "1" };
  if (SERVER) {
    const db = await createServerDatabase(SERVER);
    env.DATABASE_URL = db.url;
    drop = db.drop;
  }
  // the commands run in this process read the same environment (this test file has a process of its own)
  savedEnv = { ...process.env };
  replaceEnv(env);
  firstIngest = await spawnCli("ingest", path.join(dir, "papers"), "--json");
  expect(firstIngest.code, firstIngest.stderr).toBe(0);
}, 300_000);

afterAll(async () => {
  if (savedEnv) replaceEnv(savedEnv);
  try {
    await drop?.();
  } finally {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  }
});

describe("npm run cli, as its own process", () => {
  it("exits 0, prints exactly one JSON document on stdout, and its progress on stderr", () => {
    const { results } = json<{ results: { file: string; status: string }[] }>(firstIngest);
    expect(results.map((r) => `${path.basename(r.file)} ${r.status}`).sort()).toEqual([
      "enzyme.pdf ingested",
      "glacier.pdf ingested",
      "notes.pdf error",
      "sonnet.pdf ingested",
    ]);
    // progress and the summary on stderr, as text
    expect(firstIngest.stderr).toMatch(/✓ ingested {2}\S*glacier\.pdf/);
    expect(firstIngest.stderr).toMatch(/4 files in [\d.]+ s: 3 ingested, 0 replaced, 0 unchanged, 1 errors/);
  });

  it("while another process has the library open: the embedded database is refused (exit 1, the error as JSON), PostgreSQL serves both", async () => {
    const holder = await openDatabase({
      url: env.DATABASE_URL,
      dataDir: env.LECTERN_DATA_DIR,
      role: "cli test",
      migrate: false,
    });
    let other: Run;
    try {
      other = await spawnCli("stats", "--json");
    } finally {
      await holder.close();
    }
    if (SERVER) {
      expect(other.code, other.stderr).toBe(0);
      expect(json<{ papers: number }>(other).papers).toBe(3);
    } else {
      expect(other.code).toBe(1);
      const { error } = json<{ error: { code: string; message: string } }>(other);
      expect(error.code).toBe("conflict:database");
      expect(error.message).toContain(`is in use by another Lectern process (cli test, pid ${process.pid})`);
      expect(other.stderr).toContain("Error: The embedded database");
    }
    // once the holder is gone, the library opens again
    expect(json<{ papers: number }>(await cli("stats", "--json")).papers).toBe(3);
  });
});

describe("npm run cli", () => {
  // the commands here share one open library, as one long-lived process would (cli/testing.ts: holdLibrary); the
  // opening itself (a first start, the lock) is what the process tests above cover
  beforeAll(async () => {
    await holdLibrary();
  });
  afterAll(releaseLibrary);

  it("ingests a folder, one result per file, and reports the file that is not a PDF without losing the others", async () => {
    // a second run finds the three papers unchanged
    const run = await cli("ingest", path.join(dir, "papers"), "--json");
    expect(run.code).toBe(0);
    const { results } = json<{ results: { file: string; status: string; error?: string }[] }>(run);
    const byFile = new Map(results.map((r) => [path.basename(r.file), r]));
    expect(results).toHaveLength(4);
    for (const p of PAPERS) expect(byFile.get(p.file)?.status).toBe("unchanged");
    expect(byFile.get("notes.pdf")).toMatchObject({ status: "error" });
    expect(byFile.get("notes.pdf")?.error).toMatch(/PDF/);
  });

  it("prints library statistics", async () => {
    const stats = json<{ papers: number; pages: number; chunks: number; embedding: { kind: string } }>(
      await cli("stats", "--json"),
    );
    expect(stats).toMatchObject({ papers: 3, pages: 9, embedding: { kind: "latent" } });
    expect(stats.chunks).toBeGreaterThanOrEqual(9);
  });

  it("searches: --json is the documented array, the page that answers first", async () => {
    const run = await cli("search", "how far did the glacier terminus retreat", "--top-k", "3", "--json");
    expect(run.code).toBe(0);
    const results = json<Record<string, unknown>[]>(run);
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(3);
    for (const r of results) {
      expect(Object.keys(r).sort()).toEqual(
        [
          "bibliography",
          "char_end",
          "char_start",
          "chunk_uid",
          "page",
          "paper_id",
          "score",
          "section",
          "text",
          "title",
        ].sort(),
      );
      expect(r.section === null || typeof r.section === "string").toBe(true);
    }
    expect(results[0]).toMatchObject({ title: PAPERS[0]?.title, page: 3, section: "3 Results" });
    expect(String(results[0]?.text)).toContain("412 metres");
    expect(new Set(results.map((r) => r.chunk_uid)).size).toBe(results.length);
  });

  it("treats query operators and SQL as words, and says what is wrong with an empty query", async () => {
    const hostile = await cli("search", "polymerase & (heat | !cold) :* '; drop table chunks; --", "--json");
    expect(hostile.code).toBe(0);
    const results = json<{ title: string }[]>(hostile);
    expect(results[0]?.title).toBe(PAPERS[1]?.title);
    const empty = await cli("search", "   ", "--json");
    expect(empty.code).toBe(1);
    expect(json<{ error: { message: string } }>(empty).error.message).toMatch(/Type a question/);
    // the library is still there
    expect(json<{ papers: number }>(await cli("stats", "--json")).papers).toBe(3);
  });

  const EVAL_QUESTIONS = [
    {
      qid: "G",
      type: "single",
      question: "How many metres did the glacier's terminus retreat between 1950 and 2020?",
      evidence: [{ paper_id: "glacier", page: 3, quote: "retreated 412 metres" }],
    },
    {
      qid: "E",
      type: "single",
      question: "How much polymerase activity remained after an hour at 90 degrees?",
      evidence: [{ paper_id: "enzyme", page: 3, quote: "kept 80 percent of its activity" }],
    },
    {
      qid: "S",
      type: "single",
      question: "Which rhyme scheme dominates English sonnets after 1590?",
      evidence: [{ paper_id: "sonnet", page: 3, quote: "Shakespearean rhyme schemes dominate" }],
    },
    { qid: "N", type: "none", question: "What is the boiling point of liquid nitrogen in kelvin?", evidence: [] },
  ];

  it("evaluates every retriever, with intervals and paired comparisons", async () => {
    const file = path.join(dir, "questions.json");
    await fs.writeFile(file, JSON.stringify(EVAL_QUESTIONS));
    const run = await cli("eval", file, "--retriever", "all", "--json");
    expect(run.code).toBe(0);
    const out = json<{
      runs: { summary: Record<string, unknown> & { intervals: Record<string, { low: number; high: number }> } }[];
      comparisons: { a: string; b: string; questions: number; tests: Record<string, unknown> }[];
    }>(run);
    expect(out.runs.map((r) => r.summary.retriever)).toEqual(["fts", "vector", "hybrid", "hybrid-mmr"]);
    const hybrid = out.runs[2]?.summary;
    expect(hybrid).toMatchObject({ questions: 4, answerable: 3, unanswerable: 1, pageRecall5: 1, mrr: 1 });
    expect(hybrid?.intervals.mrr).toEqual({ low: 1, high: 1 });
    for (const r of out.runs) {
      for (const m of ["pageRecall5", "pageRecall10", "mrr", "ndcg10"]) {
        const ci = r.summary.intervals[m];
        expect(ci?.low).toBeLessThanOrEqual(r.summary[m] as number);
        expect(ci?.high).toBeGreaterThanOrEqual(r.summary[m] as number);
      }
    }
    expect(out.comparisons.map((c) => `${c.a}-${c.b}`)).toEqual([
      "hybrid-fts",
      "hybrid-vector",
      "hybrid-hybrid-mmr",
      "hybrid-mmr-fts",
      "hybrid-mmr-vector",
    ]);
    for (const c of out.comparisons) {
      expect(c.questions).toBe(3);
      const t = c.tests.mrr as { pValue: number; adjustedPValue: number; differing: number; exact: boolean };
      expect(t.exact).toBe(true);
      expect(t.differing).toBeLessThanOrEqual(3);
      // three questions cannot make any difference significant: the smallest two-sided p is 2 / 2³
      expect(t.pValue).toBeGreaterThanOrEqual(0.25);
      expect(t.adjustedPValue).toBeGreaterThanOrEqual(t.pValue);
    }
    // the table form prints the same three sections
    const table = await cli("eval", file, "--retriever", "all");
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("| hybrid |");
    expect(table.stdout).toContain("95% bootstrap intervals");
    expect(table.stdout).toContain("| hybrid − fts |");
  });

  it("rejects an unknown retriever and an unreadable question file with a message and exit code 1", async () => {
    const bad = await cli("eval", path.join(dir, "questions.json"), "--retriever", "bm42");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/Unknown retriever "bm42"/);
    const missing = await cli("eval", path.join(dir, "nope.json"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Cannot read questions/);
  });

  it("evaluates several question files as one set, and refuses a qid that two files share", async () => {
    const all = EVAL_QUESTIONS;
    const first = path.join(dir, "first.json");
    const second = path.join(dir, "second.json");
    await fs.writeFile(first, JSON.stringify(all.slice(0, 2)));
    await fs.writeFile(second, JSON.stringify(all.slice(2)));
    const both = await cli("eval", first, second, "--retriever", "hybrid", "--json");
    expect(both.code).toBe(0);
    const out = json<{ summary: Record<string, unknown>; questions: { qid: string }[] }>(both);
    expect(out.summary).toMatchObject({ questions: 4, answerable: 3, unanswerable: 1 });
    expect(out.questions.map((q) => q.qid)).toEqual(all.map((q) => q.qid));
    const clash = await cli("eval", first, first, "--retriever", "hybrid");
    expect(clash.code).toBe(1);
    expect(clash.stderr).toMatch(/cannot be evaluated together: qid "G" appears twice/);
  });

  it("corrects a paper's metadata: --json reports the change, search finds the new title, bad values exit 1", async () => {
    const [hit] = json<{ paper_id: string; title: string }[]>(await cli("search", "sonnet rhyme schemes", "--json"));
    expect(hit?.title).toBe(PAPERS[2]?.title);
    const id = hit?.paper_id ?? "";
    const run = await cli(
      "edit",
      id,
      "--title",
      "Prosody of Elizabethan Verse",
      "--authors",
      "Ada Lovelace; Mary Somerville",
      "--date",
      "2019-04-01",
      "--json",
    );
    expect(run.code).toBe(0);
    expect(json(run)).toMatchObject({
      paper_id: id,
      changed: ["title", "authors", "year", "publishedDate"],
      metadata: { title: "Prosody of Elizabethan Verse", authors: ["Ada Lovelace", "Mary Somerville"], year: 2019 },
    });
    const found = json<{ paper_id: string; title: string }[]>(await cli("search", "elizabethan prosody", "--json"));
    expect(found[0]).toMatchObject({ paper_id: id, title: "Prosody of Elizabethan Verse" });

    const bad = await cli("edit", id, "--year", "2018");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("The year 2018 does not match the publication date 2019-04-01");
    const missing = await cli("edit", "no-such-paper", "--title", "X", "--json");
    expect(missing.code).toBe(1);
    expect(json<{ error: { code: string } }>(missing).error.code).toBe("not_found:paper");
    const nothing = await cli("edit", id);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain("Nothing to change");
  });
});
