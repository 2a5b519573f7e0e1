/**
 * Research runs on the library in LECTERN_DATA_DIR (or DATABASE_URL): `npm run bench:research [-- questions.json …]
 * [--json] [--rounds N] [--mock-rounds N] [--latency MS] [--skip-app] [--skip-mock] [--offline-only]
 * [--save-evidence FILE]`.
 *
 * Uses the question files given (each a set, reported separately and, with several, together), else the dev
 * questions when present (../shared/corpus/dev-questions.json), else a few built-in questions, and measures the
 * orchestrator (`runResearch`) three ways (`--offline-only`: the first only, for a quick answer-quality run):
 * - offline (no model): the cold first run after the database opens, then — after a warm-up pass over every
 *   question — `rounds` passes: time to the first event, to the first completed step, to the first sources and to the
 *   first answer text; the whole run (p50/p95); each step's duration (p50/p95); citation validity;
 * - offline through the app's path (`startRun`: every event saved to research_runs/steps/citations as it happens):
 *   run time, time until everything is saved;
 * - with a mock model of fixed latency per call (`bench/research-mock.ts`): the run's overhead (its duration minus the
 *   time spent inside model calls), per run and per step, and citation validity under the model-judge.
 * Citation validity is also checked independently of the orchestrator: each citation's page text is read from the
 * database and the quote must appear on it (whitespace normalised), and its offsets must slice exactly to it.
 *
 * Answer quality, per question set, offline and with the mock model (the first measured round; each share with its
 * 95 % Wilson interval; lib/research/eval-answers.ts):
 * - evidence page cited: answerable questions (type ≠ none) whose answer cites one of their evidence pages;
 * - evidence sentence in the answer: answerable questions with evidence quotes where a sentence of the answer (its
 *   citation markers and markdown removed) holds ≥ 80 % of the words of one of the quotes;
 * - unanswerable declined: questions of type `none` without a cited answer (no papers or passages found, or an
 *   answer without citations);
 * - citation validity: citations whose quote is on the page they name (read from the database).
 *
 * `--save-evidence FILE` writes, per question of the first measured offline round, what its answer was composed from
 * (the passages as the composer read them, the analysis): one JSON line each, after a line of the papers' file
 * names. bench/fit-answer-weights.ts fits the sentence scorer's weights on it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Database, openDatabase } from "@/db";
import { getPageText, listPaperFileNames } from "@/db/queries/papers";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { getEnv } from "@/lib/env";
import { runLibraryUpgrades } from "@/lib/library/upgrades";
import type { ResearchDeps } from "@/lib/research/deps";
import { declinedRun, evidenceInAnswer, formatShare, type Share, shareOf } from "@/lib/research/eval-answers";
import type { ComposedFrom } from "@/lib/research/lifecycle";
import { runResearch } from "@/lib/research/orchestrator";
import { startRun, waitForRun } from "@/lib/research/runs";
import type { Citation, ResearchEvent, ResearchRunState, RetrievedRecord } from "@/lib/research/types";
import { percentile, samePaper } from "@/lib/search/eval";
import { type BenchQuestion, DEV_QUESTIONS, loadBenchQuestions } from "./questions";
import { type CallKind, type ModelCall, timedMockModel } from "./research-mock";

const DATE = process.env.BENCH_DATE ?? new Date().toISOString().slice(0, 10);
const STEP_IDS = [
  "analysis",
  "query_expansion",
  "search_summaries",
  "search_content",
  "model_rerank",
  "synthesis",
  "verification",
  "formatting",
];

type Question = BenchQuestion;

interface Args {
  /** Question files, one set each (the dev questions when none is given). */
  files: string[];
  json: boolean;
  rounds: number;
  mockRounds: number;
  latencyMs: number;
  app: boolean;
  mock: boolean;
  /** Writes what each offline answer was composed from (the first measured round), one JSON line per question. */
  saveEvidence: string | null;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    files: [],
    json: false,
    rounds: Number(process.env.BENCH_ROUNDS ?? 3),
    mockRounds: 2,
    latencyMs: 300,
    app: true,
    mock: true,
    saveEvidence: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--json") args.json = true;
    else if (a === "--rounds") args.rounds = Number(argv[++i]);
    else if (a === "--mock-rounds") args.mockRounds = Number(argv[++i]);
    else if (a === "--latency") args.latencyMs = Number(argv[++i]);
    else if (a === "--skip-app") args.app = false;
    else if (a === "--skip-mock") args.mock = false;
    else if (a === "--offline-only") args.app = args.mock = false;
    else if (a === "--save-evidence") args.saveEvidence = path.resolve(argv[++i] as string);
    else if (!a.startsWith("--")) args.files.push(path.resolve(a));
    else throw new Error(`Unknown option ${a}`);
  }
  for (const f of args.files) if (!fs.existsSync(f)) throw new Error(`No question file ${f}`);
  if (args.files.length === 0) args.files.push(DEV_QUESTIONS);
  return args;
}

