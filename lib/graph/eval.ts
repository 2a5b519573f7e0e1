/**
 * Knowledge-graph evaluation against the hand-written gold set (bench/graph/gold-*.json, bench/graph/README.md),
 * pure and dependency-free apart from the Wilson interval:
 * - the gold edge shape and its vocabulary (relations, entity types);
 * - where a quote is on a page: both texts NFKC, whitespace runs collapsed to one space, a hyphen between letters
 *   (with any whitespace after it: "gradi-\nents", "pre-trained") dropped, so a word broken at a line end matches;
 * - entity-name matching: lowercase, every character that is not a letter or digit dropped ("Lucene-BM25" →
 *   "lucenebm25", "GPT-3" = "GPT 3" = "gpt3"), a leading "the" ignored; a name also answers to its gold aliases
 *   (acronym ↔ expansion) and a predicted "Dense Passage Retriever (DPR)" answers to both its parts;
 * - recall per relation type: a gold edge is found when some predicted edge has the same relation and paper and its
 *   source and target match the gold source and target (names or aliases). Page and quote are not compared: the
 *   same claim is often made in the abstract and again in the introduction.
 */
import { type Share, shareOf } from "@/lib/research/eval-answers";

export const GRAPH_RELATIONS = ["improves_on", "extends", "uses", "evaluates_on", "introduces", "compares_to"] as const;
export type GraphRelation = (typeof GRAPH_RELATIONS)[number];

export const GRAPH_ENTITY_TYPES = ["Method", "Model", "Dataset", "Metric", "Task", "Concept"] as const;
export type GraphEntityType = (typeof GRAPH_ENTITY_TYPES)[number];

export interface GoldEntity {
  name: string;
  type: GraphEntityType;
  aliases?: string[];
}

export interface GoldEdge {
  id: string;
  relation: GraphRelation;
  source: GoldEntity;
  target: GoldEntity;
  paper_id: string;
  /** 1-based physical page, as stored. */
  page: number;
  /** Verbatim (after normalisation) from the stored page text, ≤ 300 characters. */
  quote: string;
  note?: string;
}

export interface GoldPaper {
  /** The corpus file the draw picked. */
  file: string;
  paper_id: string;
  /** The paper's own method, model or dataset (the source of its first-person claims). */
  main_entity: GoldEntity;
}

export interface GoldFile {
  split: "dev" | "heldout";
  seed: number;
  script: string;
  papers: GoldPaper[];
  edges: GoldEdge[];
}

export interface PredictedEdge {
  relation: string;
  source: { name: string };
  target: { name: string };
  paper_id: string;
  page?: number;
  quote?: string;
}

export const MAX_QUOTE_CHARS = 300;

