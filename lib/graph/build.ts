/**
 * Building the graph for a set of papers: extract (rules offline, or the model), settle each entity's type over the
 * batch, validate every candidate against the stored pages, then write each paper's edges in one transaction —
 * replacing whatever that paper had — and finally drop orphan entities, embed new entities and link aliases (tier B).
 * A paper that fails is reported and skipped; the others are written.
 */
import type { LanguageModel } from "ai";
import type { Database } from "@/db";
import {
  type GraphAliasInput,
  type GraphEdgeInput,
  type GraphEntityInput,
  getBibliographySpans,
  getGraphPages,
  listGraphEntities,
  listGraphPapers,
  listPapersNeedingGraph,
  pruneOrphanEntities,
  replacePaperGraph,
} from "@/db/queries/graph";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { briefError } from "@/lib/errors";
import { extractWithModel } from "./extract-model";
import { extractWithRules, type PaperText } from "./extract-rules";
import { betterName, canonicalName } from "./normalize";
import { embedNewEntities, resolveAliasesTierB, type TierBResult } from "./resolve";
import type { Candidate, GraphEntityType, PaperExtraction, RejectReason, ValidEdge } from "./types";
import { PageIndex, validateCandidate } from "./validate";

export type GraphBuildStage = "extracting" | "writing" | "resolving";

export type GraphBuildProgress =
  | { type: "paper"; stage: GraphBuildStage; done: number; of: number; paperId: string }
  | { type: "stage"; stage: GraphBuildStage; detail: string };

export interface GraphBuildOptions {
  /** Papers to (re)build; all ready papers when absent. */
  paperIds?: string[];
  /** The model extractor; null or absent: the offline rules. */
  model?: LanguageModel | null;
  /** The model's name as stored in `extractor` (default: its modelId). */
  modelName?: string;
  /** The library's embedder, for entity vectors and tier-B alias links; absent: no vectors, no tier B. */
  embedder?: EmbeddingProvider | null;
  onProgress?: (e: GraphBuildProgress) => void;
  signal?: AbortSignal;
  /** Per model call (ms). */
  callTimeoutMs?: number;
}

export interface GraphBuildReport {
  papers: number;
  /** Papers that could not be built (their previous edges are kept). */
  failed: { paperId: string; error: string }[];
  extractor: string;
  candidates: number;
  accepted: number;
  review: number;
  /** Candidates validation turned away, by reason (never written). */
  rejected: Partial<Record<RejectReason, number>>;
  /** Model output of the wrong shape (counted, dropped). */
  malformed: number;
  /** Sections the model failed on with both prompts. */
  failedSections: number;
  /** Papers the model answered for in no section, built with the offline rules instead. */
  fellBackToRules: number;
  entitiesCreated: number;
  orphansRemoved: number;
  aliases: { tierA: number; tierB: TierBResult };
  durationMs: number;
  /** Where the time went (ms). */
  timings: { extract: number; write: number; resolve: number };
}

const STRONG_TYPES: ReadonlySet<GraphEntityType> = new Set(["Dataset", "Metric", "Task"]);

/** Settles one type per canonical name over the batch: votes from mentions and candidates; a stored type stays. */
export function settleTypes(
  extractions: PaperExtraction[],
  existing: Map<string, GraphEntityType>,
): (name: string) => GraphEntityType {
  const votes = new Map<string, Map<GraphEntityType, number>>();
  const vote = (name: string, type: GraphEntityType, weight: number) => {
    const key = canonicalName(name);
    const v = votes.get(key) ?? new Map<GraphEntityType, number>();
    votes.set(key, v);
    v.set(type, (v.get(type) ?? 0) + weight);
  };
  // "Method" is the rules' default when nothing around a name says otherwise: a weak vote, so that the papers that do
  // call a name a dataset or a metric are not outvoted by the ones that only mention it
  const weight = (type: GraphEntityType, strong: number, rules: boolean) =>
    STRONG_TYPES.has(type) ? strong : type === "Method" && rules ? 0.25 : 1;
  for (const x of extractions) {
    for (const m of x.mentions) vote(m.entity.name, m.entity.type, weight(m.entity.type, 2, true));
    for (const c of x.candidates) {
      const rules = c.extractor === "rules";
      const w = rules ? 1 : 2;
      vote(c.source.name, c.source.type, rules ? weight(c.source.type, 1, true) : w);
      // the rules' target type often comes from the pattern alone ("evaluated on X"): one vote, as a mention's cue is
      vote(
        c.target.name,
        c.target.type,
        rules ? weight(c.target.type, 1, true) : STRONG_TYPES.has(c.target.type) ? 2 * w : w,
      );
    }
    if (x.ownMethod) vote(x.ownMethod, "Method", 1);
  }
  return (name) => {
    const key = canonicalName(name);
    const stored = existing.get(key);
    if (stored) return stored;
    const v = votes.get(key);
    if (!v) return "Method";
    return [...v.entries()].sort((a, b) => b[1] - a[1] || (a[0] === "Method" ? -1 : 1))[0]?.[0] ?? "Method";
  };
}