/** One question file: its questions (qids prefixed with the set's label when there are several sets). */
interface QuestionSet {
  label: string;
  source: string;
  questions: Question[];
}

function loadSets(files: string[]): QuestionSet[] {
  const sets: QuestionSet[] = [];
  for (const file of files) {
    const { questions, source } = loadBenchQuestions(file);
    let label = path.basename(file).replace(/\.json$/i, "");
    if (source === "built-in") label = "built-in";
    while (sets.some((s) => s.label === label)) label = `${label}+`;
    sets.push({ label, source, questions });
  }
  if (sets.length > 1)
    for (const set of sets) set.questions = set.questions.map((q) => ({ ...q, qid: `${set.label}:${q.qid}` }));
  return sets;
}

/** One run, timed from the call: when each kind of event first arrived. */
interface Timed {
  qid: string;
  state: ResearchRunState;
  retrieved: RetrievedRecord[];
  /** Wall time from the call to its settling. */
  wallMs: number;
  firstEventMs: number;
  firstStepDoneMs: number | null;
  firstSourcesMs: number | null;
  firstAnswerMs: number | null;
  /** Model time per step id (mock only). */
  modelMsByStep: Record<string, number>;
  modelMs: number;
  modelCalls: Partial<Record<CallKind, number>>;
}

async function timedRun(
  deps: ResearchDeps,
  q: Question,
  calls?: ModelCall[],
  onComposed?: (input: ComposedFrom) => void,
): Promise<Timed> {
  const before = calls?.length ?? 0;
  let firstEventMs = -1;
  let firstStepDoneMs: number | null = null;
  let firstSourcesMs: number | null = null;
  let firstAnswerMs: number | null = null;
  let retrieved: RetrievedRecord[] = [];
  /** [stepId, since] while a step is in progress: model calls are attributed to it. */
  const spans: { id: string; start: number; end: number }[] = [];
  const open = new Map<string, number>();
  const t0 = performance.now();
  const onEvent = (e: ResearchEvent) => {
    const now = performance.now();
    const t = now - t0;
    if (firstEventMs < 0) firstEventMs = t;
    if (e.kind === "step") {
      if (e.step.status === "in_progress" && !open.has(e.step.id)) open.set(e.step.id, now);
      if (e.step.status === "completed" || e.step.status === "failed") {
        spans.push({ id: e.step.id, start: open.get(e.step.id) ?? now, end: now });
        open.delete(e.step.id);
      }
      if (e.step.status === "completed" && firstStepDoneMs === null) firstStepDoneMs = t;
      if (e.step.status === "completed" && e.step.sources.length > 0 && firstSourcesMs === null) firstSourcesMs = t;
    }
    if (e.kind === "answer_delta" && firstAnswerMs === null) firstAnswerMs = t;
  };
  const state = await runResearch(deps, q.question, {
    runId: `bench-${q.qid}-${Math.random().toString(36).slice(2, 8)}`,
    onEvent,
    onRetrieved: (r) => {
      retrieved = r;
    },
    ...(onComposed ? { onComposed } : {}),
  });
  const wallMs = performance.now() - t0;
  const modelMsByStep: Record<string, number> = {};
  const modelCalls: Partial<Record<CallKind, number>> = {};
  const byStep: Record<string, ModelCall[]> = {};
  const mine = calls?.slice(before) ?? [];
  for (const c of mine) {
    modelCalls[c.kind] = (modelCalls[c.kind] ?? 0) + 1;
    const step = spans.find((s) => c.start >= s.start && c.start <= s.end)?.id ?? "(between steps)";
    const list = byStep[step] ?? [];
    list.push(c);
    byStep[step] = list;
  }
  // time spent waiting on the model: the union of the calls' intervals (the re-ranking's calls run at once)
  for (const [step, list] of Object.entries(byStep)) modelMsByStep[step] = busyMs(list);
  const modelMs = busyMs(mine);
  return {
    qid: q.qid,
    state,
    retrieved,
    wallMs,
    firstEventMs,
    firstStepDoneMs,
    firstSourcesMs,
    firstAnswerMs,
    modelMsByStep,
    modelMs,
    modelCalls,
  };
}

