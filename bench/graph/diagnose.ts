/**
 * Why gold edges are missed: `npx tsx bench/graph/diagnose.ts [--cache file.json] [--gold file] [--json] [--all]`.
 *
 * `--edges file.jsonl` writes the accepted edges, one JSON object a line, to compare two versions of the rules.
 *
 * Runs the offline extractor and the same validation as the build (lib/graph/build.ts `validateExtraction`) in memory,
 * with no database writes, so a tuning round takes seconds instead of a build. The papers' text comes from the
 * library in LECTERN_DATA_DIR (or DATABASE_URL) once and is cached with --cache (a JSON file; delete it after a
 * re-ingest). Scores the accepted edges against the gold set's dev split (never the held-out one unless named) and,
 * for each missed gold edge, says where it was lost:
 * - `own_method`: the paper's own method was not found (or is another name than the gold source's);
 * - `no_sentence`: the gold quote's sentence is not read (not on the page as stored, in the reference list);
 * - `rejected:<reason>` / `review`: a matching candidate was proposed but validation turned it away or held it back;
 * - `wrong_relation`: a candidate with these two sides exists under another relation;
 * - `target_not_found` / `source_not_found`: the sentence has candidates, but no side matching the gold one;
 * - `no_candidate`: nothing proposed from the sentence (no pattern matched).
 * Printed names are the names the extractor found in the sentence.
 */
import fs from "node:fs";
import path from "node:path";
import { loadPaperText, settleTypes, validateExtraction } from "@/lib/graph/build";
import { entityMatches, type GoldEdge, type GoldFile, normalizePassage, scoreAgainstGold } from "@/lib/graph/eval";
import { extractWithRules, findNames, maskCitations, type PaperText } from "@/lib/graph/extract-rules";
import { locateQuote } from "@/lib/graph/normalize";
import type { Candidate, PaperExtraction, RejectReason } from "@/lib/graph/types";
import { splitSentences } from "@/lib/ingest/chunk";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function loadTexts(cache: string | undefined): Promise<PaperText[]> {
  if (cache && fs.existsSync(cache)) return JSON.parse(fs.readFileSync(cache, "utf8")) as PaperText[];
  const { openDatabase } = await import("@/db");
  const { listGraphPapers } = await import("@/db/queries/graph");
  const { getEnv } = await import("@/lib/env");
  const { runLibraryUpgrades } = await import("@/lib/library/upgrades");
  const env = getEnv();
  const handle = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.dataDir,
    role: "bench:graph",
    prepare: runLibraryUpgrades,
  });
  try {
    const rows = await listGraphPapers(handle.db);
    const texts: PaperText[] = [];
    for (const p of rows) texts.push(await loadPaperText(handle.db, p));
    if (cache) fs.writeFileSync(cache, JSON.stringify(texts));
    return texts;
  } finally {
    await handle.close();
  }
}

