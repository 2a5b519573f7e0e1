import fs from "node:fs/promises";
import { z } from "zod";
import type { Database } from "@/db";
import { listPaperFileNames } from "@/db/queries/papers";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { LecternError } from "@/lib/errors";
import { type ContentResult, type Retriever, searchContent } from "./search";
import {
  bootstrapMeanInterval,
  holmAdjust,
  type Interval,
  mean,
  type PairedTest,
  pairedPermutationTest,
} from "./significance";

/** The question format of ../shared/corpus/dev-questions.json. */
export const evalQuestionSchema = z.object({
  qid: z.string(),
  type: z.enum(["single", "synthesis", "none"]),
  question: z.string(),
  answer: z.string().optional(),
  evidence: z.array(z.object({ paper_id: z.string(), page: z.number().int().positive(), quote: z.string() })),
});
export const evalQuestionsSchema = z.array(evalQuestionSchema).superRefine((questions, ctx) => {
  // runs are compared question by question (by qid)
  const seen = new Set<string>();
  for (const [i, q] of questions.entries()) {
    if (seen.has(q.qid)) ctx.addIssue({ code: "custom", path: [i, "qid"], message: `qid "${q.qid}" appears twice` });
    seen.add(q.qid);
  }
});
export type EvalQuestion = z.infer<typeof evalQuestionSchema>;

