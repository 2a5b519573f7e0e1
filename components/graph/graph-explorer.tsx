"use client";

import { ClipboardCheckIcon, NetworkIcon, SearchIcon } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useId, useMemo, useRef, useState, useTransition } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { useHydrated } from "@/components/ui/use-hydrated";
import { useSlashToFocus } from "@/components/ui/use-slash-to-focus";
import { EdgeEvidence } from "./edge-evidence";
import { EdgeList } from "./edge-list";
import {
  defaultFilters,
  entityHref,
  filterEdges,
  type GraphFilters,
  graphHref,
  paperClaims,
  parseYear,
  yearSpan,
} from "./filters";
import { GraphCanvas } from "./graph-canvas";
import {
  type EntityIndexEntry,
  type EntityName,
  type EntitySearch,
  type GraphSummary,
  RELATION_COLORS,
  RELATION_LABELS,
  RELATION_ORDER,
  TYPE_ORDER,
} from "./types";

/** "1 paper", "2 papers". */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** One end of the year range: a small numeric field with its label above. */
function YearInput(props: {
  id: string;
  label: string;
  value: string;
  placeholder: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={props.id} className="block text-muted-foreground text-xs">
        {props.label}
      </label>
      <Input
        id={props.id}
        inputMode="numeric"
        className="h-8 w-20"
        value={props.value}
        placeholder={props.placeholder}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.testId}
      />
    </div>
  );
}

function EntitySearchForm({
  query,
  names,
  pending,
  onSearch,
}: {
  query: string;
  names: readonly EntityName[];
  pending: boolean;
  onSearch: (name: string) => void;
}) {
  const [value, setValue] = useState(query);
  const input = useRef<HTMLInputElement>(null);
  const ids = { input: useId(), list: useId(), hint: useId() };
  useSlashToFocus(input);
  const hydrated = useHydrated();
  useEffect(() => setValue(query), [query]);
  // suggestions as the person types: names starting with the text first, then names containing it
  const suggestions = useMemo(() => {
    const t = value.trim().toLowerCase();
    if (!t) return names.slice(0, 0);
    const starts = names.filter((n) => n.name.toLowerCase().startsWith(t));
    const contains = names.filter((n) => !n.name.toLowerCase().startsWith(t) && n.name.toLowerCase().includes(t));
    return [...starts, ...contains].slice(0, 12);
  }, [names, value]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const name = value.trim();
    if (name) onSearch(name);
  };
  return (
    <form role="search" onSubmit={submit} className="space-y-1" data-testid="graph-search">
      <label htmlFor={ids.input} className="block font-medium text-muted-foreground text-xs">
        Entity (a method, model, dataset, metric, task or concept)
      </label>
      {/* the button beside the field, not beside the field and its hint */}
      <div className="flex flex-wrap gap-2">
        <Input
          ref={input}
          id={ids.input}
          type="search"
          list={ids.list}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder="e.g. BERT"
          autoComplete="off"
          aria-describedby={ids.hint}
          maxLength={200}
          className="min-w-64 flex-1"
          data-testid="graph-search-input"
          data-hydrated={hydrated || undefined}
          autoFocus={!query}
        />
        <Button type="submit" disabled={pending || !value.trim()} data-testid="graph-search-submit">
          <SearchIcon aria-hidden />
          Show
        </Button>
      </div>
      <datalist id={ids.list} data-testid="graph-search-suggestions">
        {suggestions.map((n) => (
          <option key={`${n.name}\u0000${n.rootName}`} value={n.name}>
            {n.name === n.rootName ? n.type : `${n.type}, alias of ${n.rootName}`}
          </option>
        ))}
      </datalist>
      <p id={ids.hint} className="text-muted-foreground text-xs">
        Enter searches; suggestions come from the graph’s entity names and aliases. Press / to come back here.
      </p>
    </form>
  );
}

