/**
 * Questions the knowledge graph answers, for the CLI, the /graph page and research's graph_search step. Every function
 * takes an entity by the name a person types, resolves it (canonical name, then its alias group: any alias finds the
 * group, results name the group's root) and answers with edges that carry their evidence: the paper, the page, the
 * verbatim quote and its offsets in the page text (what the PDF viewer highlights).
 *
 *   lookupEntity(db, name)                       → the entity, its aliases, relations by type, co-occurring entities
 *   queryRelation(db, { relation, target })      → edges `? —relation→ target`   e.g. who improves on BERT
 *   queryRelation(db, { relation, source })      → edges `source —relation→ ?`   e.g. what RAG uses
 *   improvesOn(db, name, { transitive })         → papers improving on X, directly or through others, with the path
 *   usesOrExtends(db, name)                      → what X uses and extends
 *   evaluatedOn(db, dataset)                     → methods evaluated on D
 *   coOccurring(db, name)                        → entities the same papers mention
 *   listEdges(db, { relation })                  → the whole graph's edges (drawing, export)
 *   graphStats(db)                               → counts per type, relation, status, extractor
 *
 * An unknown name answers `{ found: false, message: "No entity named “X”.", suggestions }` with close names. Only
 * accepted edges unless `includeReview` (edges a person rejected never). Best first: confidence, then newer papers.
 */
import type { Database } from "@/db";
import {
  countEntityPapers,
  findCooccurring,
  findGraphEdges,
  type GraphCounts,
  type GraphEdgeView,
  getAliasGroup,
  getEntityByCanonical,
  getGraphCounts,
  listGraphEntities,
} from "@/db/queries/graph";
import { canonicalName } from "./normalize";
import type { GraphEdgeStatus, GraphEntityType, GraphRelation } from "./types";
import { RELATIONS } from "./types";

export interface EntityRef {
  id: number;
  name: string;
  type: GraphEntityType;
}

/** One edge with its evidence; the JSON the CLI prints and the UI draws. */
export interface GraphEdgeResult {
  id: number;
  relation: GraphRelation;
  /** The group's root; `as_written` is the name in this paper when it differs. */
  source: EntityRef & { as_written?: string };
  target: EntityRef & { as_written?: string };
  paper_id: string;
  paper_title: string;
  year: number | null;
  page: number;
  quote: string;
  char_start: number;
  char_end: number;
  confidence: number;
  status: GraphEdgeStatus;
  extractor: string;
  /** Transitive answers: the entities from this edge's source to the asked entity ("RoBERTa → XLNet → BERT"). */
  path?: string[];
  /** Transitive answers: 1 = a direct edge into the asked entity. */
  depth?: number;
}

export type EntityResolution =
  | { found: true; entity: EntityRef; aliases: { name: string; tier: string | null; reason: string | null }[] }
  | { found: false; name: string; message: string; suggestions: EntityRef[] };

export interface QueryOptions {
  /** Also edges waiting in review (default: accepted only). */
  includeReview?: boolean;
  limit?: number;
}

function statuses(opts: QueryOptions): GraphEdgeStatus[] {
  return opts.includeReview ? ["accepted", "review"] : ["accepted"];
}

/** A stored edge as queries answer it. */
export function toResult(e: GraphEdgeView): GraphEdgeResult {
  return {
    id: e.id,
    relation: e.relation,
    source: {
      id: e.sourceId,
      name: e.sourceName,
      type: e.sourceType,
      ...(e.sourceWritten !== e.sourceName ? { as_written: e.sourceWritten } : {}),
    },
    target: {
      id: e.targetId,
      name: e.targetName,
      type: e.targetType,
      ...(e.targetWritten !== e.targetName ? { as_written: e.targetWritten } : {}),
    },
    paper_id: e.paperId,
    paper_title: e.paperTitle,
    year: e.year,
    page: e.page,
    quote: e.quote,
    char_start: e.charStart,
    char_end: e.charEnd,
    confidence: Math.round(e.confidence * 100) / 100,
    status: e.status,
    extractor: e.extractor,
  };
}

/** Levenshtein distance (two rows). */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length] as number;
}

/** How close a stored name is to what was typed (0–1): containment as a whole word, or edit similarity. */
export function closeness(typed: string, stored: string): number {
  if (stored.split(" ").includes(typed) || typed.split(" ").includes(stored)) return 0.9;
  if (stored.startsWith(typed) || stored.includes(typed)) return 0.8;
  // the edit distance is at least the difference in length: a name that far off cannot reach 0.5, whatever is typed
  // (a long ?q= would otherwise cost length × length steps for every entity, on every request)
  if (2 * Math.abs(typed.length - stored.length) > Math.max(typed.length, stored.length)) return 0;
  const d = editDistance(typed, stored);
  return 1 - d / Math.max(typed.length, stored.length);
}

