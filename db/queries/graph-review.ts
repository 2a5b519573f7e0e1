import { sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";
import type { GraphAliasTier, GraphEdgeStatus, GraphEntityType } from "@/db/schema";

// What the knowledge graph's review queue reads (the writes are db/queries/graph.ts's: setEdgeStatus, unlinkAlias,
// decideAliasSuggestion).

/** An alias pair proposed for a person to confirm, with both entities' names and their groups' roots. */
export interface AliasSuggestionView {
  id: number;
  entity: { id: number; name: string; type: GraphEntityType };
  candidate: { id: number; name: string; type: GraphEntityType };
  similarity: number | null;
  reason: string;
}

/** Pending alias suggestions, most similar first. */
export async function listPendingAliasSuggestions(
  db: Database,
  { limit }: { limit: number },
): Promise<AliasSuggestionView[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select s.id, s.similarity, s.reason,
               e.id as entity_id, e.name as entity_name, e.type as entity_type,
               c.id as candidate_id, c.name as candidate_name, c.type as candidate_type
        from graph_alias_suggestions s
        join graph_entities e on e.id = s.entity_id
        join graph_entities c on c.id = s.candidate_id
        where s.status = 'pending'
        order by s.similarity desc nulls last, s.id
        limit ${limit}`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    entity: { id: Number(r.entity_id), name: String(r.entity_name), type: r.entity_type as GraphEntityType },
    candidate: {
      id: Number(r.candidate_id),
      name: String(r.candidate_name),
      type: r.candidate_type as GraphEntityType,
    },
    similarity: r.similarity === null ? null : Number(r.similarity),
    reason: String(r.reason),
  }));
}

/** An alias link in force: `entity` is an alias of `root`. */
export interface AliasLinkView {
  entity: { id: number; name: string; type: GraphEntityType };
  root: { id: number; name: string; type: GraphEntityType };
  tier: GraphAliasTier | null;
  reason: string | null;
}

/** Alias links, by their root's name (tier A first within a group). */
export async function listAliasLinks(db: Database, { limit }: { limit: number }): Promise<AliasLinkView[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select e.id, e.name, e.type, e.alias_tier, e.alias_reason, r.id as root_id, r.name as root_name,
               r.type as root_type
        from graph_entities e join graph_entities r on r.id = e.alias_of
        order by lower(r.name), r.id, e.alias_tier, lower(e.name)
        limit ${limit}`,
  );
  return rows.map((r) => ({
    entity: { id: Number(r.id), name: String(r.name), type: r.type as GraphEntityType },
    root: { id: Number(r.root_id), name: String(r.root_name), type: r.root_type as GraphEntityType },
    tier: (r.alias_tier as GraphAliasTier | null) ?? null,
    reason: (r.alias_reason as string | null) ?? null,
  }));
}

/** An edge's current status, or null when there is no such edge. */
export async function getEdgeStatus(db: Database, { id }: { id: number }): Promise<GraphEdgeStatus | null> {
  const rows = await queryRows<{ status: GraphEdgeStatus }>(db, sql`select status from graph_edges where id = ${id}`);
  return rows[0]?.status ?? null;
}

/** A suggestion's current status, or null when there is none. */
export async function getAliasSuggestionStatus(db: Database, { id }: { id: number }): Promise<string | null> {
  const rows = await queryRows<{ status: string }>(
    db,
    sql`select status from graph_alias_suggestions where id = ${id}`,
  );
  return rows[0]?.status ?? null;
}

/**
 * A suggestion's two entities as they stand now: the entity's own alias link (null for a root) and the root of the
 * candidate's group, with names. Null when there is no such suggestion.
 */
export async function getAliasSuggestionPair(
  db: Database,
  { id }: { id: number },
): Promise<{
  entity: { id: number; name: string; aliasOf: number | null; aliasOfName: string | null };
  candidateRoot: { id: number; name: string };
} | null> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select e.id as entity_id, e.name as entity_name, e.alias_of as entity_alias_of, ea.name as entity_alias_of_name,
               cr.id as candidate_root_id, cr.name as candidate_root_name
        from graph_alias_suggestions s
        join graph_entities e on e.id = s.entity_id
        left join graph_entities ea on ea.id = e.alias_of
        join graph_entities c on c.id = s.candidate_id
        join graph_entities cr on cr.id = coalesce(c.alias_of, c.id)
        where s.id = ${id}`,
  );
  const r = rows[0];
  if (!r) return null;
  return {
    entity: {
      id: Number(r.entity_id),
      name: String(r.entity_name),
      aliasOf: r.entity_alias_of === null ? null : Number(r.entity_alias_of),
      aliasOfName: r.entity_alias_of_name === null ? null : String(r.entity_alias_of_name),
    },
    candidateRoot: { id: Number(r.candidate_root_id), name: String(r.candidate_root_name) },
  };
}

/** Entity names (aliases too) for a search box's suggestions, with the root each one resolves to: at most `limit`. */
export async function listEntityNames(
  db: Database,
  { limit = 2000 }: { limit?: number } = {},
): Promise<{ name: string; type: GraphEntityType; rootName: string }[]> {
  // the names most papers mention, at most `limit` (what the search box suggests; any name can still be typed)
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select e.name, r.type, r.name as root_name
        from graph_entities e join graph_entities r on r.id = coalesce(e.alias_of, e.id)
        left join (select entity_id, count(*) as n from graph_mentions group by entity_id) m on m.entity_id = e.id
        order by coalesce(m.n, 0) desc, lower(e.name)
        limit ${limit}`,
  );
  return rows
    .map((r) => ({ name: String(r.name), type: r.type as GraphEntityType, rootName: String(r.root_name) }))
    .sort((a, b) =>
      a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0,
    );
}

/**
 * The entities of each type that most accepted edges touch (an alias's edges count for its root), at most `perType` of
 * each, with how many edges and papers: the graph's index, for browsing it without a name in mind.
 */
export async function listEntityIndex(
  db: Database,
  { perType = 12 }: { perType?: number } = {},
): Promise<{ name: string; type: GraphEntityType; edges: number; papers: number }[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`with ends as (
          select coalesce(s.alias_of, s.id) as root, e.paper_id from graph_edges e
            join graph_entities s on s.id = e.source_id where e.status = 'accepted'
          union all
          select coalesce(t.alias_of, t.id) as root, e.paper_id from graph_edges e
            join graph_entities t on t.id = e.target_id where e.status = 'accepted'
        ),
        degree as (
          select root, count(*) as edges, count(distinct paper_id) as papers from ends group by root
        ),
        ranked as (
          select r.name, r.type, d.edges, d.papers,
            row_number() over (partition by r.type order by d.edges desc, d.papers desc, lower(r.name)) as n
          from degree d join graph_entities r on r.id = d.root
        )
        select name, type, edges, papers from ranked where n <= ${perType} order by type, n`,
  );
  return rows.map((r) => ({
    name: String(r.name),
    type: r.type as GraphEntityType,
    edges: Number(r.edges),
    papers: Number(r.papers),
  }));
}