/** The length of the union of the calls' [start, end] intervals. */
function busyMs(calls: ModelCall[]): number {
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const c of [...calls].sort((a, b) => a.start - b.start)) {
    if (c.start > end) {
      total += c.end - c.start;
      end = c.end;
    } else if (c.end > end) {
      total += c.end - end;
      end = c.end;
    }
  }
  return total;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const stats = (xs: number[]) => ({
  p50: round1(percentile(xs, 50)),
  p95: round1(percentile(xs, 95)),
  max: round1(xs.length > 0 ? Math.max(...xs) : 0),
  n: xs.length,
});
const defined = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null);

function stepStats(runs: Timed[], value: (r: Timed, id: string) => number | null) {
  const out: Record<string, ReturnType<typeof stats>> = {};
  for (const id of STEP_IDS) {
    const xs = defined(runs.map((r) => value(r, id)));
    if (xs.length > 0) out[id] = stats(xs);
  }
  return out;
}

const stepMs = (r: Timed, id: string) =>
  r.state.steps.find((s) => s.id === id && s.status === "completed")?.durationMs ?? null;

/** Time in the three searches: query_expansion's first search (the step minus its model call), both search steps. */
const retrievalMs = (r: Timed) =>
  ["query_expansion", "search_summaries", "search_content"].reduce(
    (sum, id) => sum + (stepMs(r, id) ?? 0) - (r.modelMsByStep[id] ?? 0),
    0,
  );

function perQuestion(runs: Timed[]) {
  const out: Record<string, { status: string; runMsP50: number; citations: number; supported: number }> = {};
  for (const qid of new Set(runs.map((r) => r.qid))) {
    const mine = runs.filter((r) => r.qid === qid);
    const last = mine[mine.length - 1] as Timed;
    out[qid] = {
      status: last.state.status === "completed" ? "completed" : `${last.state.status}:${last.state.error?.code}`,
      runMsP50: round1(
        percentile(
          mine.map((r) => r.state.durationMs ?? r.wallMs),
          50,
        ),
      ),
      citations: last.state.citations.length,
      supported: last.state.citations.filter((c) => c.supported).length,
    };
  }
  return out;
}

/**
 * Does the answer cite the dev set's evidence? Per question with evidence (its first run): an evidence page cited,
 * an evidence paper cited. Questions of type `none` (the library has no answer): how many still got an answer.
 */