/** Finds the entity a name means (through its alias group), or close names when there is none. */
export async function resolveEntity(db: Database, name: string): Promise<EntityResolution> {
  const key = canonicalName(name);
  const hit = key ? await getEntityByCanonical(db, { canonicalName: key }) : null;
  if (hit) {
    const group = await getAliasGroup(db, { rootId: hit.aliasOf ?? hit.id });
    const root = group[0] ?? hit;
    return {
      found: true,
      entity: { id: root.id, name: root.name, type: root.type },
      aliases: group.slice(1).map((g) => ({ name: g.name, tier: g.aliasTier, reason: g.aliasReason })),
    };
  }
  const all = await listGraphEntities(db);
  const byId = new Map(all.map((e) => [e.id, e]));
  const scored = new Map<number, { ref: EntityRef; score: number }>();
  for (const e of all) {
    if (!key) break;
    const score = closeness(key, e.canonicalName);
    if (score < 0.5) continue;
    const root = byId.get(e.aliasOf ?? e.id) ?? e;
    const prev = scored.get(root.id);
    if (!prev || prev.score < score)
      scored.set(root.id, { ref: { id: root.id, name: root.name, type: root.type }, score });
  }
  const suggestions = [...scored.values()]
    .sort((a, b) => b.score - a.score || a.ref.name.localeCompare(b.ref.name))
    .slice(0, 5)
    .map((s) => s.ref);
  const shown = name.trim() || "(empty)";
  return {
    found: false,
    name,
    message:
      suggestions.length > 0
        ? `No entity named “${shown}”. Did you mean ${suggestions.map((s) => `“${s.name}”`).join(", ")}?`
        : `No entity named “${shown}”.`,
    suggestions,
  };
}

export type EdgeAnswer =
  | { found: true; entity: EntityRef; edges: GraphEdgeResult[] }
  | Extract<EntityResolution, { found: false }>;

/**
 * Edges of one relation into `target` or out of `source` (exactly one of them). With `transitive` (into a target
 * only), edges into the entities found are followed too, up to `maxDepth` steps, each with its path to the target.
 */
export async function queryRelation(
  db: Database,
  q: QueryOptions & {
    relation?: GraphRelation;
    source?: string;
    target?: string;
    transitive?: boolean;
    maxDepth?: number;
  },
): Promise<EdgeAnswer> {
  const name = q.target ?? q.source;
  if (name === undefined || (q.target !== undefined && q.source !== undefined)) {
    throw new Error("queryRelation takes a source or a target, not both");
  }
  const r = await resolveEntity(db, name);
  if (!r.found) return r;
  const relations = q.relation ? [q.relation] : undefined;
  const limit = q.limit ?? 200;
  if (q.source !== undefined) {
    const edges = await findGraphEdges(db, { sourceRoots: [r.entity.id], relations, statuses: statuses(q), limit });
    return { found: true, entity: r.entity, edges: edges.map(toResult) };
  }
  if (!q.transitive) {
    const edges = await findGraphEdges(db, { targetRoots: [r.entity.id], relations, statuses: statuses(q), limit });
    return { found: true, entity: r.entity, edges: edges.map(toResult) };
  }
  // breadth first: each level's sources are the next level's targets; a path never visits an entity twice
  const out: GraphEdgeResult[] = [];
  const pathTo = new Map<number, string[]>([[r.entity.id, [r.entity.name]]]);
  let frontier = [r.entity.id];
  for (let depth = 1; depth <= (q.maxDepth ?? 3) && frontier.length > 0 && out.length < limit; depth++) {
    const edges = await findGraphEdges(db, { targetRoots: frontier, relations, statuses: statuses(q), limit });
    const next: number[] = [];
    for (const e of edges) {
      const rest = pathTo.get(e.targetId) ?? [e.targetName];
      if (rest.includes(e.sourceName) || e.sourceId === r.entity.id) continue;
      out.push({ ...toResult(e), path: [e.sourceName, ...rest], depth });
      if (!pathTo.has(e.sourceId)) {
        pathTo.set(e.sourceId, [e.sourceName, ...rest]);
        next.push(e.sourceId);
      }
    }
    frontier = next;
  }
  return { found: true, entity: r.entity, edges: out.slice(0, limit) };
}

/** Which papers improve on X (the sources of improves_on edges into X), directly or transitively. */
export function improvesOn(
  db: Database,
  name: string,
  opts: QueryOptions & { transitive?: boolean; maxDepth?: number } = {},
): Promise<EdgeAnswer> {
  return queryRelation(db, { ...opts, relation: "improves_on", target: name });
}

