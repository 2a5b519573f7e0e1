/**
 * Fits the offline answer's sentence scorer (lib/research/sentence-score.ts) on what the benchmark's answers were
 * composed from, and checks the fit on question sets it was not fitted on:
 *
 *   npm run bench:research -- <question files…> --offline-only --rounds 1 --save-evidence evidence.jsonl
 *   npx tsx bench/fit-answer-weights.ts --evidence evidence.jsonl <the same question files…> [--l2 0.01]
 *     [--weights code|hand] [--json]
 *
 * - Each candidate sentence of a question (every one `pickSentences` scores) is labelled against the question's
 *   evidence quotes (`isEvidenceSentence`, lib/research/sentence-fit.ts), and the weights fitted by pairwise logistic
 *   regression (`fitPairwise`, the same file).
 * - The check: leave one question set out, fit on the others, compose the left-out set's answers with those weights,
 *   and count what the benchmark counts (an evidence page cited, the evidence sentence in the answer), against the
 *   weights in the code now (`--weights hand`: the hand-set weights the fit replaced). The weights fitted on every
 *   set are printed last, to paste into sentence-score.ts.
 * - The evidence file must be the one saved for these question files: a question whose text differs from the saved
 *   one is an error; a question with no saved entry (its run declined before composing) counts as missed, and is
 *   listed.
 * A set's figures here are the composer's alone on the saved passages: `npm run bench:research` gives the same counts
 * when the saved passages are the ones it retrieves (same library, same retrieval).
 */
import fs from "node:fs";
import path from "node:path";
import { parseCitations } from "@/lib/research/citation-format";
import type { EvidencePassage } from "@/lib/research/citations";
import { pickSentences, synthesizeExtractive } from "@/lib/research/compose";
import { evidenceInAnswer, QUOTE_COVERAGE, quoteCoverage, shareOf } from "@/lib/research/eval-answers";
import type { ComposedFrom } from "@/lib/research/lifecycle";
import { fitPairwise, isEvidenceSentence, type LabelledCandidate } from "@/lib/research/sentence-fit";
import { FEATURES, HAND_WEIGHTS, SCORE_WEIGHTS, type ScoreWeights } from "@/lib/research/sentence-score";
import { samePaper } from "@/lib/search/eval";
import { type BenchQuestion, loadBenchQuestions } from "./questions";

interface Args {
  evidence: string;
  files: string[];
  l2: number;
  /** The weights the fitted ones are compared with. */
  baseline: "code" | "hand";
  json: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { evidence: "", files: [], l2: 0.01, baseline: "code", json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--evidence") args.evidence = path.resolve(argv[++i] ?? "");
    else if (a === "--l2") args.l2 = Number(argv[++i]);
    else if (a === "--json") args.json = true;
    else if (a === "--weights") {
      const w = argv[++i];
      if (w !== "code" && w !== "hand") throw new Error("--weights is code (the fitted weights in the code) or hand");
      args.baseline = w;
    } else if (!a.startsWith("--")) args.files.push(path.resolve(a));
    else throw new Error(`Unknown option ${a}`);
  }
  if (!args.evidence || !fs.existsSync(args.evidence))
    throw new Error("--evidence FILE (from bench:research) is needed");
  if (args.files.length === 0) throw new Error("Give the question files the evidence was saved for");
  if (!(args.l2 >= 0)) throw new Error("--l2 must be a number ≥ 0");
  return args;
}

interface Item {
  set: string;
  question: BenchQuestion;
  composed: ComposedFrom;
}

type Row = LabelledCandidate;

/** The question sets as bench:research labels them (qids prefixed with the set's label when there are several). */
function loadItems(args: Args): { items: Item[]; fileNames: Map<string, string>; unsaved: string[] } {
  const lines = fs.readFileSync(args.evidence, "utf8").trim().split("\n");
  const head = JSON.parse(lines[0] as string) as { fileNames?: Record<string, string> };
  if (!head.fileNames) throw new Error(`${args.evidence} does not start with the papers' file names`);
  const composed = new Map<string, ComposedFrom>();
  for (const line of lines.slice(1)) {
    const c = JSON.parse(line) as ComposedFrom & { qid: string };
    composed.set(c.qid, c);
  }
  const items: Item[] = [];
  const unsaved: string[] = [];
  const labels = new Set<string>();
  // every question of the files, unanswerable ones too (an answered one has its evidence saved)
  const asked = new Set<string>();
  for (const file of args.files) {
    let label = path.basename(file).replace(/\.json$/i, "");
    while (labels.has(label)) label = `${label}+`;
    labels.add(label);
    for (const q of loadBenchQuestions(file).questions) {
      const qid = args.files.length > 1 ? `${label}:${q.qid}` : q.qid;
      asked.add(qid);
      if (q.type === "none" || q.evidence.length === 0) continue;
      const saved = composed.get(qid);
      if (saved && saved.question !== q.question)
        throw new Error(`${qid}: the evidence file was saved for another question ("${saved.question}")`);
      if (!saved) unsaved.push(qid);
      // a question whose run never reached the composer (declined) has no answer: it counts as missed
      items.push({
        set: label,
        question: q,
        composed: saved ?? {
          question: q.question,
          intent: "unknown",
          keywords: [],
          evidence: [],
          graph: null,
        },
      });
    }
  }
  // the labels are bench:research's: the same files in the same order (one file: its bare qids)
  if (composed.size > 0 && ![...composed.keys()].some((qid) => asked.has(qid)))
    throw new Error(
      `No question of the given files is in ${args.evidence}: give the question files bench:research saved it for, in the same order`,
    );
  const unused = [...composed.keys()].filter((qid) => !asked.has(qid));
  if (unused.length > 0)
    process.stderr.write(
      `warning: ${unused.length} question(s) of the evidence file are in none of the given files (${unused.slice(0, 3).join(", ")}${unused.length > 3 ? ", …" : ""})\n`,
    );
  const fileNames = new Map(Object.entries(head.fileNames).map(([id, f]) => [id, f.replace(/\.pdf$/i, "")]));
  return { items, fileNames, unsaved };
}