function evidenceCited(runs: Timed[], questions: Question[], aliases: Map<string, string[]>) {
  const isPaper = (id: string, want: string) =>
    samePaper(id, want) || (aliases.get(id) ?? []).some((a) => samePaper(a, want));
  let answerable = 0;
  let page = 0;
  let paper = 0;
  let none = 0;
  let noneAnswered = 0;
  const missed: string[] = [];
  for (const q of questions) {
    const r = runs.find((x) => x.qid === q.qid);
    if (!r) continue;
    const cites = r.state.status === "completed" ? r.state.citations : [];
    if (q.type === "none") {
      none++;
      if (r.state.status === "completed") noneAnswered++;
      continue;
    }
    if (q.evidence.length === 0) continue;
    answerable++;
    if (cites.some((c) => q.evidence.some((e) => isPaper(c.paperId, e.paper_id) && c.page === e.page))) page++;
    else missed.push(q.qid);
    if (cites.some((c) => q.evidence.some((e) => isPaper(c.paperId, e.paper_id)))) paper++;
  }
  return { answerable, evidencePageCited: page, evidencePaperCited: paper, missedPage: missed, none, noneAnswered };
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

interface CitationCheck {
  total: number;
  /** Resolved to a retrieved passage of that paper and page (chunkUid set, and the page among the content hits). */
  resolved: number;
  supported: number;
  /** The quote appears on the page read from the database (whitespace normalised). */
  quoteOnPage: number;
  /** `page.slice(charStart, charEnd)` is exactly the quote (what the viewer highlights). */
  offsetsExact: number;
  /** Runs that completed with at least one citation / with none. */
  runsWithCitations: number;
  runsWithoutCitations: number;
  failures: { qid: string; marker: string; problem: string }[];
}

async function checkCitations(db: Database, runs: Timed[]): Promise<CitationCheck> {
  const out: CitationCheck = {
    total: 0,
    resolved: 0,
    supported: 0,
    quoteOnPage: 0,
    offsetsExact: 0,
    runsWithCitations: 0,
    runsWithoutCitations: 0,
    failures: [],
  };
  const pageCache = new Map<string, string | null>();
  const page = async (paperId: string, pageNumber: number) => {
    const key = `${paperId}\u0000${pageNumber}`;
    if (!pageCache.has(key)) pageCache.set(key, await getPageText(db, { paperId, pageNumber }));
    return pageCache.get(key) ?? null;
  };
  for (const r of runs) {
    if (r.state.status !== "completed") continue;
    if (r.state.citations.length === 0) out.runsWithoutCitations++;
    else out.runsWithCitations++;
    const hits = new Set(r.retrieved.filter((x) => x.stage === "content").map((x) => `${x.paperId}:${x.page}`));
    for (const c of r.state.citations as Citation[]) {
      out.total++;
      const fail = (problem: string) => {
        if (out.failures.length < 40) out.failures.push({ qid: r.qid, marker: c.marker, problem });
      };
      const resolved = c.chunkUid !== null && hits.has(`${c.paperId}:${c.page}`);
      if (resolved) out.resolved++;
      else fail(`not resolved: ${c.reason ?? "no retrieved passage"}`);
      if (c.supported) out.supported++;
      else if (resolved) fail(`unsupported: ${c.reason ?? ""}`);
      const text = await page(c.paperId, c.page);
      if (text === null) {
        fail("page not in the database");
        continue;
      }
      if (c.quote && squash(text).includes(squash(c.quote))) out.quoteOnPage++;
      else if (resolved) fail("quote not on the page");
      if (c.charStart !== null && c.charEnd !== null && c.quote && text.slice(c.charStart, c.charEnd) === c.quote)
        out.offsetsExact++;
      else if (resolved && c.quote && squash(text.slice(c.charStart ?? 0, c.charEnd ?? 0)) === squash(c.quote))
        out.offsetsExact++; // the quote is whitespace-collapsed (splitSentences); the offsets still span it
      else if (resolved) fail("offsets do not slice to the quote");
    }
  }
  return out;
}

const share = (n: number, of: number) => (of === 0 ? null : Math.round((n / of) * 1000) / 10);

/** Answer quality of one set: `first` holds one run per question (the first measured round), `all` every run. */
async function answerQuality(
  db: Database,
  first: Timed[],
  all: Timed[],
  questions: Question[],
  aliases: Map<string, string[]>,
) {
  const ids = new Set(questions.map((q) => q.qid));
  const mine = first.filter((r) => ids.has(r.qid));
  const evidence = evidenceCited(mine, questions, aliases);
  const citations = await checkCitations(db, mine);
  let withQuotes = 0;
  let quoted = 0;
  let none = 0;
  let declined = 0;
  const declinedHow: Record<string, number> = {};
  const sentenceMissed: string[] = [];
  const noneAnswered: string[] = [];
  /** Per answerable question: the best share of an evidence quote's words in one sentence of the answer. */
  const quoteCoverage: Record<string, number> = {};
  for (const q of questions) {
    const r = mine.find((x) => x.qid === q.qid);
    if (!r) continue;
    if (q.type === "none") {
      none++;
      const how = declinedRun({
        status: r.state.status,
        errorCode: r.state.error?.code ?? null,
        citations: r.state.citations.length,
        // an answer the orchestrator marks as declining, when it does
        declined: (r.state as { declined?: unknown }).declined === true,
      });
      if (how) {
        declined++;
        declinedHow[how] = (declinedHow[how] ?? 0) + 1;
      } else {
        const status = r.state.status === "completed" ? "completed" : `${r.state.status}:${r.state.error?.code}`;
        noneAnswered.push(`${q.qid} (${status}, ${r.state.citations.length} citations)`);
      }
      continue;
    }
    const quotes = q.evidence.map((e) => e.quote).filter((x): x is string => typeof x === "string" && x.trim() !== "");
    if (quotes.length === 0) continue;
    withQuotes++;
    const m = evidenceInAnswer(quotes, r.state.status === "completed" ? r.state.answer : "");
    quoteCoverage[q.qid] = Math.round(m.coverage * 100) / 100;
    if (m.met) quoted++;
    else sentenceMissed.push(q.qid);
  }
  return {
    n: questions.length,
    answerable: evidence.answerable,
    none,
    evidencePageCited: shareOf(evidence.evidencePageCited, evidence.answerable),
    evidencePaperCited: shareOf(evidence.evidencePaperCited, evidence.answerable),
    evidenceSentenceInAnswer: shareOf(quoted, withQuotes),
    unanswerableDeclined: shareOf(declined, none),
    citationValidity: shareOf(citations.quoteOnPage, citations.total),
    citationSupported: shareOf(citations.supported, citations.total),
    runMs: stats(all.filter((r) => ids.has(r.qid)).map((r) => r.state.durationMs ?? r.wallMs)),
    declinedHow,
    missed: {
      evidencePage: evidence.missedPage,
      evidenceSentence: sentenceMissed,
      unanswerableAnswered: noneAnswered,
    },
    quoteCoverage,
  };
}

type Quality = Awaited<ReturnType<typeof answerQuality>>;

function statusCounts(runs: Timed[]) {
  const counts: Record<string, number> = {};
  const errors: { qid: string; step: string | null; code: string; message: string }[] = [];
  for (const r of runs) {
    const key = r.state.status === "completed" ? "completed" : `${r.state.status}:${r.state.error?.code ?? "?"}`;
    counts[key] = (counts[key] ?? 0) + 1;
    if (r.state.status !== "completed" && !errors.some((e) => e.qid === r.qid)) {
      errors.push({
        qid: r.qid,
        step: r.state.steps.find((s) => s.status === "failed")?.id ?? null,
        code: r.state.error?.code ?? "?",
        message: r.state.error?.message ?? "",
      });
    }
  }
  return { counts, errors };
}

function timingSummary(runs: Timed[]) {
  return {
    firstEventMs: stats(runs.map((r) => r.firstEventMs)),
    firstStepDoneMs: stats(defined(runs.map((r) => r.firstStepDoneMs))),
    firstSourcesMs: stats(defined(runs.map((r) => r.firstSourcesMs))),
    firstAnswerMs: stats(defined(runs.map((r) => r.firstAnswerMs))),
    runMs: stats(runs.map((r) => r.state.durationMs ?? r.wallMs)),
    stepsMs: stepStats(runs, stepMs),
  };
}

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpu: cpus[0]?.model.trim() ?? "?",
    node: process.version,
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
    date: DATE,
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const sets = loadSets(args.files);
  const questions = sets.flatMap((s) => s.questions);
  const source = sets.map((s) => s.source).join(", ");
  const env = getEnv();
  const log = (s: string) => (args.json ? process.stderr.write(`${s}\n`) : console.log(s));
  const tOpen = performance.now();
  const handle = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.dataDir,
    role: "bench:research",
    prepare: runLibraryUpgrades,
  });
  const openMs = performance.now() - tOpen;
  const embedder = getEmbeddingProvider(env);
  const offline: ResearchDeps = {
    db: handle.db,
    embedder,
    chatModel: null,
    llmTimeoutMs: env.LECTERN_LLM_TIMEOUT_MS,
    runTimeoutMs: env.LECTERN_RESEARCH_TIMEOUT_MS,
  };
  if (args.saveEvidence) {
    // the papers' file names first: question sets name papers by their arXiv file name
    const names = Object.fromEntries((await listPaperFileNames(handle.db)).map((p) => [p.id, p.fileName]));
    fs.writeFileSync(args.saveEvidence, `${JSON.stringify({ fileNames: names })}\n`);
  }
  const loadAtStart = os.loadavg()[0] ?? 0;
  try {
    log(`${handle.driver} at ${handle.location}; ${questions.length} questions from ${source}`);
    // cold: the first run after the database opened (what a user sees after a server start)
    const cold = await timedRun(offline, questions[0] as Question);
    log(`cold first run (${cold.qid}): ${Math.round(cold.state.durationMs ?? 0)} ms`);
    // warm-up: every question once, not measured
    log("warm-up: one pass over every question (not measured)");
    for (const q of questions) await timedRun(offline, q);

    const runs: Timed[] = [];
    for (let r = 0; r < args.rounds; r++) {
      for (const q of questions) {
        const save =
          args.saveEvidence && r === 0
            ? (c: ComposedFrom) =>
                fs.appendFileSync(args.saveEvidence as string, `${JSON.stringify({ qid: q.qid, ...c })}\n`)
            : undefined;
        runs.push(await timedRun(offline, q, undefined, save));
      }
      log(`offline round ${r + 1}/${args.rounds} done`);
    }
    const offlineCitations = await checkCitations(handle.db, runs.slice(0, questions.length));
    const aliases = new Map(
      (await listPaperFileNames(handle.db)).map((p): [string, string[]] => [p.id, [p.fileName.replace(/\.pdf$/i, "")]]),
    );

    let app: Record<string, unknown> | null = null;
    if (args.app) {
      const total: number[] = [];
      const saved: number[] = [];
      const first: number[] = [];
      let persistErrors = 0;
      for (const q of questions) {
        const t0 = performance.now();
        const started = startRun(offline, q.question, {
          onPersistError: (e) => {
            persistErrors++;
            log(`persist error: ${e}`);
          },
        });
        let firstAt = -1;
        let finishedAt = -1;
        for await (const e of started.events) {
          if (firstAt < 0) firstAt = performance.now() - t0;
          if (e.kind === "run_finished") finishedAt = performance.now() - t0;
        }
        await waitForRun(started.runId);
        first.push(firstAt);
        total.push(finishedAt);
        saved.push(performance.now() - t0);
      }
      app = { firstEventMs: stats(first), runMs: stats(total), savedMs: stats(saved), persistErrors };
      log("app path (startRun, persisted) done");
    }

    let mock: Record<string, unknown> | null = null;
    let mockRuns: Timed[] = [];
    if (args.mock) {
      const m = timedMockModel({ latencyMs: args.latencyMs });
      const deps: ResearchDeps = { ...offline, chatModel: m.model };
      for (const q of questions.slice(0, 2)) await timedRun(deps, q, m.calls); // warm-up of the model path
      m.judgeStats.claims = m.judgeStats.supported = m.judgeStats.cutOff = 0;
      const mruns: Timed[] = [];
      for (let r = 0; r < args.mockRounds; r++) {
        for (const q of questions) mruns.push(await timedRun(deps, q, m.calls));
        log(`mock-model round ${r + 1}/${args.mockRounds} done`);
      }
      mockRuns = mruns;
      const done = mruns.filter((r) => r.state.status === "completed");
      const overhead = done.map((r) => (r.state.durationMs ?? r.wallMs) - r.modelMs);
      const calls: Partial<Record<CallKind, number>> = {};
      for (const r of mruns)
        for (const [k, n] of Object.entries(r.modelCalls)) calls[k as CallKind] = (calls[k as CallKind] ?? 0) + n;
      const fellBack = mruns
        .filter((r) => r.state.warnings.length > 0)
        .map((r) => ({ qid: r.qid, warnings: r.state.warnings }));
      mock = {
        latencyMsPerCall: args.latencyMs,
        ...timingSummary(mruns),
        modelMs: stats(done.map((r) => r.modelMs)),
        overheadMs: stats(overhead),
        overheadOutsideRetrievalMs: stats(
          done.map((r) => (r.state.durationMs ?? r.wallMs) - r.modelMs - retrievalMs(r)),
        ),
        overheadByStepMs: stepStats(done, (r, id) => {
          const d = stepMs(r, id);
          return d === null ? null : d - (r.modelMsByStep[id] ?? 0);
        }),
        modelCalls: calls,
        status: statusCounts(mruns),
        citations: await checkCitations(handle.db, mruns),
        evidence: evidenceCited(mruns, questions, aliases),
        judge: { ...m.judgeStats },
        warnings: fellBack,
        perQuestion: perQuestion(mruns),
      };
    }

    // answer quality per set, and of every question together when there are several sets
    const groups = [
      ...sets,
      ...(sets.length > 1 ? [{ label: "all sets", source, questions, union: true }] : []),
    ] as (QuestionSet & { union?: boolean })[];
    const quality = [];
    for (const g of groups) {
      quality.push({
        label: g.label,
        source: g.source,
        union: g.union === true,
        questions: g.questions.length,
        offline: await answerQuality(handle.db, runs.slice(0, questions.length), runs, g.questions, aliases),
        mock: args.mock
          ? await answerQuality(handle.db, mockRuns.slice(0, questions.length), mockRuns, g.questions, aliases)
          : null,
      });
    }

    const report = {
      benchmark: "research",
      machine: { ...machine(), loadAverageAtStart: round1(loadAtStart) },
      driver: handle.driver,
      location: handle.location,
      questions: questions.length,
      questionSource: source,
      rounds: args.rounds,
      openDatabaseMs: Math.round(openMs),
      cold: {
        qid: cold.qid,
        firstEventMs: round1(cold.firstEventMs),
        firstSourcesMs: cold.firstSourcesMs === null ? null : round1(cold.firstSourcesMs),
        firstAnswerMs: cold.firstAnswerMs === null ? null : round1(cold.firstAnswerMs),
        runMs: cold.state.durationMs,
        steps: Object.fromEntries(cold.state.steps.map((s) => [s.id, s.durationMs])),
      },
      offline: {
        warmUp: "one unmeasured pass over every question before the measured rounds",
        ...timingSummary(runs),
        status: statusCounts(runs),
        citations: offlineCitations,
        evidence: evidenceCited(runs, questions, aliases),
        perQuestion: perQuestion(runs),
      },
      app,
      mock,
      mockLatencyMsPerCall: args.mock ? args.latencyMs : null,
      /** Answer quality per question set (`union`: every set together), offline and with the mock model. */
      quality,
    };
    if (args.json) {
      console.log(JSON.stringify(report, null, 2));
      return;
    }
    printHuman(report);
  } finally {
    await handle.close();
  }
}