async function readQuestionFile(file: string): Promise<EvalQuestion[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(await fs.readFile(file, "utf8"));
  } catch (e) {
    throw new LecternError("bad_request:file", `Cannot read questions from ${file}: ${(e as Error).message}`);
  }
  const parsed = evalQuestionsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (at ${issue.path.join(".")})` : "";
    throw new LecternError(
      "bad_request:file",
      `${file} is not a question list: ${issue?.message ?? "invalid"}${where}`,
    );
  }
  return parsed.data;
}

/**
 * The questions of one or more files, evaluated as one set (a dev set and a held-out one, say): qids must stay unique
 * across them. `byFile` says which questions came from which file.
 */
export async function readEvalQuestions(
  files: string[],
): Promise<{ questions: EvalQuestion[]; byFile: { file: string; qids: string[] }[] }> {
  const questions: EvalQuestion[] = [];
  const byFile: { file: string; qids: string[] }[] = [];
  for (const file of files) {
    const read = await readQuestionFile(file);
    questions.push(...read);
    byFile.push({ file, qids: read.map((q) => q.qid) });
  }
  const merged = evalQuestionsSchema.safeParse(questions);
  if (!merged.success) {
    throw new LecternError(
      "bad_request:file",
      `The question files cannot be evaluated together: ${merged.error.issues[0]?.message ?? "invalid"}`,
    );
  }
  return { questions, byFile };
}

export type EvalRetriever = Retriever | "hybrid-mmr";
export const EVAL_RETRIEVERS: EvalRetriever[] = ["fts", "vector", "hybrid", "hybrid-mmr"];

/** What a metric needs of a retrieved item. */
export interface RetrievedItem {
  paperId: string;
  /** Other names of the paper a question set may use: the stem of the file it was ingested from. */
  aliases?: string[];
  page: number;
  text: string;
}

export interface Evidence {
  paper_id: string;
  page: number;
  quote: string;
}

/**
 * Paper ids compare without their arXiv version: the library keeps `1706.03762v5` when the PDF shows it, question
 * sets usually cite `1706.03762`.
 */
export function samePaper(a: string, b: string): boolean {
  const strip = (s: string) => s.trim().toLowerCase().replace(/v\d+$/, "");
  return strip(a) === strip(b);
}

function isPaper(item: RetrievedItem, id: string): boolean {
  return samePaper(item.paperId, id) || (item.aliases ?? []).some((a) => samePaper(a, id));
}

function onPage(item: RetrievedItem, e: Pick<Evidence, "paper_id" | "page">): boolean {
  return item.page === e.page && isPaper(item, e.paper_id);
}

/** Distinct evidence pages (a question may quote the same page twice). */
function evidencePages(evidence: Evidence[]): Pick<Evidence, "paper_id" | "page">[] {
  const out: Pick<Evidence, "paper_id" | "page">[] = [];
  for (const e of evidence) if (!out.some((o) => o.page === e.page && samePaper(o.paper_id, e.paper_id))) out.push(e);
  return out;
}

/** Share of evidence pages with a result among the first k. */
export function pageRecallAt(items: RetrievedItem[], evidence: Evidence[], k: number): number {
  const pages = evidencePages(evidence);
  if (pages.length === 0) return 0;
  const top = items.slice(0, k);
  return pages.filter((e) => top.some((it) => onPage(it, e))).length / pages.length;
}

/** Share of evidence papers with a result among the first k. */
export function paperRecallAt(items: RetrievedItem[], evidence: Evidence[], k: number): number {
  const papers: string[] = [];
  for (const e of evidence) if (!papers.some((p) => samePaper(p, e.paper_id))) papers.push(e.paper_id);
  if (papers.length === 0) return 0;
  const top = items.slice(0, k);
  return papers.filter((p) => top.some((it) => isPaper(it, p))).length / papers.length;
}

/** 1 / rank of the first result on an evidence page; 0 when none is. */
export function reciprocalRank(items: RetrievedItem[], evidence: Evidence[]): number {
  const pages = evidencePages(evidence);
  const i = items.findIndex((it) => pages.some((e) => onPage(it, e)));
  return i < 0 ? 0 : 1 / (i + 1);
}

/** Binary-gain nDCG@k at page level; each evidence page counts once (the first result on it). */
export function ndcgAt(items: RetrievedItem[], evidence: Evidence[], k: number): number {
  const pages = evidencePages(evidence);
  if (pages.length === 0) return 0;
  const found = new Set<number>();
  let dcg = 0;
  items.slice(0, k).forEach((it, i) => {
    const j = pages.findIndex((e) => onPage(it, e));
    if (j >= 0 && !found.has(j)) {
      found.add(j);
      dcg += 1 / Math.log2(i + 2);
    }
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(k, pages.length); i++) idcg += 1 / Math.log2(i + 2);
  return dcg / idcg;
}

/** Lower case, NFKC (ligatures), one space for any run of white space. */
export function normalizeForMatch(s: string): string {
  return s.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/** Share of evidence quotes contained in some retrieved passage (after normalisation). */
export function passageHitRate(items: RetrievedItem[], evidence: Evidence[]): number {
  const quotes = evidence.map((e) => normalizeForMatch(e.quote)).filter(Boolean);
  if (quotes.length === 0) return 0;
  const texts = items.map((it) => normalizeForMatch(it.text));
  return quotes.filter((q) => texts.some((t) => t.includes(q))).length / quotes.length;
}

/** Nearest-rank percentile of a list of numbers (p in [0, 100]). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

export interface QuestionOutcome {
  qid: string;
  type: EvalQuestion["type"];
  latencyMs: number;
  results: number;
  /** Metrics for answerable questions; null for `none`. */
  pageRecall5: number | null;
  pageRecall10: number | null;
  paperRecall5: number | null;
  rr: number | null;
  ndcg10: number | null;
  passageHit: number | null;
  /** For `none` questions: did anything pass the cutoff? */
  falseHit: boolean | null;
  error?: string;
}

export interface EvalSummary {
  retriever: EvalRetriever;
  questions: number;
  answerable: number;
  unanswerable: number;
  pageRecall5: number;
  pageRecall10: number;
  paperRecall5: number;
  mrr: number;
  ndcg10: number;
  passageHitRate: number;
  /** Share of `none` questions for which anything passed the cutoff (lower is better). */
  noneFalseHitRate: number | null;
  latencyP50Ms: number;
  latencyP95Ms: number;
  /** 95% bootstrap intervals of the means over the answerable questions (lib/search/significance.ts). */
  intervals: Record<IntervalMetric, Interval>;
}

/** The metrics reported with an interval and compared between retrievers. */
export const INTERVAL_METRICS = ["pageRecall5", "pageRecall10", "mrr", "ndcg10"] as const;
export type IntervalMetric = (typeof INTERVAL_METRICS)[number];
const OUTCOME_FIELD: Record<IntervalMetric, "pageRecall5" | "pageRecall10" | "rr" | "ndcg10"> = {
  pageRecall5: "pageRecall5",
  pageRecall10: "pageRecall10",
  mrr: "rr",
  ndcg10: "ndcg10",
};

export function scoreQuestion(q: EvalQuestion, items: RetrievedItem[], latencyMs: number): QuestionOutcome {
  if (q.type === "none" || q.evidence.length === 0) {
    return {
      qid: q.qid,
      type: q.type,
      latencyMs,
      results: items.length,
      pageRecall5: null,
      pageRecall10: null,
      paperRecall5: null,
      rr: null,
      ndcg10: null,
      passageHit: null,
      falseHit: items.length > 0,
    };
  }
  return {
    qid: q.qid,
    type: q.type,
    latencyMs,
    results: items.length,
    pageRecall5: pageRecallAt(items, q.evidence, 5),
    pageRecall10: pageRecallAt(items, q.evidence, 10),
    paperRecall5: paperRecallAt(items, q.evidence, 5),
    rr: reciprocalRank(items, q.evidence),
    ndcg10: ndcgAt(items, q.evidence, 10),
    passageHit: passageHitRate(items.slice(0, 10), q.evidence),
    falseHit: null,
  };
}

/** The mean of the known values (a `none` question has no recall). */
function meanKnown(values: (number | null)[]): number {
  return mean(values.filter((x): x is number => x !== null));
}

export function summarize(retriever: EvalRetriever, outcomes: QuestionOutcome[]): EvalSummary {
  const answerable = outcomes.filter((o) => o.falseHit === null);
  const none = outcomes.filter((o) => o.falseHit !== null);
  const latencies = outcomes.map((o) => o.latencyMs);
  return {
    retriever,
    questions: outcomes.length,
    answerable: answerable.length,
    unanswerable: none.length,
    pageRecall5: meanKnown(answerable.map((o) => o.pageRecall5)),
    pageRecall10: meanKnown(answerable.map((o) => o.pageRecall10)),
    paperRecall5: meanKnown(answerable.map((o) => o.paperRecall5)),
    mrr: meanKnown(answerable.map((o) => o.rr)),
    ndcg10: meanKnown(answerable.map((o) => o.ndcg10)),
    passageHitRate: meanKnown(answerable.map((o) => o.passageHit)),
    noneFalseHitRate: none.length === 0 ? null : none.filter((o) => o.falseHit).length / none.length,
    latencyP50Ms: percentile(latencies, 50),
    latencyP95Ms: percentile(latencies, 95),
    intervals: Object.fromEntries(
      INTERVAL_METRICS.map((m) => [m, bootstrapMeanInterval(answerable.map((o) => o[OUTCOME_FIELD[m]] ?? 0))]),
    ) as Record<IntervalMetric, Interval>,
  };
}

export interface RetrieverComparison {
  /** `a` minus `b`: a positive difference means `a` scored higher. */
  a: EvalRetriever;
  b: EvalRetriever;
  /** Answerable questions both runs scored. */
  questions: number;
  tests: Record<IntervalMetric, ComparisonTest>;
}

export interface ComparisonTest extends PairedTest {
  /**
   * The p-value adjusted for the other comparisons made of the same metric (Holm; `comparisonsOf`): what to read
   * when several retrievers are compared at once. Equal to `pValue` for a comparison made alone.
   */
  adjustedPValue: number;
}

/**
 * Compares two runs over the same questions, question by question (paired by qid, answerable questions only; a
 * question whose search failed counts as scoring 0, as in the means), with a paired sign-flip permutation test per
 * metric: whether `a` beats `b` by more than the question set's noise.
 */
export function compareRuns(
  a: { summary: Pick<EvalSummary, "retriever">; outcomes: QuestionOutcome[] },
  b: { summary: Pick<EvalSummary, "retriever">; outcomes: QuestionOutcome[] },
): RetrieverComparison {
  const byQid = new Map(b.outcomes.filter((o) => o.falseHit === null).map((o) => [o.qid, o]));
  const pairs = a.outcomes.flatMap((o) => {
    const other = o.falseHit === null ? byQid.get(o.qid) : undefined;
    return other ? [[o, other] as const] : [];
  });
  const tests = Object.fromEntries(
    INTERVAL_METRICS.map((m) => {
      const f = OUTCOME_FIELD[m];
      const test = pairedPermutationTest(
        pairs.map(([x]) => x[f] ?? 0),
        pairs.map(([, y]) => y[f] ?? 0),
      );
      return [m, { ...test, adjustedPValue: test.pValue }];
    }),
  ) as Record<IntervalMetric, ComparisonTest>;
  return { a: a.summary.retriever, b: b.summary.retriever, questions: pairs.length, tests };
}

/**
 * The comparisons worth printing for a set of runs: each hybrid configuration against each single retriever (does
 * fusion beat both?), then against each other. Each metric's p-values are adjusted together (Holm).
 */
export function comparisonsOf(
  runs: { summary: Pick<EvalSummary, "retriever">; outcomes: QuestionOutcome[] }[],
): RetrieverComparison[] {
  const isHybrid = (r: EvalRetriever) => r === "hybrid" || r === "hybrid-mmr";
  const out: RetrieverComparison[] = [];
  runs.forEach((x, i) => {
    if (!isHybrid(x.summary.retriever)) return;
    for (const y of runs) if (!isHybrid(y.summary.retriever)) out.push(compareRuns(x, y));
    for (const y of runs.slice(i + 1)) if (isHybrid(y.summary.retriever)) out.push(compareRuns(x, y));
  });
  for (const m of INTERVAL_METRICS) {
    const adjusted = holmAdjust(out.map((c) => c.tests[m].pValue));
    out.forEach((c, i) => {
      c.tests[m].adjustedPValue = adjusted[i] as number;
    });
  }
  return out;
}

/** Search options of each evaluated configuration. hybrid-mmr is what the app uses. */
export function retrieverOptions(r: EvalRetriever): { retriever: Retriever; mmrAlpha: number } {
  if (r === "hybrid-mmr") return { retriever: "hybrid", mmrAlpha: 0.6 };
  return { retriever: r, mmrAlpha: 1 };
}

/** Runs every question through `searchContent` (top 10) and scores it. A failed search counts as no results. */
export async function runEvaluation(
  db: Database,
  questions: EvalQuestion[],
  embedder: EmbeddingProvider,
  {
    retriever,
    k = 10,
    onQuestion,
  }: { retriever: EvalRetriever; k?: number; onQuestion?: (o: QuestionOutcome) => void },
): Promise<{ summary: EvalSummary; outcomes: QuestionOutcome[] }> {
  const outcomes: QuestionOutcome[] = [];
  const aliases = new Map(
    (await listPaperFileNames(db)).map((p): [string, string[]] => [p.id, [p.fileName.replace(/\.pdf$/i, "")]]),
  );
  for (const q of questions) {
    const started = performance.now();
    let results: ContentResult[] = [];
    let error: string | undefined;
    try {
      results = await searchContent(db, q.question, embedder, { k, ...retrieverOptions(retriever) });
    } catch (e) {
      if (!(e instanceof LecternError) || e.kind !== "bad_request") throw e;
      error = e.message;
    }
    const latency = performance.now() - started;
    const outcome = scoreQuestion(
      q,
      results.map((r) => ({ paperId: r.paperId, aliases: aliases.get(r.paperId), page: r.page, text: r.text })),
      latency,
    );
    if (error) outcome.error = error;
    outcomes.push(outcome);
    onQuestion?.(outcome);
  }
  return { summary: summarize(retriever, outcomes), outcomes };
}
