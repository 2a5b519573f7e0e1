import "server-only";
import type { EntityName, EntitySearch, GraphSummary } from "@/components/graph/types";
import type { Database } from "@/db";
import { listEntityNames } from "@/db/queries/graph-review";
import { graphStats, listEdges, lookupEntity } from "@/lib/graph/query";

/** What /graph shows: the graph's size, the names the search box suggests, a few entities to start from. */
export async function loadGraphOverview(
  db: Database,
): Promise<{ summary: GraphSummary; names: EntityName[]; starters: string[] }> {
  const [stats, names, edges] = await Promise.all([
    graphStats(db),
    listEntityNames(db),
    listEdges(db, { limit: 1000 }),
  ]);
  const summary: GraphSummary = {
    entities: stats.totals.entities,
    edges: stats.totals.accepted,
    papers: stats.papers,
    review: stats.totals.review,
    pendingSuggestions: stats.pendingSuggestions,
  };
  // the entities most accepted edges touch
  const degree = new Map<string, number>();
  for (const e of edges) {
    for (const name of [e.source.name, e.target.name]) degree.set(name, (degree.get(name) ?? 0) + 1);
  }
  const starters = [...degree.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 8)
    .map(([name]) => name);
  return { summary, names, starters };
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