function quotesOf(q: BenchQuestion): string[] {
  return q.evidence.map((e) => e.quote).filter((x): x is string => typeof x === "string" && x.trim() !== "");
}

/** Every candidate of the question, labelled; `whole`: it holds one of the quotes whole (the benchmark's test). */
function rowsOf(item: Item): (Row & { whole: boolean })[] {
  const quotes = quotesOf(item.question);
  const rows: (Row & { whole: boolean })[] = [];
  const { question, intent, keywords, evidence } = item.composed;
  pickSentences(question, evidence as EvidencePassage[], {
    intent,
    keywords,
    maxSentences: 1,
    onFeatures: (text, _passage, f) =>
      rows.push({
        x: FEATURES.map((k) => f[k]),
        y: isEvidenceSentence(text, quotes),
        whole: quotes.some((q) => quoteCoverage(q, text) >= QUOTE_COVERAGE),
      }),
  });
  return rows;
}

/** What the benchmark counts for these questions' answers composed with `weights`. */
function answers(items: Item[], weights: ScoreWeights, fileNames: Map<string, string>) {
  const isPaper = (id: string, want: string) => samePaper(id, want) || samePaper(fileNames.get(id) ?? "", want);
  let page = 0;
  let sentence = 0;
  for (const { question: q, composed: c } of items) {
    const body =
      c.evidence.length > 0
        ? synthesizeExtractive(c.question, c.evidence as EvidencePassage[], {
            intent: c.intent,
            keywords: c.keywords,
            weights,
          })
        : "";
    const answer = c.graph ? `${c.graph}\n\n${body}` : body;
    const cites = parseCitations(answer);
    if (cites.some((x) => q.evidence.some((e) => isPaper(x.paperId, e.paper_id) && x.page === e.page))) page++;
    const quotes = quotesOf(q);
    if (quotes.length > 0 && answer && evidenceInAnswer(quotes, answer).met) sentence++;
  }
  return { n: items.length, page: shareOf(page, items.length), sentence: shareOf(sentence, items.length) };
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const { items, fileNames, unsaved } = loadItems(args);
  const baseline = args.baseline === "hand" ? HAND_WEIGHTS : SCORE_WEIGHTS;
  const sets = [...new Set(items.map((i) => i.set))];
  const rows = new Map(items.map((i) => [i, rowsOf(i)]));
  const groupsOf = (its: Item[]) => its.map((i) => rows.get(i) as Row[]);
  const withEvidence = items.filter((i) => (rows.get(i) as Row[]).some((r) => r.y)).length;
  const withWholeQuote = items.filter((i) => (rows.get(i) ?? []).some((r) => r.whole)).length;
  const perSet = sets.map((set) => {
    const held = items.filter((i) => i.set === set);
    const weights = fitPairwise(groupsOf(items.filter((i) => i.set !== set)), args.l2);
    return { set, now: answers(held, baseline, fileNames), fitted: answers(held, weights, fileNames) };
  });
  const sum = (k: "now" | "fitted", m: "page" | "sentence") => perSet.reduce((s, x) => s + x[k][m].k, 0);
  const n = items.length;
  const weights = fitPairwise(groupsOf(items), args.l2);
  const result = {
    questions: n,
    withEvidenceCandidate: withEvidence,
    withWholeQuoteCandidate: withWholeQuote,
    unsaved,
    l2: args.l2,
    baseline: args.baseline,
    leaveOneSetOut: {
      now: { page: shareOf(sum("now", "page"), n), sentence: shareOf(sum("now", "sentence"), n) },
      fitted: { page: shareOf(sum("fitted", "page"), n), sentence: shareOf(sum("fitted", "sentence"), n) },
      perSet: perSet.map((p) => ({
        set: p.set,
        n: p.now.n,
        page: [p.now.page.k, p.fitted.page.k],
        sentence: [p.now.sentence.k, p.fitted.sentence.k],
      })),
    },
    weights: Object.fromEntries(Object.entries(weights).map(([k, v]) => [k, Number(v.toFixed(3))])),
  };
  if (args.json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  const pct = (s: { k: number; n: number }) => `${s.k}/${s.n}`;
  console.log(
    `${n} answerable questions; ${withEvidence} have an evidence sentence among the candidates, ${withWholeQuote} a candidate that holds a quote whole`,
  );
  if (unsaved.length > 0) console.log(`not composed (declined): ${unsaved.join(", ")}`);
  const label = args.baseline === "hand" ? "hand weights" : "now";
  console.log(
    `set: evidence page cited (${label} → fitted elsewhere) · evidence sentence in the answer (${label} → fitted)`,
  );
  for (const p of result.leaveOneSetOut.perSet)
    console.log(`  ${p.set}: ${p.page[0]} → ${p.page[1]} · ${p.sentence[0]} → ${p.sentence[1]} (of ${p.n})`);
  const { now, fitted } = result.leaveOneSetOut;
  console.log(
    `all: page ${pct(now.page)} → ${pct(fitted.page)}; sentence ${pct(now.sentence)} → ${pct(fitted.sentence)}`,
  );
  console.log(`weights fitted on every set (l2 ${args.l2}):\n${JSON.stringify(result.weights, null, 2)}`);
}

main();
