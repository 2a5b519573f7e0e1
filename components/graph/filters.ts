import { paperHref } from "@/components/library/types";
import type { GraphEdgeResult, GraphRelation } from "./types";

/** The /graph filters: which relations, which years, how sure. */
export interface GraphFilters {
  relations: ReadonlySet<GraphRelation>;
  /** Inclusive bounds; null = open. An edge from a paper without a year is shown only while both are open. */
  yearFrom: number | null;
  yearTo: number | null;
  /** 0–1: edges below it are hidden. */
  minConfidence: number;
}

export function defaultFilters(relations: readonly GraphRelation[]): GraphFilters {
  return { relations: new Set(relations), yearFrom: null, yearTo: null, minConfidence: 0 };
}

export function edgePasses(edge: GraphEdgeResult, f: GraphFilters): boolean {
  if (!f.relations.has(edge.relation)) return false;
  if (edge.confidence < f.minConfidence) return false;
  if (f.yearFrom !== null || f.yearTo !== null) {
    if (edge.year === null) return false;
    if (f.yearFrom !== null && edge.year < f.yearFrom) return false;
    if (f.yearTo !== null && edge.year > f.yearTo) return false;
  }
  return true;
}

export function filterEdges(edges: readonly GraphEdgeResult[], f: GraphFilters): GraphEdgeResult[] {
  return edges.filter((e) => edgePasses(e, f));
}

/** One claim of one paper: its first edge (drawn and listed), and the same claim on the paper's other pages. */
export interface PaperClaim {
  edge: GraphEdgeResult;
  others: GraphEdgeResult[];
}

/**
 * The edges as claims: a paper that states "XLNet outperforms BERT" on six pages makes one claim with six quotes, not
 * six lines; the same claim in another paper stays a claim of its own (another paper's evidence). Order kept.
 */
export function paperClaims(edges: readonly GraphEdgeResult[]): PaperClaim[] {
  const byKey = new Map<string, PaperClaim>();
  for (const e of edges) {
    const key = `${e.source.id}|${e.relation}|${e.target.id}|${e.paper_id}`;
    const claim = byKey.get(key);
    if (claim) claim.others.push(e);
    else byKey.set(key, { edge: e, others: [] });
  }
  return [...byKey.values()];
}

/** A typed year: a whole number 1900–2100, or null for an empty (or unreadable) field. */
export function parseYear(text: string): number | null {
  const t = text.trim();
  if (!/^\d{4}$/.test(t)) return null;
  const y = Number(t);
  return y >= 1900 && y <= 2100 ? y : null;
}

/** The years the edges come from (for the year fields' placeholders), or null when none has a year. */
export function yearSpan(edges: readonly GraphEdgeResult[]): { min: number; max: number } | null {
  const years = edges.flatMap((e) => (e.year === null ? [] : [e.year]));
  return years.length > 0 ? { min: Math.min(...years), max: Math.max(...years) } : null;
}

/**
 * Where an edge's "Open" goes: the paper's page in the library viewer at the edge's page, its quote highlighted by
 * its offsets in the page text — the link format of research's source chips (`?page=&start=&end=`).
 */
export function evidenceHref(edge: Pick<GraphEdgeResult, "paper_id" | "page" | "char_start" | "char_end">): string {
  return paperHref(edge.paper_id, { page: edge.page, start: edge.char_start, end: edge.char_end });
}

/** /graph searched for an entity. */
export function graphHref(name: string): string {
  return `/graph?q=${encodeURIComponent(name)}`;
}

/** An entity's own page. */
export function entityHref(name: string): string {
  return `/graph/entity/${encodeURIComponent(name)}`;
}

/** "0.85" → "85%". */
export function formatConfidence(c: number): string {
  return `${Math.round(Math.max(0, Math.min(1, c)) * 100)}%`;
}
