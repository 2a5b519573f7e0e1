/**
 * The questions the benchmarks ask: the dev set (../shared/corpus/dev-questions.json) when present, else a few
 * built-in ones (a fresh clone has no ../shared).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The dev question set, relative to the repository. */
export const DEV_QUESTIONS = path.resolve(ROOT, "../shared/corpus/dev-questions.json");

const FALLBACK = [
  "Why is attention scaled by the square root of the key dimension?",
  "Does low-rank adaptation add inference latency?",
  "How often does the retriever fetch new documents?",
  "What did distillation achieve on the left-out digit?",
];

export interface BenchQuestion {
  qid: string;
  /** `single`, `synthesis` or `none` (the library cannot answer it). */
  type: string;
  question: string;
  /** The reference answer, when the file has one. */
  answer?: string;
  /** Where the answer is: a page of a paper, and the sentence(s) on it (`quote`, when the file has them). */
  evidence: { paper_id: string; page: number; quote?: string }[];
}

/** The questions of `file` (a JSON array of `{ qid?, type?, question, answer?, evidence? }`), or the built-in ones. */
export function loadBenchQuestions(file: string = DEV_QUESTIONS): { questions: BenchQuestion[]; source: string } {
  if (!fs.existsSync(file)) {
    return {
      questions: FALLBACK.map((question, i) => ({ qid: `F${i + 1}`, type: "single", question, evidence: [] })),
      source: "built-in",
    };
  }
  const raw = JSON.parse(fs.readFileSync(file, "utf8")) as (Partial<BenchQuestion> & { question?: unknown })[];
  const questions = raw
    .filter(
      (q): q is Partial<BenchQuestion> & { question: string } =>
        typeof q.question === "string" && q.question.trim() !== "",
    )
    .map((q, i) => ({
      qid: q.qid ?? `Q${i + 1}`,
      type: q.type ?? "single",
      question: q.question,
      ...(typeof q.answer === "string" ? { answer: q.answer } : {}),
      evidence: q.evidence ?? [],
    }));
  if (questions.length === 0) throw new Error(`${file} holds no questions (a JSON array of { question })`);
  return { questions, source: path.relative(ROOT, file) || file };
}