/** Page or quote text in the form quotes are compared in (see the module comment). */
export function normalizePassage(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/\u00ad/g, "")
    .replace(/(?<=\p{L})-\s*(?=\p{L})/gu, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Whether the quote is on the page, both normalised; an empty quote is on no page. */
export function quoteOnPage(pageText: string, quote: string): boolean {
  const q = normalizePassage(quote);
  return q.length > 0 && normalizePassage(pageText).includes(q);
}

/** An entity name in the form names are compared in (see the module comment). */
export function normalizeName(name: string): string {
  return name
    .normalize("NFKC")
    .toLowerCase()
    .replace(/^\s*the\s+/u, "")
    .replace(/[^\p{L}\p{N}]+/gu, "");
}

/** The normalised forms a gold entity answers to: its name and aliases. */
export function goldNames(e: GoldEntity): Set<string> {
  return new Set([e.name, ...(e.aliases ?? [])].map(normalizeName).filter((n) => n.length > 0));
}

/** The normalised forms a predicted name stands for: the name, and "A (B)" also as A and as B. */
export function predictedNames(name: string): Set<string> {
  const out = new Set<string>([normalizeName(name)]);
  const m = /^(.+?)\s*\(([^()]+)\)\s*$/u.exec(name);
  if (m) for (const part of [m[1], m[2]]) if (part) out.add(normalizeName(part));
  out.delete("");
  return out;
}

export function entityMatches(gold: GoldEntity, predictedName: string): boolean {
  const names = goldNames(gold);
  for (const n of predictedNames(predictedName)) if (names.has(n)) return true;
  return false;
}

/** Whether a name (or one of its aliases) occurs in the quote, both in the comparison form of names. */
export function nameInQuote(e: GoldEntity, quote: string): boolean {
  const q = normalizeName(quote);
  for (const n of goldNames(e)) if (q.includes(n)) return true;
  return false;
}

export function edgeMatches(gold: GoldEdge, p: PredictedEdge): boolean {
  return (
    p.relation === gold.relation &&
    p.paper_id === gold.paper_id &&
    entityMatches(gold.source, p.source.name) &&
    entityMatches(gold.target, p.target.name)
  );
}

export interface GoldScore {
  /** Recall per relation type over the gold edges of that type, with its 95 % Wilson interval. */
  recall: Record<GraphRelation, Share>;
  overall: Share;
  /** Gold edges no prediction matched (for reading the misses). */
  missed: string[];
  /** Predicted edges that matched some gold edge, of all predicted edges on the gold papers. */
  predictedOnGoldPapers: number;
  predictedMatchingGold: number;
}

/**
 * Recall of `predicted` against `gold`. Predictions on papers outside the gold set are ignored. The gold set is not
 * exhaustive, so an unmatched prediction is not counted as wrong: precision is measured by reading the accepted edges.
 */
export function scoreAgainstGold(gold: readonly GoldEdge[], predicted: readonly PredictedEdge[]): GoldScore {
  const goldPapers = new Set(gold.map((g) => g.paper_id));
  const onPapers = predicted.filter((p) => goldPapers.has(p.paper_id));
  const found = new Map<GraphRelation, number>();
  const total = new Map<GraphRelation, number>();
  const missed: string[] = [];
  const used = new Set<number>();
  for (const g of gold) {
    total.set(g.relation, (total.get(g.relation) ?? 0) + 1);
    let hit = false;
    onPapers.forEach((p, i) => {
      if (edgeMatches(g, p)) {
        hit = true;
        used.add(i);
      }
    });
    if (hit) found.set(g.relation, (found.get(g.relation) ?? 0) + 1);
    else missed.push(g.id);
  }
  const recall = Object.fromEntries(
    GRAPH_RELATIONS.map((r) => [r, shareOf(found.get(r) ?? 0, total.get(r) ?? 0)]),
  ) as Record<GraphRelation, Share>;
  const k = [...found.values()].reduce((a, b) => a + b, 0);
  return {
    recall,
    overall: shareOf(k, gold.length),
    missed,
    predictedOnGoldPapers: onPapers.length,
    predictedMatchingGold: used.size,
  };
}

/**
 * A quote that speaks for the paper itself ("we use …", "our method …", "The method therefore improves upon …"): the
 * paper's own method may then stand as the source without being named in the quote.
 */
export const SELF_REFERENCE = /\b(we|our|us)\b|\b(the|this) (method|approach|work|paper)\b/i;

/**
 * Problems of one gold edge that need no page text: vocabulary, self edge, quote length, names in the quote. The
 * source may be absent from the quote only when it is the paper's main entity (`main`) and the quote refers to the
 * paper itself (SELF_REFERENCE).
 */
export function goldEdgeProblems(e: GoldEdge, main?: GoldEntity): string[] {
  const out: string[] = [];
  if (!(GRAPH_RELATIONS as readonly string[]).includes(e.relation)) out.push(`unknown relation ${e.relation}`);
  if (typeof e.quote !== "string" || e.quote.trim() === "") return [...out, "no quote"];
  for (const side of ["source", "target"] as const) {
    const ent = e[side];
    if (!ent?.name) {
      out.push(`${side} has no name`);
      continue;
    }
    if (!(GRAPH_ENTITY_TYPES as readonly string[]).includes(ent.type)) out.push(`${side} type ${ent.type} unknown`);
    if (nameInQuote(ent, e.quote)) continue;
    const implicitSelf =
      side === "source" && main !== undefined && sameEntity(ent, main) && SELF_REFERENCE.test(e.quote);
    if (!implicitSelf) out.push(`${side} "${ent.name}" (or an alias) not in the quote`);
  }
  if (e.source?.name && e.target?.name && sameEntity(e.source, e.target)) out.push("self edge");
  if (e.quote.length > MAX_QUOTE_CHARS) out.push(`quote longer than ${MAX_QUOTE_CHARS} characters`);
  if (!Number.isInteger(e.page) || e.page < 1) out.push(`page ${e.page} is not a 1-based page`);
  return out;
}

/** Whether two gold entities share a name or alias (normalised). */
export function sameEntity(a: GoldEntity, b: GoldEntity): boolean {
  const names = goldNames(a);
  for (const n of goldNames(b)) if (names.has(n)) return true;
  return false;
}