type Stat = ReturnType<typeof stats>;

// biome-ignore lint/suspicious/noExplicitAny: the report is printed field by field
function printHuman(r: any) {
  const m = r.machine;
  console.log(
    `\nResearch runs — ${r.driver} (${r.location}), ${r.questions} questions (${r.questionSource}), ${r.rounds} measured rounds after a warm-up pass`,
  );
  console.log(
    `machine: ${m.cpus} cores (${m.cpu}), Node ${m.node}, load average at start ${r.machine.loadAverageAtStart}, date ${m.date}`,
  );
  console.log(`database opened (with migrations) in ${r.openDatabaseMs} ms\n`);
  const row = (cells: (string | number | null)[]) =>
    `| ${cells.map((c) => (c === null ? "—" : String(c))).join(" | ")} |`;
  const ps = (s: Stat | undefined) => (s && s.n > 0 ? `${Math.round(s.p50)} / ${Math.round(s.p95)}` : "—");
  console.log(row(["", "first event", "first step done", "first sources", "first answer text", "run p50 / p95 ms"]));
  console.log(row(["---", "---", "---", "---", "---", "---"]));
  console.log(
    row([
      `cold first run (${r.cold.qid})`,
      r.cold.firstEventMs,
      "—",
      r.cold.firstSourcesMs,
      r.cold.firstAnswerMs,
      r.cold.runMs,
    ]),
  );
  const o = r.offline;
  console.log(
    row([
      "offline, warm (p50 / p95)",
      ps(o.firstEventMs),
      ps(o.firstStepDoneMs),
      ps(o.firstSourcesMs),
      ps(o.firstAnswerMs),
      ps(o.runMs),
    ]),
  );
  if (r.app)
    console.log(row(["offline via startRun (persisted)", ps(r.app.firstEventMs), "", "", "", ps(r.app.runMs)]));
  if (r.mock) {
    const k = r.mock;
    console.log(
      row([
        `mock model, ${k.latencyMsPerCall} ms/call`,
        ps(k.firstEventMs),
        ps(k.firstStepDoneMs),
        ps(k.firstSourcesMs),
        ps(k.firstAnswerMs),
        ps(k.runMs),
      ]),
    );
  }
  if (r.app) {
    console.log(
      `\nstartRun: everything saved after p50 / p95 ${ps(r.app.savedMs)} ms; ${r.app.persistErrors} persistence errors`,
    );
  }
  console.log("\nper step, p50 / p95 ms:");
  console.log(
    row(["step", "cold", "offline warm", ...(r.mock ? ["mock model (whole)", "mock model minus model time"] : [])]),
  );
  console.log(row(["---", "---", "---", ...(r.mock ? ["---", "---"] : [])]));
  for (const id of STEP_IDS) {
    console.log(
      row([
        id,
        r.cold.steps[id] ?? null,
        ps(o.stepsMs[id]),
        ...(r.mock ? [ps(r.mock.stepsMs[id]), ps(r.mock.overheadByStepMs[id])] : []),
      ]),
    );
  }
  if (r.mock) {
    const k = r.mock;
    console.log(
      `\nmock model: model time per run p50 ${Math.round(k.modelMs.p50)} ms; overhead (run − model time) p50 / p95 ${ps(k.overheadMs)} ms, max ${Math.round(k.overheadMs.max)} ms; outside the three searches p50 / p95 ${ps(k.overheadOutsideRetrievalMs)} ms; calls ${JSON.stringify(k.modelCalls)}`,
    );
  }
  const cit = (label: string, c: CitationCheck) => {
    console.log(
      `${label}: ${c.total} citations in ${c.runsWithCitations} answers (${c.runsWithoutCitations} completed answers without any); ` +
        `resolved ${share(c.resolved, c.total)}%, supported ${share(c.supported, c.total)}%, ` +
        `quote on the page (DB) ${share(c.quoteOnPage, c.total)}%, offsets exact ${share(c.offsetsExact, c.total)}%`,
    );
    for (const f of c.failures.slice(0, 12)) console.log(`  ${f.qid} ${f.marker}: ${f.problem}`);
  };
  const ev = (label: string, e: ReturnType<typeof evidenceCited>) =>
    e.answerable + e.none > 0 &&
    console.log(
      `${label}: the answer cites an evidence page for ${e.evidencePageCited}/${e.answerable} answerable questions ` +
        `(an evidence paper: ${e.evidencePaperCited}/${e.answerable}; no evidence page: ${e.missedPage.join(", ") || "none"}); ` +
        `${e.noneAnswered}/${e.none} questions the library cannot answer still got an answer`,
    );
  console.log("");
  cit("offline citations (first measured round)", o.citations);
  ev("offline evidence", o.evidence);
  if (r.mock) {
    cit("mock-model citations", r.mock.citations);
    ev("mock-model evidence", r.mock.evidence);
    const j = r.mock.judge;
    console.log(
      `  mock judge: ${j.supported}/${j.claims} supported; ${j.cutOff} unsupported only because the judge's source is cut at 1,500 characters`,
    );
    for (const w of r.mock.warnings.slice(0, 5)) console.log(`  warnings ${w.qid}: ${w.warnings.join(" | ")}`);
  }
  console.log(`\nstatus (offline): ${JSON.stringify(o.status.counts)}`);
  for (const e of o.status.errors) console.log(`  ${e.qid}: ${e.step} ${e.code}: ${e.message}`);
  if (r.mock) {
    console.log(`status (mock model): ${JSON.stringify(r.mock.status.counts)}`);
    for (const e of r.mock.status.errors) console.log(`  ${e.qid}: ${e.step} ${e.code}: ${e.message}`);
  }
  printQuality(r.quality, r.mockLatencyMsPerCall);
}

