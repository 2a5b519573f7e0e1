import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";
import {
  chunks,
  type GraphAliasTier,
  type GraphEdgeStatus,
  type GraphEntityRow,
  type GraphEntityType,
  type GraphRelation,
  graphAliasSuggestions,
  graphEdges,
  graphEntities,
  graphMentions,
  graphPapers,
  pages,
  papers,
} from "@/db/schema";
import { sqlArray } from "@/db/sql";

// The knowledge graph's queries (lib/graph decides what to write; these only read and write rows).

// ---- reading papers for extraction ----------------------------------------------------------------------------------

export interface GraphPaperRow {
  id: string;
  title: string;
  abstract: string | null;
  year: number | null;
}

/** Ready papers (all, or those of `ids`), oldest first. */
export async function listGraphPapers(db: Database, { ids }: { ids?: string[] } = {}): Promise<GraphPaperRow[]> {
  if (ids && ids.length === 0) return [];
  return db
    .select({ id: papers.id, title: papers.title, abstract: papers.abstract, year: papers.year })
    .from(papers)
    .where(and(eq(papers.status, "ready"), ids ? inArray(papers.id, ids) : undefined))
    .orderBy(asc(papers.createdAt), asc(papers.id));
}

/** Ready papers whose graph was never built, or built from another version of the PDF (replaced). */
export async function listPapersNeedingGraph(db: Database): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select p.id from papers p left join graph_papers g on g.paper_id = p.id
        where p.status = 'ready' and (g.paper_id is null or g.doc_id <> p.doc_id)
        order by p.created_at, p.id`,
  );
  return rows.map((r) => r.id);
}

/** A paper's pages in order. */
export async function getGraphPages(
  db: Database,
  { paperId }: { paperId: string },
): Promise<{ pageNumber: number; text: string }[]> {
  return db
    .select({ pageNumber: pages.pageNumber, text: pages.text })
    .from(pages)
    .where(eq(pages.paperId, paperId))
    .orderBy(asc(pages.pageNumber));
}

/** The spans of a paper's page text that are its reference list (chunks flagged `bibliography`). */
export async function getBibliographySpans(
  db: Database,
  { paperId }: { paperId: string },
): Promise<{ page: number; start: number; end: number }[]> {
  return db
    .select({ page: chunks.pageNumber, start: chunks.charStart, end: chunks.charEnd })
    .from(chunks)
    .where(and(eq(chunks.paperId, paperId), eq(chunks.bibliography, true)));
}

// ---- writing a paper's part of the graph ----------------------------------------------------------------------------

export interface GraphEntityInput {
  name: string;
  canonicalName: string;
  type: GraphEntityType;
  description: string | null;
}

export interface GraphEdgeInput {
  source: string;
  target: string;
  relation: GraphRelation;
  page: number;
  quote: string;
  charStart: number;
  charEnd: number;
  confidence: number;
  status: GraphEdgeStatus;
  reason: string | null;
  extractor: string;
}

export interface GraphAliasInput {
  /** Canonical names: the alias and the entity it stands for. */
  alias: string;
  root: string;
  tier: GraphAliasTier;
  reason: string;
}

/**
 * Replaces one paper's edges and mentions in one transaction. Entities are keyed by canonical name (`source`,
 * `target`, `mentions[].canonicalName`, aliases): missing ones are inserted, existing ones keep their row (and type).
 * An edge a person reviewed (reviewed_at set) keeps its status and reason when the same claim — relation, entities,
 * page and offsets — is written again. Alias links are set only on entities not linked yet, never to themselves,
 * never for a pair a person rejected, and only to a root (one level). Returns how many edges were written.
 */

export async function replacePaperGraph(
  db: Database,
  input: {
    paperId: string;
    /** `rules` or the model's name, recorded with the paper. */
    extractor: string;
    entities: GraphEntityInput[];
    edges: GraphEdgeInput[];
    mentions: { canonicalName: string; page: number; count: number }[];
    aliases: GraphAliasInput[];
    /** Whether an entity's name as this paper writes it should replace the stored one (same canonical name). */
    betterName?: (written: string, stored: string) => boolean;
  },
): Promise<{ edges: number; entitiesCreated: number; aliasesLinked: number }> {
  return db.transaction(async (tx) => {
    const reviewed = await tx
      .select()
      .from(graphEdges)
      .where(and(eq(graphEdges.paperId, input.paperId), sql`${graphEdges.reviewedAt} is not null`));
    await tx.delete(graphEdges).where(eq(graphEdges.paperId, input.paperId));
    await tx.delete(graphMentions).where(eq(graphMentions.paperId, input.paperId));
    let entitiesCreated = 0;
    const ids = new Map<string, number>();
    const unique = [...new Map(input.entities.map((e) => [e.canonicalName, e])).values()];
    for (let i = 0; i < unique.length; i += 500) {
      const part = unique.slice(i, i + 500);
      const created = await tx
        .insert(graphEntities)
        .values(part)
        .onConflictDoNothing({ target: graphEntities.canonicalName })
        .returning({ id: graphEntities.id });
      entitiesCreated += created.length;
      const rows = await tx
        .select({
          id: graphEntities.id,
          canonicalName: graphEntities.canonicalName,
          name: graphEntities.name,
          description: graphEntities.description,
        })
        .from(graphEntities)
        .where(
          inArray(
            graphEntities.canonicalName,
            part.map((e) => e.canonicalName),
          ),
        );
      for (const r of rows) ids.set(r.canonicalName, r.id);
      // a description the text gives fills one the entity lacks
      for (const e of part) {
        const row = rows.find((r) => r.canonicalName === e.canonicalName);
        if (row && !row.description && e.description) {
          await tx.update(graphEntities).set({ description: e.description }).where(eq(graphEntities.id, row.id));
        }
        // the name as written here replaces the stored one when the caller says it is better (lib/graph: a name written
        // whole over one a PDF's text broke at its hyphen; the canonical name is the same)
        if (row && row.name !== e.name && input.betterName?.(e.name, row.name)) {
          await tx.update(graphEntities).set({ name: e.name }).where(eq(graphEntities.id, row.id));
        }
      }
    }
    const key = (e: { relation: string; sourceId: number; targetId: number; page: number; charStart: number }) =>
      `${e.relation}|${e.sourceId}|${e.targetId}|${e.page}|${e.charStart}`;
    const decided = new Map(reviewed.map((r) => [key(r), r]));
    const rows = input.edges.flatMap((e) => {
      const sourceId = ids.get(e.source);
      const targetId = ids.get(e.target);
      if (sourceId === undefined || targetId === undefined || sourceId === targetId) return [];
      const row = { ...e, sourceId, targetId, paperId: input.paperId };
      const before = decided.get(key(row));
      return [
        {
          sourceId,
          targetId,
          relation: e.relation,
          paperId: input.paperId,
          page: e.page,
          quote: e.quote,
          charStart: e.charStart,
          charEnd: e.charEnd,
          confidence: e.confidence,
          status: before?.status ?? e.status,
          reason: before ? before.reason : e.reason,
          extractor: e.extractor,
          reviewedAt: before?.reviewedAt ?? null,
        },
      ];
    });
    for (let i = 0; i < rows.length; i += 500) await tx.insert(graphEdges).values(rows.slice(i, i + 500));
    const mentionRows = [
      ...new Map(
        input.mentions.flatMap((m) => {
          const entityId = ids.get(m.canonicalName);
          return entityId === undefined
            ? []
            : [[entityId, { entityId, paperId: input.paperId, page: m.page, count: m.count }] as const];
        }),
      ).values(),
    ];
    for (let i = 0; i < mentionRows.length; i += 500)
      await tx.insert(graphMentions).values(mentionRows.slice(i, i + 500));
    let aliasesLinked = 0;
    for (const a of input.aliases) {
      const aliasId = ids.get(a.alias);
      const rootId = ids.get(a.root);
      if (aliasId === undefined || rootId === undefined || aliasId === rootId) continue;
      if (await linkAliasIn(tx, { entityId: aliasId, rootId, tier: a.tier, reason: a.reason })) aliasesLinked++;
    }
    await tx.execute(
      sql`insert into graph_papers (paper_id, doc_id, extractor, edges, built_at)
          select id, doc_id, ${input.extractor}, ${rows.length}, now() from papers where id = ${input.paperId}
          on conflict (paper_id) do update
          set doc_id = excluded.doc_id, extractor = excluded.extractor, edges = excluded.edges, built_at = now()`,
    );
    return { edges: rows.length, entitiesCreated, aliasesLinked };
  });
}

/**
 * Links `entityId` to `rootId`'s group, unless it is linked already, the pair was rejected by a person, or the link
 * would make a chain (the root is itself an alias: its own root is taken) or a loop. Entities linked to `entityId`
 * move with it to the root, so every group stays one level deep. True when a link was made.
 */
async function linkAliasIn(
  tx: Pick<Database, "select" | "update" | "execute">,
  a: { entityId: number; rootId: number; tier: GraphAliasTier; reason: string },
): Promise<boolean> {
  const [entity] = await tx.select().from(graphEntities).where(eq(graphEntities.id, a.entityId));
  const [rootRow] = await tx.select().from(graphEntities).where(eq(graphEntities.id, a.rootId));
  if (!entity || !rootRow || entity.aliasOf !== null) return false;
  const root = rootRow.aliasOf ?? rootRow.id;
  if (root === entity.id) return false;
  const rejected = await tx
    .select({ id: graphAliasSuggestions.id })
    .from(graphAliasSuggestions)
    .where(
      and(
        eq(graphAliasSuggestions.status, "rejected"),
        or(
          and(eq(graphAliasSuggestions.entityId, entity.id), eq(graphAliasSuggestions.candidateId, root)),
          and(eq(graphAliasSuggestions.entityId, root), eq(graphAliasSuggestions.candidateId, entity.id)),
        ),
      ),
    );
  if (rejected.length > 0) return false;
  await tx
    .update(graphEntities)
    .set({ aliasOf: root, aliasTier: a.tier, aliasReason: a.reason })
    .where(or(eq(graphEntities.id, entity.id), eq(graphEntities.aliasOf, entity.id)));
  return true;
}

/** Links an entity to another's group (see linkAliasIn). */
export async function linkAlias(
  db: Database,
  a: { entityId: number; rootId: number; tier: GraphAliasTier; reason: string },
): Promise<boolean> {
  return db.transaction((tx) => linkAliasIn(tx, a));
}

/**
 * Undoes an alias link (a person "splits" it): the entity stands alone again, and the pair is recorded as rejected so
 * no later build links it again. False when it was not linked.
 */
export async function unlinkAlias(db: Database, { entityId }: { entityId: number }): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [e] = await tx.select().from(graphEntities).where(eq(graphEntities.id, entityId));
    if (!e || e.aliasOf === null) return false;
    await tx
      .update(graphEntities)
      .set({ aliasOf: null, aliasTier: null, aliasReason: null })
      .where(eq(graphEntities.id, entityId));
    await tx
      .insert(graphAliasSuggestions)
      .values({ entityId, candidateId: e.aliasOf, reason: "split in review", status: "rejected" })
      .onConflictDoUpdate({
        target: [graphAliasSuggestions.entityId, graphAliasSuggestions.candidateId],
        set: { status: "rejected" },
      });
    return true;
  });
}

/** Proposes alias pairs for review; a pair already proposed or decided is left as it is. */
export async function addAliasSuggestions(
  db: Database,
  rows: { entityId: number; candidateId: number; similarity: number | null; reason: string }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const r = await db
    .insert(graphAliasSuggestions)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: graphAliasSuggestions.id });
  return r.length;
}

/** Every proposed alias pair, whatever its status. */
export async function listAliasSuggestionPairs(db: Database): Promise<{ entityId: number; candidateId: number }[]> {
  return db
    .select({ entityId: graphAliasSuggestions.entityId, candidateId: graphAliasSuggestions.candidateId })
    .from(graphAliasSuggestions);
}

/** Deletes proposed alias pairs still pending (a decided one stays); how many went. */
export async function deletePendingAliasSuggestions(db: Database, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await db
    .delete(graphAliasSuggestions)
    .where(and(inArray(graphAliasSuggestions.id, [...ids]), eq(graphAliasSuggestions.status, "pending")))
    .returning({ id: graphAliasSuggestions.id });
  return r.length;
}

/** Decides a proposed alias pair: accepted links it (manual tier), rejected keeps them apart for good. */
export async function decideAliasSuggestion(
  db: Database,
  { id, status }: { id: number; status: "accepted" | "rejected" },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [s] = await tx
      .update(graphAliasSuggestions)
      .set({ status })
      .where(eq(graphAliasSuggestions.id, id))
      .returning();
    if (!s) return false;
    if (status === "accepted") {
      await linkAliasIn(tx, {
        entityId: s.entityId,
        rootId: s.candidateId,
        tier: "manual",
        reason: "confirmed in review",
      });
    }
    return true;
  });
}

/** Accepts or rejects an edge in review (it keeps that decision when its paper is extracted again). */
export async function setEdgeStatus(
  db: Database,
  { id, status, reason }: { id: number; status: GraphEdgeStatus; reason: string | null },
): Promise<boolean> {
  const r = await db
    .update(graphEdges)
    .set({ status, reason, reviewedAt: new Date() })
    .where(eq(graphEdges.id, id))
    .returning({ id: graphEdges.id });
  return r.length > 0;
}

/**
 * Deletes entities no edge uses: an entity stays while an edge touches any member of its alias group (the root with
 * its aliases). Returns how many went.
 */
export async function pruneOrphanEntities(db: Database): Promise<number> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`with live as (
          select distinct coalesce(e.alias_of, e.id) as root from graph_entities e
          where exists (select 1 from graph_edges g where g.source_id = e.id or g.target_id = e.id)
        )
        delete from graph_entities x where coalesce(x.alias_of, x.id) not in (select root from live)
        returning x.id`,
  );
  return rows.length;
}

// ---- embeddings ----------------------------------------------------------------------------------------------------

/** The dimension of graph_entities.embedding as the table has it now. */
export async function getEntityEmbeddingDimensions(db: Database): Promise<number> {
  const rows = await queryRows<{ dims: number }>(
    db,
    sql`select atttypmod as dims from pg_attribute where attrelid = 'graph_entities'::regclass and attname = 'embedding'`,
  );
  return Number(rows[0]?.dims ?? 0);
}

/** Changes graph_entities.embedding to `dimensions` (clearing the vectors): it follows the library's embedder. */
export async function resizeEntityEmbeddings(db: Database, { dimensions }: { dimensions: number }): Promise<void> {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 16000) {
    throw new Error(`Invalid embedding dimension: ${dimensions}`);
  }
  await db.transaction(async (tx) => {
    await tx.execute(sql`update graph_entities set embedding = null`);
    await tx.execute(sql.raw(`alter table graph_entities alter column embedding type vector(${dimensions})`));
  });
}

export async function listEntitiesWithoutEmbedding(
  db: Database,
): Promise<{ id: number; name: string; description: string | null }[]> {
  return db
    .select({ id: graphEntities.id, name: graphEntities.name, description: graphEntities.description })
    .from(graphEntities)
    .where(isNull(graphEntities.embedding));
}

/** Sets entities' vectors, one statement per 200. */
export async function setEntityEmbeddings(db: Database, rows: { id: number; embedding: number[] }[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    const part = rows.slice(i, i + 200);
    const values = sql.join(
      part.map((r) => sql`(${r.id}::int, ${JSON.stringify(r.embedding)}::vector)`),
      sql`, `,
    );
    await db.execute(
      sql`update graph_entities g set embedding = v.e from (values ${values}) as v(id, e) where g.id = v.id`,
    );
  }
}

// ---- reading the graph ---------------------------------------------------------------------------------------------

export type GraphEntityBrief = Pick<
  GraphEntityRow,
  "id" | "name" | "canonicalName" | "type" | "description" | "aliasOf" | "aliasTier" | "aliasReason"
>;

const briefColumns = {
  id: graphEntities.id,
  name: graphEntities.name,
  canonicalName: graphEntities.canonicalName,
  type: graphEntities.type,
  description: graphEntities.description,
  aliasOf: graphEntities.aliasOf,
  aliasTier: graphEntities.aliasTier,
  aliasReason: graphEntities.aliasReason,
};

/** Every entity, without vectors (names for lookup and suggestions). */
export async function listGraphEntities(db: Database): Promise<GraphEntityBrief[]> {
  return db.select(briefColumns).from(graphEntities).orderBy(asc(graphEntities.id));
}

/** Entities with their vectors (entity resolution). */
export async function listEntityEmbeddings(
  db: Database,
): Promise<(GraphEntityBrief & { embedding: number[] | null })[]> {
  return db
    .select({ ...briefColumns, embedding: graphEntities.embedding })
    .from(graphEntities)
    .orderBy(asc(graphEntities.id));
}

export async function getEntityByCanonical(
  db: Database,
  { canonicalName }: { canonicalName: string },
): Promise<GraphEntityBrief | null> {
  const [row] = await db.select(briefColumns).from(graphEntities).where(eq(graphEntities.canonicalName, canonicalName));
  return row ?? null;
}

/** The members of the alias group rooted at `rootId` (the root first). */
export async function getAliasGroup(db: Database, { rootId }: { rootId: number }): Promise<GraphEntityBrief[]> {
  return db
    .select(briefColumns)
    .from(graphEntities)
    .where(or(eq(graphEntities.id, rootId), eq(graphEntities.aliasOf, rootId)))
    .orderBy(sql`${graphEntities.aliasOf} nulls first`, asc(graphEntities.id));
}

/** An edge as queries return it: both ends resolved to their group's root (the name as written kept too). */
export interface GraphEdgeView {
  id: number;
  relation: GraphRelation;
  sourceId: number;
  sourceName: string;
  sourceType: GraphEntityType;
  sourceWritten: string;
  targetId: number;
  targetName: string;
  targetType: GraphEntityType;
  targetWritten: string;
  paperId: string;
  paperTitle: string;
  year: number | null;
  page: number;
  quote: string;
  charStart: number;
  charEnd: number;
  confidence: number;
  status: GraphEdgeStatus;
  reason: string | null;
  extractor: string;
}

/**
 * Edges by the root ids of their ends: `targetRoots` (edges into those groups) and/or `sourceRoots` (out of them),
 * of `relations` and `statuses`, best first (confidence, then newest paper). Ends are resolved through alias_of.
 */
export async function findGraphEdges(
  db: Database,
  q: {
    sourceRoots?: number[];
    targetRoots?: number[];
    relations?: GraphRelation[];
    statuses: GraphEdgeStatus[];
    paperIds?: string[];
    limit?: number;
  },
): Promise<GraphEdgeView[]> {
  const where = [sql`g.status = any(${sqlArray(q.statuses, "text")})`];
  if (q.relations) where.push(sql`g.relation = any(${sqlArray(q.relations, "text")})`);
  if (q.sourceRoots) where.push(sql`coalesce(s.alias_of, s.id) = any(${sqlArray(q.sourceRoots, "int")})`);
  if (q.targetRoots) where.push(sql`coalesce(t.alias_of, t.id) = any(${sqlArray(q.targetRoots, "int")})`);
  if (q.paperIds) where.push(sql`g.paper_id = any(${sqlArray(q.paperIds, "text")})`);
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select g.id, g.relation, sr.id as source_id, sr.name as source_name, sr.type as source_type,
               s.name as source_written, tr.id as target_id, tr.name as target_name, tr.type as target_type,
               t.name as target_written, g.paper_id, p.title as paper_title, p.year, g.page, g.quote,
               g.char_start, g.char_end, g.confidence, g.status, g.reason, g.extractor
        from graph_edges g
        join graph_entities s on s.id = g.source_id
        join graph_entities sr on sr.id = coalesce(s.alias_of, s.id)
        join graph_entities t on t.id = g.target_id
        join graph_entities tr on tr.id = coalesce(t.alias_of, t.id)
        join papers p on p.id = g.paper_id
        where ${sql.join(where, sql` and `)}
        order by g.confidence desc, p.year desc nulls last, g.id
        limit ${q.limit ?? 500}`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    relation: r.relation as GraphRelation,
    sourceId: Number(r.source_id),
    sourceName: String(r.source_name),
    sourceType: r.source_type as GraphEntityType,
    sourceWritten: String(r.source_written),
    targetId: Number(r.target_id),
    targetName: String(r.target_name),
    targetType: r.target_type as GraphEntityType,
    targetWritten: String(r.target_written),
    paperId: String(r.paper_id),
    paperTitle: String(r.paper_title),
    year: r.year === null ? null : Number(r.year),
    page: Number(r.page),
    quote: String(r.quote),
    charStart: Number(r.char_start),
    charEnd: Number(r.char_end),
    confidence: Number(r.confidence),
    status: r.status as GraphEdgeStatus,
    reason: (r.reason as string | null) ?? null,
    extractor: String(r.extractor),
  }));
}

