import "server-only";
import type { EntityIndexEntry, EntityName, EntitySearch, GraphSummary } from "@/components/graph/types";
import type { Database } from "@/db";
import { listEntityIndex, listEntityNames } from "@/db/queries/graph-review";
import { graphStats, lookupEntity } from "@/lib/graph/query";

/**
 * What /graph shows: the graph's size, the names the search box suggests, a few entities to start from, and its index
 * (the most connected entities of each type).
 */
export async function loadGraphOverview(
  db: Database,
): Promise<{ summary: GraphSummary; names: EntityName[]; starters: string[]; index: EntityIndexEntry[] }> {
  const [stats, names, index] = await Promise.all([graphStats(db), listEntityNames(db), listEntityIndex(db)]);
  const summary: GraphSummary = {
    entities: stats.totals.entities,
    edges: stats.totals.accepted,
    papers: stats.papers,
    review: stats.totals.review,
    pendingSuggestions: stats.pendingSuggestions,
  };
  // the entities most accepted edges touch
  const starters = [...index]
    .sort((a, b) => b.edges - a.edges || a.name.localeCompare(b.name))
    .slice(0, 8)
    .map((e) => e.name);
  return { summary, names, starters, index };
}

/** An entity searched on /graph: its accepted edges both ways, or close names. */
export async function searchEntity(db: Database, name: string): Promise<EntitySearch> {
  const r = await lookupEntity(db, name);
  if (!r.found)
    return { found: false, name: r.name, suggestions: r.suggestions.map((s) => ({ name: s.name, type: s.type })) };
  return {
    found: true,
    entity: r.entity,
    aliases: r.aliases.map((a) => ({ name: a.name, tier: a.tier })),
    edges: r.relations.flatMap((g) => g.edges),
  };
}