function Filters({
  filters,
  years,
  onChange,
}: {
  filters: GraphFilters;
  years: { min: number; max: number } | null;
  onChange: (f: GraphFilters) => void;
}) {
  const ids = { from: useId(), to: useId(), confidence: useId() };
  const [yearText, setYearText] = useState({ from: "", to: "" });
  const toggle = (r: (typeof RELATION_ORDER)[number]) => {
    const next = new Set(filters.relations);
    if (next.has(r)) next.delete(r);
    else next.add(r);
    onChange({ ...filters, relations: next });
  };
  const setYear = (side: "from" | "to", text: string) => {
    setYearText((t) => ({ ...t, [side]: text }));
    onChange({ ...filters, [side === "from" ? "yearFrom" : "yearTo"]: parseYear(text) });
  };
  return (
    <fieldset
      className="flex flex-wrap items-end gap-x-5 gap-y-3 rounded-lg border px-3 py-2"
      data-testid="graph-filters"
    >
      <legend className="px-1 font-medium text-muted-foreground text-xs">Filters</legend>
      <div className="flex flex-wrap gap-x-3 gap-y-1" role="group" aria-label="Relations">
        {RELATION_ORDER.map((r) => (
          <label key={r} className="flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              checked={filters.relations.has(r)}
              onChange={() => toggle(r)}
              className="size-4 accent-primary"
              data-testid={`filter-relation-${r}`}
            />
            <span
              className="inline-block size-2.5 rounded-full"
              style={{ background: RELATION_COLORS[r] }}
              aria-hidden
            />
            {RELATION_LABELS[r]}
          </label>
        ))}
      </div>
      <div className="flex items-end gap-2">
        <YearInput
          id={ids.from}
          label="From year"
          value={yearText.from}
          placeholder={years ? String(years.min) : ""}
          onChange={(v) => setYear("from", v)}
          testId="filter-year-from"
        />
        <YearInput
          id={ids.to}
          label="To year"
          value={yearText.to}
          placeholder={years ? String(years.max) : ""}
          onChange={(v) => setYear("to", v)}
          testId="filter-year-to"
        />
      </div>
      <div className="space-y-1">
        <label htmlFor={ids.confidence} className="block text-muted-foreground text-xs">
          Minimum confidence: {Math.round(filters.minConfidence * 100)}%
        </label>
        <input
          id={ids.confidence}
          type="range"
          min={0}
          max={100}
          step={5}
          value={Math.round(filters.minConfidence * 100)}
          onChange={(e) => onChange({ ...filters, minConfidence: Number(e.target.value) / 100 })}
          className="w-40 accent-primary"
          data-testid="filter-confidence"
        />
      </div>
    </fieldset>
  );
}

function Neighbourhood({
  search,
  onOpenEntity,
}: {
  search: Extract<EntitySearch, { found: true }>;
  onOpenEntity: (name: string) => void;
}) {
  const [filters, setFilters] = useState<GraphFilters>(() => defaultFilters(RELATION_ORDER));
  const [selected, setSelected] = useState<number | null>(null);
  const shown = useMemo(() => filterEdges(search.edges, filters), [search.edges, filters]);
  // a claim a paper makes on several pages is one line, its other quotes under its evidence
  const claims = useMemo(() => paperClaims(shown), [shown]);
  const years = useMemo(() => yearSpan(search.edges), [search.edges]);
  const selectedClaim = claims.find((c) => c.edge.id === selected);
  const { entity } = search;

  return (
    <section aria-labelledby="graph-entity-name" className="space-y-4" data-testid="graph-entity">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 id="graph-entity-name" className="font-semibold text-xl" data-testid="graph-entity-name">
          {entity.name}
        </h2>
        <Badge variant="secondary">{entity.type}</Badge>
        {search.aliases.length > 0 && (
          <span className="text-muted-foreground text-sm">also {search.aliases.map((a) => a.name).join(", ")}</span>
        )}
        <Link
          href={entityHref(entity.name)}
          className="text-primary text-sm underline-offset-4 hover:underline"
          data-testid="graph-entity-page-link"
        >
          Entity page
        </Link>
      </div>
      {entity.description && <p className="text-muted-foreground text-sm">{entity.description}</p>}
      {search.edges.length === 0 ? (
        <p className="text-muted-foreground text-sm">No accepted edge touches {entity.name} yet.</p>
      ) : (
        <>
          <Filters filters={filters} years={years} onChange={setFilters} />
          <p className="text-muted-foreground text-xs" aria-live="polite" data-testid="graph-shown-count">
            {claims.length} {claims.length === 1 ? "claim" : "claims"} ({shown.length} of {search.edges.length} edges)
            shown. Click a line, or choose a claim in the list, to see its evidence; click another entity to center the
            drawing on it.
          </p>
          <div className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
            <GraphCanvas
              center={entity}
              edges={claims.map((c) => c.edge)}
              selectedEdgeId={selected}
              onSelectEdge={setSelected}
              onOpenEntity={onOpenEntity}
            />
            <div className="space-y-4">
              <div className="rounded-lg border p-3" aria-live="polite">
                {selectedClaim ? (
                  <EdgeEvidence edge={selectedClaim.edge} others={selectedClaim.others} />
                ) : (
                  <p className="text-muted-foreground text-sm" data-testid="edge-evidence-empty">
                    Choose an edge to see the quote that states it.
                  </p>
                )}
              </div>
              <div className="max-h-[28rem] overflow-y-auto pr-1">
                <EdgeList claims={claims} selectedEdgeId={selected} onSelect={setSelected} />
              </div>
            </div>
          </div>
        </>
      )}
    </section>
  );
}

function EmptyGraph() {
  return (
    <section
      className="mx-auto mt-8 max-w-xl space-y-3 rounded-xl border border-dashed px-6 py-10 text-center"
      data-testid="graph-empty"
    >
      <NetworkIcon className="mx-auto size-10 text-muted-foreground" aria-hidden />
      <h2 className="font-semibold text-lg">The knowledge graph is empty</h2>
      <p className="text-muted-foreground text-sm">
        It is built after ingestion, from claims the papers state themselves (“X outperforms Y”, “we use Z”, “evaluated
        on D”), each with the quote and page it comes from. Add papers to the library and it fills in; a library
        ingested before the graph existed can be built with{" "}
        <code className="rounded bg-muted px-1">npm run cli -- graph build</code>.
      </p>
      <Button asChild variant="outline">
        <Link href="/">Go to the library</Link>
      </Button>
    </section>
  );
}