/** What validation makes of one paper's extraction: its edges and entities, ready to write. */
export interface ValidatedPaper {
  valid: ValidEdge[];
  entities: GraphEntityInput[];
  aliasLinks: GraphAliasInput[];
  edges: GraphEdgeInput[];
  mentions: { canonicalName: string; page: number; count: number }[];
}

/** A sentence that says its method was evaluated or experimented with. */
const EVALUATING = /\b(?:evaluat\w*|experiment\w*|tested|stud(?:y|ies|ied))\b/i;

/**
 * Types, validates and deduplicates one paper's candidates (pure: no database). `typeOf` is the batch's settled type
 * per name (settleTypes); `storedAliases` the names already linked to a name; rejections are counted into `rejected`.
 */
export function validateExtraction(
  text: PaperText,
  x: PaperExtraction,
  ctx: {
    typeOf: (name: string) => GraphEntityType;
    storedAliases?: ReadonlyMap<string, string[]>;
    rejected?: Partial<Record<RejectReason, number>>;
  },
): ValidatedPaper {
  const { typeOf } = ctx;
  const rejected = ctx.rejected ?? {};
  const pages = new PageIndex(text.pages);
  const acronymOf = new Map<string, string[]>();
  for (const a of x.acronyms) {
    acronymOf.set(canonicalName(a.short), [...(acronymOf.get(canonicalName(a.short)) ?? []), a.long]);
    acronymOf.set(canonicalName(a.long), [...(acronymOf.get(canonicalName(a.long)) ?? []), a.short]);
  }
  const aliases = (name: string) => {
    const key = canonicalName(name);
    return [...(acronymOf.get(key) ?? []), ...(ctx.storedAliases?.get(key) ?? [])];
  };
  const sameThing = (a: string, b: string) =>
    aliases(a).some((n) => canonicalName(n) === canonicalName(b)) || canonicalName(a) === canonicalName(b);
  const valid: ValidEdge[] = [];
  const seen = new Set<string>();
  // "evaluated on RoBERTa, DeBERTa and GPT-2": a list is of one kind, so when one of its names is a method or a model,
  // the others the pattern took for datasets are methods too
  const listKey = (c: Candidate) => `${c.relation}|${c.page}|${canonicalName(c.source.name)}|${c.quote}`;
  const methodLists = new Set(
    x.candidates
      .filter((c) => c?.relation === "evaluates_on" && c.target && ["Method", "Model"].includes(typeOf(c.target.name)))
      .map(listKey),
  );
  for (const c of x.candidates) {
    // the paper's own method evaluated or experimented "on" / "with" models ("we evaluate LoRA on RoBERTa, DeBERTa
    // and GPT-2", "we conduct experiments with LLaMA-7B"): what it is run on, it uses. Not another method's results
    // ("TAS-B outperforms DPR on 17/18 datasets"), nor a sentence that evaluates nothing ("For CoVe and the biLM, we
    // report scores"). A model's own output keeps the relation it gave, and fails the type check instead.
    const onList = c?.relation === "evaluates_on" && c.source && methodLists.has(listKey(c));
    const onModels =
      onList &&
      c.extractor === "rules" &&
      ["Method", "Model"].includes(typeOf(c.target.name)) &&
      x.ownMethod !== null &&
      canonicalName(c.source.name) === canonicalName(x.ownMethod) &&
      EVALUATING.test(c.quote);
    if (onList && !onModels) {
      rejected.type_mismatch = (rejected.type_mismatch ?? 0) + 1;
      continue;
    }
    let typed: Candidate =
      c?.source && c.target
        ? {
            ...c,
            source: { ...c.source, type: typeOf(c.source.name) },
            target: { ...c.target, type: typeOf(c.target.name) },
          }
        : c;
    if (typed?.relation === "uses" && typed.evaluationContext && ["Dataset", "Task"].includes(typed.target.type)) {
      typed = { ...typed, relation: "evaluates_on" };
    }
    if (onModels) typed = { ...typed, relation: "uses", target: { ...typed.target, type: typeOf(typed.target.name) } };
    if (typed?.source?.name && typed?.target?.name && sameThing(typed.source.name, typed.target.name)) {
      rejected.self_edge = (rejected.self_edge ?? 0) + 1;
      continue;
    }
    const r = validateCandidate(typed, { pages, aliases, ownMethod: x.ownMethod });
    if (!r.ok) {
      rejected[r.reason] = (rejected[r.reason] ?? 0) + 1;
      continue;
    }
    const e = r.edge;
    const key = `${e.relation}|${canonicalName(e.source.name)}|${canonicalName(e.target.name)}|${e.page}|${e.charStart}`;
    if (seen.has(key)) continue;
    seen.add(key);
    valid.push(e);
  }
  const entities = new Map<string, GraphEntityInput>();
  const addEntity = (name: string, description?: string | null) => {
    const key = canonicalName(name);
    if (!key || entities.has(key)) return;
    entities.set(key, { name, canonicalName: key, type: typeOf(name), description: description ?? null });
  };
  for (const e of valid) {
    addEntity(e.source.name, e.source.description);
    addEntity(e.target.name, e.target.description);
  }
  // the paper's acronyms for entities it has edges for: both names stored, the long form an alias of the short
  const aliasLinks: GraphAliasInput[] = [];
  for (const a of x.acronyms) {
    const s = canonicalName(a.short);
    const l = canonicalName(a.long);
    if (!entities.has(s) && !entities.has(l)) continue;
    addEntity(a.short);
    addEntity(a.long);
    aliasLinks.push({
      alias: l,
      root: s,
      tier: "A",
      reason: `“${a.long} (${a.short})” in ${text.id}, page ${a.page}`,
    });
  }
  const edges: GraphEdgeInput[] = valid.map((e) => ({
    source: canonicalName(e.source.name),
    target: canonicalName(e.target.name),
    relation: e.relation,
    page: e.page,
    quote: e.quote,
    charStart: e.charStart,
    charEnd: e.charEnd,
    confidence: e.confidence,
    status: e.status,
    reason: e.reason,
    extractor: e.extractor,
  }));
  const mentions = x.mentions
    .map((m) => ({ canonicalName: canonicalName(m.entity.name), page: m.page, count: m.count }))
    .filter((m) => entities.has(m.canonicalName));
  return { valid, entities: [...entities.values()], aliasLinks, edges, mentions };
}