async function main() {
  const goldFile = arg("--gold") ?? path.join(import.meta.dirname, "gold-dev.json");
  const gold = JSON.parse(fs.readFileSync(goldFile, "utf8")) as GoldFile;
  const texts = await loadTexts(arg("--cache"));
  const t0 = performance.now();
  const extracted: { text: PaperText; x: PaperExtraction }[] = texts.map((text) => ({
    text,
    x: extractWithRules(text),
  }));
  const typeOf = settleTypes(
    extracted.map((e) => e.x),
    new Map(),
  );
  const rejected: Partial<Record<RejectReason, number>> = {};
  const byPaper = new Map<string, { x: PaperExtraction; text: PaperText; accepted: Candidate[] }>();
  const predicted: { relation: string; source: { name: string }; target: { name: string }; paper_id: string }[] = [];
  let accepted = 0;
  let review = 0;
  for (const { text, x } of extracted) {
    const v = validateExtraction(text, x, { typeOf, rejected });
    const longOf = new Map<string, string>();
    for (const a of x.acronyms) {
      longOf.set(a.short.toLowerCase(), a.long);
      longOf.set(a.long.toLowerCase(), a.short);
    }
    const shown = (n: string) => (longOf.has(n.toLowerCase()) ? `${n} (${longOf.get(n.toLowerCase())})` : n);
    const acc = v.valid.filter((e) => e.status === "accepted");
    accepted += acc.length;
    review += v.valid.length - acc.length;
    for (const e of acc)
      predicted.push({
        relation: e.relation,
        source: { name: shown(e.source.name) },
        target: { name: shown(e.target.name) },
        paper_id: text.id,
      });
    byPaper.set(text.id, { x, text, accepted: acc });
  }
  const ms = Math.round(performance.now() - t0);
  const edgesFile = arg("--edges");
  if (edgesFile) {
    const rows = [...byPaper.values()].flatMap(({ text, accepted }) =>
      accepted.map((e) => ({
        relation: e.relation,
        source: e.source.name,
        target: e.target.name,
        paper_id: text.id,
        page: e.page,
        confidence: e.confidence,
        quote: e.quote.replace(/\s+/g, " "),
      })),
    );
    fs.writeFileSync(edgesFile, rows.map((r) => JSON.stringify(r)).join("\n"));
  }
  const score = scoreAgainstGold(gold.edges, predicted);
  const mainOf = new Map(gold.papers.map((p) => [p.paper_id, p.main_entity]));

  const causes = new Map<string, number>();
  const lines: string[] = [];
  for (const id of score.missed) {
    const g = gold.edges.find((e) => e.id === id) as GoldEdge;
    const paper = byPaper.get(g.paper_id);
    let cause = "no_candidate";
    const detail: string[] = [];
    if (!paper) cause = "paper_missing";
    else {
      const { x, text } = paper;
      const main = mainOf.get(g.paper_id);
      const sourceIsMain = main !== undefined && entityMatches(main, g.source.name);
      const page = text.pages.find((p) => p.pageNumber === g.page);
      // the gold file's normalisation drops every hyphen between letters ("Transformer-XL" = "TransformerXL"), which
      // locateQuote does not: then the sentences the normalised quote's opening is in
      const span = page ? (locateQuote(page.text, g.quote) ?? sentencesHolding(page.text, g.quote)) : null;
      const sentences =
        page && span ? splitSentences(page.text).filter((s) => s.end > span.start && s.start < span.end) : [];
      const names = sentences.flatMap((s) =>
        findNames(maskCitations(page?.text.slice(s.start, s.end).replace(/\s/g, " ") ?? "")).map((n) => n.name),
      );
      detail.push(`own method: ${x.ownMethod ?? "—"}; names: ${[...new Set(names)].join(" | ") || "—"}`);
      const sides = (c: Candidate) => entityMatches(g.source, c.source.name) && entityMatches(g.target, c.target.name);
      const matching = x.candidates.filter((c) => sides(c));
      const inQuote = x.candidates.filter(
        (c) =>
          c.page === g.page &&
          span &&
          page &&
          locateQuote(page.text, c.quote) !== null &&
          overlaps(page.text, c.quote, span),
      );
      if (sourceIsMain && (!x.ownMethod || !entityMatches(g.source, x.ownMethod))) cause = "own_method";
      else if (!span) cause = "no_sentence";
      else if (matching.some((c) => c.relation === g.relation)) {
        const c = matching.find((m) => m.relation === g.relation) as Candidate;
        const r = validateExtraction(text, { ...x, candidates: [c] }, { typeOf });
        cause = r.valid.length > 0 ? "review" : "rejected";
        const rej: Partial<Record<RejectReason, number>> = {};
        validateExtraction(text, { ...x, candidates: [c] }, { typeOf, rejected: rej });
        if (r.valid.length === 0) cause = `rejected:${Object.keys(rej)[0]}`;
        detail.push(
          `candidate ${c.source.name} [${typeOf(c.source.name)}] → ${c.target.name} [${typeOf(c.target.name)}] conf ${c.confidence}${c.note ? ` (${c.note})` : ""}`,
        );
      } else if (matching.length > 0) {
        cause = "wrong_relation";
        detail.push(`as ${[...new Set(matching.map((c) => c.relation))].join(", ")}`);
      } else if (inQuote.length > 0) {
        const srcOk = inQuote.some((c) => entityMatches(g.source, c.source.name));
        cause = srcOk ? "target_not_found" : "source_not_found";
        for (const c of inQuote.slice(0, 4)) detail.push(`has ${c.relation}: ${c.source.name} → ${c.target.name}`);
      }
    }
    causes.set(cause, (causes.get(cause) ?? 0) + 1);
    lines.push(
      `${id} [${cause}] ${g.relation}: ${g.source.name} → ${g.target.name} (p${g.page})\n    “${g.quote.slice(0, 200)}”\n    ${detail.join("\n    ")}`,
    );
  }
  const result = {
    extractMs: ms,
    accepted,
    review,
    rejected,
    recall: score.overall,
    byRelation: Object.fromEntries(Object.entries(score.recall).map(([r, s]) => [r, `${s.k}/${s.n}`])),
    causes: Object.fromEntries([...causes.entries()].sort((a, b) => b[1] - a[1])),
    ownMethods: Object.fromEntries([...byPaper].map(([id, p]) => [id, p.x.ownMethod])),
  };
  if (process.argv.includes("--json")) console.log(JSON.stringify({ ...result, missed: lines }, null, 2));
  else {
    console.log(JSON.stringify(result, null, 1));
    if (process.argv.includes("--all")) console.log(lines.join("\n"));
  }
}

/** Whether a candidate's quote overlaps the span on the page. */
function overlaps(pageText: string, quote: string, span: { start: number; end: number }): boolean {
  const at = locateQuote(pageText, quote);
  return at !== null && at.start < span.end && at.end > span.start;
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);

/** The span of the page's sentences that hold a quote, compared in the gold file's normalised form. */
function sentencesHolding(pageText: string, quote: string): { start: number; end: number } | null {
  const q = normalizePassage(quote);
  const head = q.slice(0, 40);
  const tail = q.slice(-40);
  const sentences = splitSentences(pageText);
  const first = sentences.find((s) => normalizePassage(pageText.slice(s.start, s.end)).includes(head));
  if (!first || head.length === 0) return null;
  const last = sentences.find(
    (s) => s.start >= first.start && normalizePassage(pageText.slice(s.start, s.end)).includes(tail),
  );
  return { start: first.start, end: (last ?? first).end };
}
