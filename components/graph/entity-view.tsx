import { ArrowLeftIcon, ExternalLinkIcon } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { entityHref, evidenceHref, formatConfidence, graphHref } from "./filters";
import {
  type GraphEdgeResult,
  type GraphEntityType,
  type GraphRelation,
  RELATION_COLORS,
  RELATION_LABELS,
} from "./types";

/** An entity page's content (lib/graph/query.ts `lookupEntity`). */
export interface EntityPageData {
  entity: { id: number; name: string; type: GraphEntityType; description: string | null };
  aliases: { name: string; tier: string | null; reason: string | null }[];
  papers: number;
  relations: { relation: GraphRelation; direction: "out" | "in"; edges: GraphEdgeResult[] }[];
  cooccurring: { id: number; name: string; type: GraphEntityType; papers: number }[];
}

const TIER_LABELS: Record<string, string> = {
  A: "tier A: same name, or an acronym a paper defines",
  B: "tier B: similar vectors and a shared acronym",
  manual: "confirmed in review",
};

/** "improves on" out of X reads "X improves on …"; into X, "… improves on X". */
function groupTitle(entity: string, relation: GraphRelation, direction: "out" | "in"): string {
  return direction === "out" ? `${entity} ${RELATION_LABELS[relation]} …` : `… ${RELATION_LABELS[relation]} ${entity}`;
}

function EdgeRow({ edge, direction }: { edge: GraphEdgeResult; direction: "out" | "in" }) {
  const other = direction === "out" ? edge.target : edge.source;
  return (
    <li className="rounded-md border px-3 py-2" data-testid="entity-edge">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <Link href={entityHref(other.name)} className="font-medium text-primary underline-offset-4 hover:underline">
          {other.name}
        </Link>
        <span className="text-muted-foreground text-xs">
          {edge.paper_title}
          {edge.year !== null ? ` · ${edge.year}` : ""} · p. {edge.page} · {formatConfidence(edge.confidence)}
        </span>
      </div>
      <blockquote className="mt-1 font-serif text-muted-foreground text-sm italic">“{edge.quote}”</blockquote>
      <Link
        href={evidenceHref(edge)}
        className="mt-1 inline-flex items-center gap-1 text-primary text-xs underline-offset-4 hover:underline"
        aria-label={`Open page ${edge.page} of “${edge.paper_title}” with the quote highlighted`}
        data-testid="entity-edge-open"
      >
        <ExternalLinkIcon className="size-3" aria-hidden />
        Open at page {edge.page}
      </Link>
    </li>
  );
}

/** An entity: its type, aliases (with tier), relations grouped by type with papers and years, co-occurring entities. */
export function EntityView({ data }: { data: EntityPageData }) {
  const { entity } = data;
  const years = data.relations.flatMap((g) => g.edges.flatMap((e) => (e.year === null ? [] : [e.year])));
  return (
    <article className="space-y-6" data-testid="entity-page">
      <Link
        href={graphHref(entity.name)}
        className="inline-flex items-center gap-1 text-muted-foreground text-sm hover:text-foreground"
      >
        <ArrowLeftIcon className="size-4" aria-hidden />
        Back to the graph
      </Link>
      <header className="space-y-1">
        <div className="flex flex-wrap items-baseline gap-3">
          <h1 className="font-semibold text-2xl tracking-tight" data-testid="entity-name">
            {entity.name}
          </h1>
          <Badge variant="secondary" data-testid="entity-type">
            {entity.type}
          </Badge>
        </div>
        {entity.description && <p className="text-sm">{entity.description}</p>}
        <p className="text-muted-foreground text-sm">
          Mentioned by {data.papers} {data.papers === 1 ? "paper" : "papers"}
          {years.length > 0 &&
            ` · claims from ${Math.min(...years)}${Math.max(...years) !== Math.min(...years) ? `–${Math.max(...years)}` : ""}`}
        </p>
      </header>

      <section aria-labelledby="entity-aliases" className="space-y-2">
        <h2 id="entity-aliases" className="font-medium text-sm">
          Aliases
        </h2>
        {data.aliases.length === 0 ? (
          <p className="text-muted-foreground text-sm">None.</p>
        ) : (
          <ul className="flex flex-wrap gap-2" data-testid="entity-aliases">
            {data.aliases.map((a) => (
              <li key={a.name} className="max-w-full">
                {/* the tier's words wrap on a narrow screen instead of widening the page */}
                <Badge
                  variant="outline"
                  title={a.reason ?? undefined}
                  className="max-w-full flex-wrap justify-start whitespace-normal"
                >
                  {a.name}
                  <span className="text-muted-foreground">
                    {a.tier ? (TIER_LABELS[a.tier] ?? `tier ${a.tier}`) : ""}
                  </span>
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="entity-relations" className="space-y-4">
        <h2 id="entity-relations" className="font-medium text-sm">
          Relations
        </h2>
        {data.relations.length === 0 && <p className="text-muted-foreground text-sm">No accepted edge yet.</p>}
        {data.relations.map((g) => (
          <section
            key={`${g.relation}-${g.direction}`}
            className="space-y-2"
            data-testid={`entity-group-${g.relation}-${g.direction}`}
          >
            <h3 className="flex items-center gap-2 font-medium text-sm">
              <span
                className="inline-block size-2.5 rounded-full"
                style={{ background: RELATION_COLORS[g.relation] }}
                aria-hidden
              />
              {groupTitle(entity.name, g.relation, g.direction)}
              <span className="font-normal text-muted-foreground">({g.edges.length})</span>
            </h3>
            <ul className="space-y-2">
              {g.edges.map((e) => (
                <EdgeRow key={e.id} edge={e} direction={g.direction} />
              ))}
            </ul>
          </section>
        ))}
      </section>

      <section aria-labelledby="entity-cooccurring" className="space-y-2">
        <h2 id="entity-cooccurring" className="font-medium text-sm">
          Mentioned in the same papers
        </h2>
        {data.cooccurring.length === 0 ? (
          <p className="text-muted-foreground text-sm">None.</p>
        ) : (
          <ul className="flex flex-wrap gap-2" data-testid="entity-cooccurring">
            {data.cooccurring.map((c) => (
              <li key={c.id}>
                <Link
                  href={entityHref(c.name)}
                  className="inline-flex items-center gap-1 rounded-md border px-2 py-0.5 text-sm hover:bg-accent/60"
                >
                  {c.name}
                  <span className="text-muted-foreground text-xs">
                    {c.type} · {c.papers} {c.papers === 1 ? "paper" : "papers"}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}