/** One compact table per question set: the answer-quality shares with their 95 % intervals, and the run time. */
function printQuality(
  sets: { label: string; source: string; union: boolean; questions: number; offline: Quality; mock: Quality | null }[],
  latencyMs: number | null,
) {
  const row = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  const cell = (s: Share) => formatShare(s);
  console.log("\nanswer quality (first measured round; k/n share [95% Wilson interval])");
  for (const s of sets) {
    const q = s.offline;
    console.log(
      `\n${s.union ? "all sets together" : `${s.label} (${s.source})`}: ${s.questions} questions, ${q.answerable} answerable, ${q.none} the library cannot answer`,
    );
    console.log(
      row([
        "",
        "n",
        "evidence page cited",
        "evidence sentence in answer",
        "unanswerable declined",
        "citation validity",
        "run p50 ms",
      ]),
    );
    console.log(row(["---", "---", "---", "---", "---", "---", "---"]));
    const line = (label: string, x: Quality) =>
      console.log(
        row([
          label,
          x.n,
          cell(x.evidencePageCited),
          cell(x.evidenceSentenceInAnswer),
          cell(x.unanswerableDeclined),
          cell(x.citationValidity),
          x.runMs.n > 0 ? Math.round(x.runMs.p50) : "—",
        ]),
      );
    line("offline", q);
    if (s.mock) line(`mock model, ${latencyMs} ms/call`, s.mock);
    for (const [label, x] of [
      ["offline", q],
      ["mock model", s.mock],
    ] as const) {
      if (!x) continue;
      const m = x.missed;
      console.log(
        `  ${label} missed — evidence page: ${m.evidencePage.join(", ") || "none"}; evidence sentence: ${m.evidenceSentence.join(", ") || "none"}; unanswerable answered: ${m.unanswerableAnswered.join(", ") || "none"}`,
      );
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
