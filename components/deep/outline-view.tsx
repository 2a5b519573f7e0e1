import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import type { Importance, Outline } from "@/lib/research/deep/types";
import { importanceLabels } from "./outline-state";

const importanceStyle: Record<Importance, string> = {
  high: "border-primary/30 bg-primary/10 text-primary",
  medium: "border-border bg-secondary text-secondary-foreground",
  low: "border-border text-muted-foreground",
};

export function yearsText(outline: Outline): string | null {
  const { year_from: from, year_to: to } = outline;
  if (from === undefined && to === undefined) return null;
  if (from !== undefined && to !== undefined) return from === to ? `${from}` : `${from}–${to}`;
  return from !== undefined ? `from ${from}` : `until ${to}`;
}

/** An outline as it ran: its title, years, and knowledge points with their keywords (read-only). */
export function OutlineView({ outline }: { outline: Outline }) {
  const years = yearsText(outline);
  return (
    <div className="space-y-3" data-testid="deep-outline">
      <div className="space-y-1">
        <p className="font-semibold leading-snug" data-testid="deep-outline-title">
          {outline.title}
        </p>
        <p className="text-muted-foreground text-xs">
          {outline.knowledge_points.length} knowledge {outline.knowledge_points.length === 1 ? "point" : "points"} ·{" "}
          {years ? `years: ${years}` : "all years"}
        </p>
      </div>
      <ol className="divide-y rounded-lg border">
        {outline.knowledge_points.map((p, i) => (
          <li
            key={p.id}
            className="flex gap-3 px-3 py-2.5"
            data-testid="deep-outline-point"
            data-point-id={p.id}
            data-importance={p.importance}
          >
            <span className="mt-0.5 w-4 shrink-0 text-right text-muted-foreground text-xs tabular-nums" aria-hidden>
              {i + 1}
            </span>
            <div className="min-w-0 flex-1 space-y-1.5">
              <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                <span className="font-medium text-sm" data-testid="deep-outline-topic">
                  {p.topic}
                </span>
                <span className="text-muted-foreground text-xs">{p.category}</span>
                <Badge variant="outline" className={cn("ml-auto font-normal", importanceStyle[p.importance])}>
                  <span className="sr-only">Importance: </span>
                  {importanceLabels[p.importance]}
                </Badge>
              </div>
              <ul className="flex flex-wrap gap-1" aria-label="Search keywords">
                {p.search_keywords.map((k) => (
                  <li key={k} className="rounded bg-muted px-1.5 py-px text-muted-foreground text-xs">
                    {k}
                  </li>
                ))}
              </ul>
            </div>
          </li>
        ))}
      </ol>
      {outline.search_strategy && (
        <p className="text-muted-foreground text-xs leading-relaxed">{outline.search_strategy}</p>
      )}
    </div>
  );
}
