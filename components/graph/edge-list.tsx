"use client";

import { type KeyboardEvent, useRef } from "react";
import { cn } from "@/components/ui/cn";
import { EdgeClaim } from "./edge-evidence";
import { formatConfidence, type PaperClaim } from "./filters";
import { RELATION_COLORS } from "./types";

/**
 * The claims drawn, as a list: one button each (its claim, paper, year, page, and how many times the paper states
 * it). Up/Down (and Home/End) move between them; Enter or a click selects one, whose evidence the panel shows.
 */
export function EdgeList({
  claims,
  selectedEdgeId,
  onSelect,
}: {
  claims: readonly PaperClaim[];
  selectedEdgeId: number | null;
  onSelect: (id: number) => void;
}) {
  const list = useRef<HTMLUListElement>(null);

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const buttons = [...(list.current?.querySelectorAll<HTMLButtonElement>("button[data-edge-id]") ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const go = (i: number) => {
      e.preventDefault();
      buttons[Math.max(0, Math.min(buttons.length - 1, i))]?.focus();
    };
    if (e.key === "ArrowDown") go(at + 1);
    else if (e.key === "ArrowUp") go(at - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(buttons.length - 1);
  };

  if (claims.length === 0) {
    return (
      <p className="text-muted-foreground text-sm" data-testid="edge-list-empty">
        No edge passes these filters.
      </p>
    );
  }
  return (
    <ul ref={list} aria-label="Edges" className="space-y-1" onKeyDown={onKeyDown} data-testid="edge-list">
      {claims.map(({ edge, others }) => {
        const selected = edge.id === selectedEdgeId;
        return (
          <li key={edge.id}>
            <button
              type="button"
              data-edge-id={edge.id}
              data-testid="edge-item"
              aria-pressed={selected}
              onClick={() => onSelect(edge.id)}
              className={cn(
                "w-full rounded-md border-l-4 px-2 py-1.5 text-left text-sm outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50",
                selected ? "bg-secondary" : "hover:bg-accent/60",
              )}
              style={{ borderLeftColor: RELATION_COLORS[edge.relation] }}
            >
              <EdgeClaim edge={edge} />
              <span className="block truncate text-muted-foreground text-xs">
                p. {edge.page}
                {others.length > 0 ? ` (stated ${others.length + 1} times)` : ""} · {formatConfidence(edge.confidence)}
                {edge.year !== null ? ` · ${edge.year}` : ""} · {edge.paper_title}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