/** What X uses and extends. */
export async function usesOrExtends(db: Database, name: string, opts: QueryOptions = {}): Promise<EdgeAnswer> {
  const r = await resolveEntity(db, name);
  if (!r.found) return r;
  const edges = await findGraphEdges(db, {
    sourceRoots: [r.entity.id],
    relations: ["uses", "extends"],
    statuses: statuses(opts),
    limit: opts.limit ?? 200,
  });
  return { found: true, entity: r.entity, edges: edges.map(toResult) };
}

/** Which methods are evaluated on dataset (or task) D. */
export function evaluatedOn(db: Database, dataset: string, opts: QueryOptions = {}): Promise<EdgeAnswer> {
  return queryRelation(db, { ...opts, relation: "evaluates_on", target: dataset });
}

export type CooccurrenceAnswer =
  | { found: true; entity: EntityRef; cooccurring: (EntityRef & { papers: number })[] }
  | Extract<EntityResolution, { found: false }>;

/** Entities mentioned by the papers that mention X, most shared papers first. */
export async function coOccurring(db: Database, name: string, { limit = 20 } = {}): Promise<CooccurrenceAnswer> {
  const r = await resolveEntity(db, name);
  if (!r.found) return r;
  return { found: true, entity: r.entity, cooccurring: await findCooccurring(db, { rootId: r.entity.id, limit }) };
}

export interface EntityDetail {
  entity: EntityRef & { description: string | null };
  aliases: { name: string; tier: string | null; reason: string | null }[];
  /** Papers that mention it. */
  papers: number;
  /** Its edges by relation and direction ("out": it is the source), best first. */
  relations: { relation: GraphRelation; direction: "out" | "in"; edges: GraphEdgeResult[] }[];
  cooccurring: (EntityRef & { papers: number })[];
}

export type EntityAnswer = ({ found: true } & EntityDetail) | Extract<EntityResolution, { found: false }>;

/** Everything about one entity: aliases, relations grouped by type with papers and years, neighbours by papers. */
export async function lookupEntity(db: Database, name: string, opts: QueryOptions = {}): Promise<EntityAnswer> {
  const r = await resolveEntity(db, name);
  if (!r.found) return r;
  const id = r.entity.id;
  const [out, into, papers, cooccurring, row] = await Promise.all([
    findGraphEdges(db, { sourceRoots: [id], statuses: statuses(opts), limit: opts.limit ?? 200 }),
    findGraphEdges(db, { targetRoots: [id], statuses: statuses(opts), limit: opts.limit ?? 200 }),
    countEntityPapers(db, { rootId: id }),
    findCooccurring(db, { rootId: id, limit: 10 }),
    getEntityByCanonical(db, { canonicalName: canonicalName(r.entity.name) }),
  ]);
  const relations: EntityDetail["relations"] = [];
  for (const relation of RELATIONS) {
    const o = out.filter((e) => e.relation === relation).map(toResult);
    const i = into.filter((e) => e.relation === relation).map(toResult);
    if (o.length > 0) relations.push({ relation, direction: "out", edges: o });
    if (i.length > 0) relations.push({ relation, direction: "in", edges: i });
  }
  return {
    found: true,
    entity: { ...r.entity, description: row?.description ?? null },
    aliases: r.aliases,
    papers,
    relations,
    cooccurring,
  };
}

/** Edges of the whole graph (optionally of one relation), best first: for drawing it, exports, benchmarks. */
export async function listEdges(
  db: Database,
  opts: QueryOptions & { relation?: GraphRelation } = {},
): Promise<GraphEdgeResult[]> {
  const edges = await findGraphEdges(db, {
    relations: opts.relation ? [opts.relation] : undefined,
    statuses: statuses(opts),
    limit: opts.limit ?? 1000,
  });
  return edges.map(toResult);
}

export interface GraphStats extends GraphCounts {
  totals: { entities: number; aliases: number; edges: number; accepted: number; review: number; rejected: number };
}

export async function graphStats(db: Database): Promise<GraphStats> {
  const c = await getGraphCounts(db);
  const sum = (xs: { count: number }[]) => xs.reduce((s, x) => s + x.count, 0);
  const byStatus = (s: GraphEdgeStatus) => sum(c.edges.filter((e) => e.status === s));
  return {
    ...c,
    totals: {
      entities: sum(c.entities),
      aliases: sum(c.aliases),
      edges: sum(c.edges),
      accepted: byStatus("accepted"),
      review: byStatus("review"),
      rejected: byStatus("rejected"),
    },
  };
}