/** The graph's index: per type, the entities most accepted edges touch, each a link to its neighbourhood. */
function EntityIndex({ index }: { index: readonly EntityIndexEntry[] }) {
  const groups = TYPE_ORDER.map((type) => ({ type, entries: index.filter((e) => e.type === type) })).filter(
    (g) => g.entries.length > 0,
  );
  return (
    <section aria-labelledby="graph-index-heading" className="space-y-3" data-testid="graph-index">
      <h2 id="graph-index-heading" className="font-medium text-sm">
        Most connected, by type
      </h2>
      <div className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,15rem),1fr))] gap-x-6 gap-y-4">
        {groups.map((g) => (
          <div key={g.type} data-testid="graph-index-type" data-type={g.type}>
            <h3 className="mb-1 text-muted-foreground text-xs uppercase tracking-wide">{g.type}s</h3>
            <ul className="space-y-0.5 text-sm">
              {g.entries.map((e) => (
                <li key={e.name} className="flex min-w-0 items-baseline justify-between gap-2">
                  <Link
                    href={graphHref(e.name)}
                    className="truncate text-primary underline-offset-4 hover:underline"
                    title={e.name}
                    data-testid="graph-index-entity"
                  >
                    {e.name}
                  </Link>
                  <span className="shrink-0 text-muted-foreground text-xs tabular-nums">
                    {e.edges} {e.edges === 1 ? "edge" : "edges"} · {e.papers} {e.papers === 1 ? "paper" : "papers"}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}

/**
 * /graph: search an entity, see its neighbourhood drawn and listed, filter it, read an edge's evidence and open it in
 * the PDF. The server resolves the name (`?q=`); an unknown one gets close names as links; with no name asked for, the graph's index
 * (`EntityIndex`) is shown.
 */
export function GraphExplorer({
  query,
  search,
  names,
  summary,
  starters,
  index = [],
}: {
  query: string;
  search: EntitySearch | null;
  names: readonly EntityName[];
  summary: GraphSummary;
  /** A few well-connected entities to start from. */
  starters: readonly string[];
  /** The most connected entities of each type, to browse when no entity is asked for. */
  index?: readonly EntityIndexEntry[];
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const go = (name: string) => startTransition(() => router.push(graphHref(name)));

  return (
    <div className="space-y-6" data-testid="graph-page">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-semibold text-2xl tracking-tight">Knowledge graph</h1>
          <p className="text-muted-foreground text-sm" data-testid="graph-summary">
            {summary.edges === 0
              ? "No claims yet."
              : `${count(summary.entities, "entity", "entities")}, ${count(summary.edges, "accepted edge", "accepted edges")} from ${count(summary.papers, "paper", "papers")} — each with the quote that states it.`}
          </p>
        </div>
        <Button asChild variant="outline" size="sm">
          <Link href="/graph/review" data-testid="graph-review-link">
            <ClipboardCheckIcon aria-hidden />
            Review queue
            {summary.review + summary.pendingSuggestions > 0 && (
              <Badge variant="warning">{summary.review + summary.pendingSuggestions}</Badge>
            )}
          </Link>
        </Button>
      </header>
      {summary.entities === 0 && summary.review === 0 ? (
        <EmptyGraph />
      ) : (
        <>
          <EntitySearchForm query={query} names={names} pending={pending} onSearch={go} />
          {search === null && starters.length > 0 && (
            <p className="text-sm" data-testid="graph-starters">
              <span className="text-muted-foreground">Try: </span>
              {starters.map((name, i) => (
                <span key={name}>
                  {i > 0 && ", "}
                  <Link href={graphHref(name)} className="text-primary underline-offset-4 hover:underline">
                    {name}
                  </Link>
                </span>
              ))}
            </p>
          )}
          {search && !search.found && (
            <div
              role="alert"
              className="rounded-lg border border-warning/40 bg-warning/5 p-3 text-sm"
              data-testid="graph-not-found"
            >
              <p>No entity named “{search.name}”.</p>
              {search.suggestions.length > 0 && (
                <p className="mt-1">
                  <span className="text-muted-foreground">Close names: </span>
                  {search.suggestions.map((s, i) => (
                    <span key={s.name}>
                      {i > 0 && ", "}
                      <Link
                        href={graphHref(s.name)}
                        className="text-primary underline-offset-4 hover:underline"
                        data-testid="graph-suggestion"
                      >
                        {s.name}
                      </Link>
                    </span>
                  ))}
                </p>
              )}
            </div>
          )}
          {search?.found && <Neighbourhood key={search.entity.id} search={search} onOpenEntity={go} />}
          {search === null && index.length > 0 && <EntityIndex index={index} />}
        </>
      )}
    </div>
  );
}