export async function loadPaperText(
  db: Database,
  p: { id: string; title: string; abstract: string | null },
): Promise<PaperText> {
  const [pages, skip] = await Promise.all([
    getGraphPages(db, { paperId: p.id }),
    getBibliographySpans(db, { paperId: p.id }),
  ]);
  return { id: p.id, title: p.title, abstract: p.abstract, pages, skip };
}

/**
 * Builds the graph for `paperIds` (or the whole library): each paper's edges are replaced by a fresh extraction.
 * Throws only when `signal` aborts or the database cannot be read at all; a paper that fails is in `failed`.
 */
export async function buildGraph(db: Database, opts: GraphBuildOptions = {}): Promise<GraphBuildReport> {
  const started = performance.now();
  const emit = opts.onProgress ?? (() => {});
  const model = opts.model ?? null;
  const extractor = model ? (opts.modelName ?? (typeof model === "string" ? model : model.modelId)) : "rules";
  const report: GraphBuildReport = {
    papers: 0,
    failed: [],
    extractor,
    candidates: 0,
    accepted: 0,
    review: 0,
    rejected: {},
    malformed: 0,
    failedSections: 0,
    fellBackToRules: 0,
    entitiesCreated: 0,
    orphansRemoved: 0,
    aliases: { tierA: 0, tierB: { linked: 0, suggested: 0, withdrawn: 0, embedded: 0 } },
    durationMs: 0,
    timings: { extract: 0, write: 0, resolve: 0 },
  };
  const paperRows = await listGraphPapers(db, { ids: opts.paperIds });
  const known = await listGraphEntities(db);
  const existingTypes = new Map(known.map((e) => [e.canonicalName, e.type]));
  // names that stand for the same entity (alias groups already stored): any of them found in the text will do
  const groupNames = new Map<number, string[]>();
  for (const e of known) {
    const root = e.aliasOf ?? e.id;
    groupNames.set(root, [...(groupNames.get(root) ?? []), e.name]);
  }
  const storedAliases = new Map<string, string[]>();
  for (const e of known) storedAliases.set(e.canonicalName, groupNames.get(e.aliasOf ?? e.id) ?? []);

  // 1. extract
  const extracted: { text: PaperText; x: PaperExtraction }[] = [];
  for (const [i, p] of paperRows.entries()) {
    opts.signal?.throwIfAborted();
    emit({ type: "paper", stage: "extracting", done: i, of: paperRows.length, paperId: p.id });
    try {
      const text = await loadPaperText(db, p);
      const x = model
        ? await extractWithModel(text, {
            model,
            modelName: extractor,
            signal: opts.signal,
            callTimeoutMs: opts.callTimeoutMs,
          })
        : extractWithRules(text);
      extracted.push({ text, x });
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      report.failed.push({ paperId: p.id, error: briefError(e) });
    }
  }
  const extractedAt = performance.now();
  report.timings.extract = Math.round(extractedAt - started);
  const typeOf = settleTypes(
    extracted.map((e) => e.x),
    existingTypes,
  );

  // 2. validate and write, paper by paper
  for (const [i, { text, x }] of extracted.entries()) {
    opts.signal?.throwIfAborted();
    emit({ type: "paper", stage: "writing", done: i, of: extracted.length, paperId: text.id });
    report.malformed += x.malformed;
    report.failedSections += x.failedSections;
    if (x.fellBackToRules) report.fellBackToRules++;
    report.candidates += x.candidates.length;
    const { valid, entities, aliasLinks, edges, mentions } = validateExtraction(text, x, {
      typeOf,
      storedAliases,
      rejected: report.rejected,
    });
    try {
      const w = await replacePaperGraph(db, {
        paperId: text.id,
        extractor: x.fellBackToRules ? "rules" : extractor,
        entities,
        edges,
        mentions,
        aliases: aliasLinks,
        betterName,
      });
      report.papers++;
      report.entitiesCreated += w.entitiesCreated;
      report.aliases.tierA += w.aliasesLinked;
      for (const e of valid) {
        if (e.status === "accepted") report.accepted++;
        else report.review++;
      }
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      report.failed.push({ paperId: text.id, error: briefError(e) });
    }
  }

  // 3. orphans, vectors, tier-B aliases
  const writtenAt = performance.now();
  report.timings.write = Math.round(writtenAt - extractedAt);
  emit({ type: "stage", stage: "resolving", detail: "removing orphan entities" });
  report.orphansRemoved = await pruneOrphanEntities(db);
  if (opts.embedder) {
    emit({ type: "stage", stage: "resolving", detail: "embedding new entities" });
    try {
      const embedded = await embedNewEntities(db, opts.embedder, opts.signal);
      emit({ type: "stage", stage: "resolving", detail: "linking aliases" });
      report.aliases.tierB = { ...(await resolveAliasesTierB(db)), embedded };
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      report.failed.push({ paperId: "(entity resolution)", error: briefError(e) });
    }
  }
  report.timings.resolve = Math.round(performance.now() - writtenAt);
  report.durationMs = Math.round(performance.now() - started);
  return report;
}

/**
 * The library step's part: builds the graph for the papers that need it — new ones, and replaced ones (another PDF
 * version than the graph was built from). Null when every paper is up to date.
 */
export async function buildPendingGraph(
  db: Database,
  opts: Omit<GraphBuildOptions, "paperIds"> = {},
): Promise<GraphBuildReport | null> {
  const paperIds = await listPapersNeedingGraph(db);
  if (paperIds.length === 0) return null;
  return buildGraph(db, { ...opts, paperIds });
}