/** Entities mentioned by the same papers as the group of `rootId`, most shared papers first (roots, resolved). */
export async function findCooccurring(
  db: Database,
  { rootId, limit }: { rootId: number; limit: number },
): Promise<{ id: number; name: string; type: GraphEntityType; papers: number }[]> {
  const rows = await queryRows<{ id: number; name: string; type: GraphEntityType; papers: number }>(
    db,
    sql`with mine as (
          select distinct m.paper_id from graph_mentions m join graph_entities e on e.id = m.entity_id
          where coalesce(e.alias_of, e.id) = ${rootId}
        )
        select r.id, r.name, r.type, count(distinct m.paper_id)::int as papers
        from graph_mentions m
        join mine on mine.paper_id = m.paper_id
        join graph_entities e on e.id = m.entity_id
        join graph_entities r on r.id = coalesce(e.alias_of, e.id)
        where r.id <> ${rootId}
        group by r.id, r.name, r.type
        order by papers desc, r.name
        limit ${limit}`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), papers: Number(r.papers) }));
}

/** Papers that mention the group of `rootId`. */
export async function countEntityPapers(db: Database, { rootId }: { rootId: number }): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select count(distinct m.paper_id)::int as n from graph_mentions m join graph_entities e on e.id = m.entity_id
        where coalesce(e.alias_of, e.id) = ${rootId}`,
  );
  return Number(rows[0]?.n ?? 0);
}

export interface GraphCounts {
  entities: { type: GraphEntityType; count: number }[];
  aliases: { tier: GraphAliasTier; count: number }[];
  edges: { relation: GraphRelation; status: GraphEdgeStatus; count: number }[];
  extractors: { extractor: string; count: number }[];
  papers: number;
  pendingSuggestions: number;
}

export async function getGraphCounts(db: Database): Promise<GraphCounts> {
  const [entities, aliases, edges, extractors, paperRows, pending] = await Promise.all([
    queryRows<{ type: GraphEntityType; count: number }>(
      db,
      sql`select type, count(*)::int as count from graph_entities where alias_of is null group by type order by type`,
    ),
    queryRows<{ tier: GraphAliasTier; count: number }>(
      db,
      sql`select alias_tier as tier, count(*)::int as count from graph_entities where alias_of is not null
          group by alias_tier order by alias_tier`,
    ),
    queryRows<{ relation: GraphRelation; status: GraphEdgeStatus; count: number }>(
      db,
      sql`select relation, status, count(*)::int as count from graph_edges group by relation, status
          order by relation, status`,
    ),
    queryRows<{ extractor: string; count: number }>(
      db,
      sql`select extractor, count(*)::int as count from graph_edges group by extractor order by extractor`,
    ),
    queryRows<{ n: number }>(db, sql`select count(distinct paper_id)::int as n from graph_edges`),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from graph_alias_suggestions where status = 'pending'`),
  ]);
  const num = <T extends { count: number }>(rows: T[]) => rows.map((r) => ({ ...r, count: Number(r.count) }));
  return {
    entities: num(entities),
    aliases: num(aliases),
    edges: num(edges),
    extractors: num(extractors),
    papers: Number(paperRows[0]?.n ?? 0),
    pendingSuggestions: Number(pending[0]?.n ?? 0),
  };
}

/** Empties the graph (edges, mentions, entities, suggestions): a benchmark's fresh start, or a full rebuild. */
export async function clearGraph(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(graphEdges);
    await tx.delete(graphMentions);
    await tx.delete(graphAliasSuggestions);
    await tx.delete(graphEntities);
    await tx.delete(graphPapers);
  });
}

/** Every edge of some statuses with its page text (checking that quotes are where they say). */
export async function listEdgesWithPages(
  db: Database,
  { statuses }: { statuses: GraphEdgeStatus[] },
): Promise<
  {
    id: number;
    paperId: string;
    page: number;
    quote: string;
    charStart: number;
    charEnd: number;
    pageText: string | null;
  }[]
> {
  return queryRows(
    db,
    sql`select g.id, g.paper_id as "paperId", g.page, g.quote, g.char_start as "charStart", g.char_end as "charEnd",
               p.text as "pageText"
        from graph_edges g left join pages p on p.paper_id = g.paper_id and p.page_number = g.page
        where g.status = any(${sqlArray(statuses, "text")})
        order by g.id`,
  );
}
