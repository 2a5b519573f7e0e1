"use client";

import { ChevronDownIcon, FileTextIcon } from "lucide-react";
import { Popover } from "radix-ui";
import { useId, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { PaperOption } from "./types";

function label(selected: readonly string[], papers: readonly PaperOption[]): string {
  if (selected.length === 0) return "All papers";
  if (selected.length === 1) {
    const title = papers.find((p) => p.id === selected[0])?.title ?? selected[0] ?? "";
    return title.length > 28 ? `${title.slice(0, 27)}…` : title;
  }
  return `${selected.length} papers`;
}

/**
 * Chooses the papers to search within: a filterable list of checkboxes in a popover. The choice is reported when the
 * popover closes (so ticking several papers runs one search, not one per tick).
 */
export function PaperPicker({
  papers,
  selected,
  onChange,
  disabled,
}: {
  papers: readonly PaperOption[];
  selected: readonly string[];
  onChange: (ids: string[], applied: boolean) => void;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState("");
  const [initial, setInitial] = useState<readonly string[]>(selected);
  const listId = useId();

  // papers chosen by id (e.g. from a shared link) that are not in the library still show, so they can be removed
  const options = useMemo(() => {
    const known = new Set(papers.map((p) => p.id));
    const unknown = selected.filter((id) => !known.has(id)).map((id) => ({ id, title: id, year: null }));
    const all = [...unknown, ...[...papers].sort((a, b) => a.title.localeCompare(b.title))];
    const f = filter.trim().toLowerCase();
    return f ? all.filter((p) => p.title.toLowerCase().includes(f) || p.id.toLowerCase().includes(f)) : all;
  }, [papers, selected, filter]);

  const toggle = (id: string, on: boolean) => {
    const next = on ? [...selected, id] : selected.filter((s) => s !== id);
    onChange(next, false);
  };

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setInitial(selected);
          setFilter("");
        } else if (initial.join(",") !== selected.join(",")) {
          onChange([...selected], true);
        }
      }}
    >
      <Popover.Trigger asChild>
        <Button
          variant="outline"
          size="sm"
          disabled={disabled}
          className="max-w-64 justify-between font-normal"
          aria-label={`Papers to search: ${selected.length === 0 ? "all papers" : `${selected.length} chosen`}`}
          data-testid="paper-picker"
        >
          <FileTextIcon className="text-muted-foreground" aria-hidden />
          <span className="truncate">{label(selected, papers)}</span>
          <ChevronDownIcon className="opacity-50" aria-hidden />
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          className="data-[state=closed]:fade-out-0 data-[state=open]:fade-in-0 z-50 flex w-[min(24rem,calc(100vw-2rem))] flex-col rounded-md border bg-popover text-popover-foreground shadow-md data-[state=closed]:animate-out data-[state=open]:animate-in"
          data-testid="paper-picker-content"
        >
          <div className="border-b p-2">
            <Input
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              placeholder="Filter by title or id"
              aria-label="Filter the papers"
              aria-controls={listId}
              className="h-8"
            />
          </div>
          <fieldset id={listId} className="max-h-72 overflow-y-auto p-1">
            <legend className="sr-only">Papers to search within</legend>
            {options.length === 0 ? (
              <p className="px-2 py-3 text-center text-muted-foreground text-sm">
                {papers.length === 0 ? "No papers in the library yet." : "No paper matches."}
              </p>
            ) : (
              options.map((p) => (
                <label
                  key={p.id}
                  className="flex cursor-pointer items-start gap-2 rounded-sm px-2 py-1.5 text-sm hover:bg-accent has-focus-visible:bg-accent"
                  data-testid="paper-option"
                  data-paper-id={p.id}
                >
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 shrink-0 accent-primary outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
                    checked={selected.includes(p.id)}
                    onChange={(e) => toggle(p.id, e.target.checked)}
                  />
                  <span className="min-w-0 leading-snug">
                    {p.title}
                    {p.year !== null && <span className="ml-1.5 text-muted-foreground text-xs">{p.year}</span>}
                  </span>
                </label>
              ))
            )}
          </fieldset>
          <div className="flex items-center justify-between gap-2 border-t p-2">
            <span className="text-muted-foreground text-xs">
              {selected.length === 0 ? "Searching all papers" : `${selected.length} chosen`}
            </span>
            <div className="flex gap-1">
              <Button variant="ghost" size="sm" onClick={() => onChange([], false)} disabled={selected.length === 0}>
                Clear
              </Button>
              <Popover.Close asChild>
                <Button size="sm" data-testid="paper-picker-done">
                  Done
                </Button>
              </Popover.Close>
            </div>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
