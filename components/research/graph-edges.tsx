"use client";

import { ArrowRightIcon } from "lucide-react";
import { usePaperLinks } from "@/components/paper/paper-links";
import { cn } from "@/components/ui/cn";
import type { GraphEdgeChip } from "@/lib/research/steps/graph-search";
import { PaperChip } from "./paper-chip";

const RELATION_LABELS: Record<GraphEdgeChip["relation"], string> = {
  improves_on: "improves on",
  extends: "extends",
  uses: "uses",
  evaluates_on: "evaluated on",
  introduces: "introduces",
  compares_to: "compared with",
};

function EdgeChip({ edge }: { edge: GraphEdgeChip }) {
  const href = usePaperLinks().paperPage(edge.paperId, { page: edge.page, start: edge.charStart, end: edge.charEnd });
  const chipClass =
    "group flex max-w-full flex-wrap items-center gap-x-1.5 gap-y-0.5 rounded-md border border-violet-500/40 bg-violet-500/5 px-2.5 py-1.5 text-xs outline-none transition-colors";
  const through = edge.path && edge.path.length > 2 ? edge.path.slice(1, -1).join(" → ") : null;
  const content = (
    <>
      <span className="font-medium">{edge.source}</span>
      <span className="inline-flex items-center gap-0.5 text-violet-700 dark:text-violet-300">
        {RELATION_LABELS[edge.relation]}
        <ArrowRightIcon className="size-3" aria-hidden />
      </span>
      <span className="font-medium">{edge.target}</span>
      {through && <span className="text-muted-foreground">(through {through})</span>}
      <span className={cn("min-w-0 truncate text-muted-foreground", href && "group-hover:underline")}>
        · {edge.title || edge.paperId}
        {edge.year ? ` (${edge.year})` : ""}, p. {edge.page}
      </span>
    </>
  );
  const details = {
    // a share link leaves out the quotes of papers it does not open (lib/auth/share.ts)
    title: `${edge.quote ? `“${edge.quote}”\n` : ""}confidence ${Math.round(edge.confidence * 100)}%`,
    "data-testid": "graph-edge-chip",
    "data-relation": edge.relation,
    "data-paper-id": edge.paperId,
    "data-page": edge.page,
  };
  return (
    <PaperChip
      href={href}
      className={chipClass}
      aria-label={
        href
          ? `${edge.source} ${RELATION_LABELS[edge.relation]} ${edge.target}: open “${edge.quote.slice(0, 120)}” on page ${edge.page} of ${edge.title || edge.paperId}`
          : undefined
      }
      {...details}
    >
      {content}
    </PaperChip>
  );
}

/** The relations a graph_search step used, on its card: each a chip that opens its quote on the PDF page. */
export function GraphEdgeChips({ edges }: { edges: readonly GraphEdgeChip[] }) {
  if (edges.length === 0) return null;
  return (
    <div className="space-y-1.5">
      <h4 className="font-medium text-muted-foreground text-xs">
        {edges.length} {edges.length === 1 ? "relation" : "relations"} from the knowledge graph
      </h4>
      <ul className="flex flex-col gap-1.5" aria-label="Relations from the knowledge graph">
        {edges.map((e) => (
          <EdgeChip key={e.id} edge={e} />
        ))}
      </ul>
    </div>
  );
}
