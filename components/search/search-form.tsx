"use client";

import { LoaderIcon, SearchIcon, XIcon } from "lucide-react";
import { type ReactNode, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import { useHydrated } from "@/components/ui/use-hydrated";
import { useSlashToFocus } from "@/components/ui/use-slash-to-focus";
import { MAX_QUERY_CHARS } from "@/lib/search/query";
import { type DraftField, type SearchDraft, toDraft, tooLongMessage, validateDraft } from "./draft";
import { PaperPicker } from "./paper-picker";
import { searchHref } from "./search-url";
import {
  indexDescriptions,
  indexLabels,
  type SearchIndex,
  type SearchLibrary,
  type SearchState,
  searchIndexes,
} from "./types";

function FilterLabel({ htmlFor, children }: { htmlFor?: string; children: ReactNode }) {
  const className = "block font-medium text-muted-foreground text-xs";
  return htmlFor ? (
    <label htmlFor={htmlFor} className={className}>
      {children}
    </label>
  ) : (
    <span className={className}>{children}</span>
  );
}

/**
 * The query box, the index toggle and the filters. Enter (or the button) searches; the index toggle, the paper picker
 * and the reference-lists checkbox search at once when there is a query. Typed values are checked here first, so a bad
 * one gets a message next to its field instead of a round trip.
 */
export function SearchForm({
  state,
  library,
  pending,
  serverMessage,
  onSearch,
}: {
  /** The search the URL holds (what the results show). */
  state: SearchState;
  library: SearchLibrary | null;
  pending: boolean;
  /** The server's word on a query it could not run (e.g. nothing but symbols). */
  serverMessage: string | null;
  onSearch: (next: SearchState) => void;
}) {
  const hydrated = useHydrated();
  const [draft, setDraft] = useState<SearchDraft>(() => toDraft(state));
  const [invalid, setInvalid] = useState<{ field: DraftField; message: string } | null>(null);
  const queryRef = useRef<HTMLInputElement>(null);
  const fieldRefs = {
    q: queryRef,
    yearFrom: useRef<HTMLInputElement>(null),
    yearTo: useRef<HTMLInputElement>(null),
    category: useRef<HTMLInputElement>(null),
  };
  const ids = {
    q: useId(),
    message: useId(),
    yearFrom: useId(),
    yearTo: useId(),
    category: useId(),
    refs: useId(),
    refsHint: useId(),
  };
  useSlashToFocus(queryRef);

  // Back/forward and links change the URL under the form: show what it now holds. A search sent from this form
  // leaves the fields alone (the user may have typed on while it ran).
  const href = searchHref(state);
  const [shown, setShown] = useState(href);
  const [sent, setSent] = useState<string | null>(null);
  if (shown !== href) {
    setShown(href);
    if (href === sent) setSent(null);
    else {
      setDraft(toDraft(state));
      setInvalid(null);
    }
  }

  const submit = (next: SearchDraft) => {
    const checked = validateDraft(next);
    if (!checked.ok) {
      setInvalid({ field: checked.field, message: checked.message });
      fieldRefs[checked.field].current?.focus();
      return;
    }
    setInvalid(null);
    const target = searchHref(checked.state);
    setSent(target === href ? null : target);
    onSearch(checked.state);
  };

  const update = (patch: Partial<SearchDraft>, searchNow = false) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    if (invalid && Object.keys(patch).includes(invalid.field)) setInvalid(null);
    // toggles search at once, but only a query that is there: no "type something" nagging for a toggle
    if (searchNow && next.q.trim()) submit(next);
  };

  // summaries have no reference lists: the checkbox keeps its state but is off limits there
  const refsApply = draft.index === "content";
  const hasFilters =
    draft.papers.length > 0 ||
    Boolean(draft.yearFrom || draft.yearTo || draft.category.trim()) ||
    (draft.refs && refsApply);
  const length = draft.q.trim().length;
  const message = invalid?.message ?? (draft.q.trim() === state.q ? serverMessage : null);
  const messageFor = (field: DraftField) => (invalid ? invalid.field === field : field === "q" && Boolean(message));

  return (
    <form
      role="search"
      aria-label="Search the library"
      action="/search"
      method="get"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit(draft);
      }}
      className="space-y-3"
      data-testid="search-form"
    >
      <div className="flex gap-2">
        <div className="relative min-w-0 flex-1">
          <SearchIcon
            className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-4 text-muted-foreground"
            aria-hidden
          />
          <Input
            ref={queryRef}
            id={ids.q}
            name="q"
            type="search"
            value={draft.q}
            onChange={(e) => update({ q: e.target.value })}
            placeholder="Ask a question or type keywords"
            aria-label="Search query"
            aria-keyshortcuts="/"
            aria-invalid={messageFor("q") || undefined}
            aria-describedby={message ? ids.message : undefined}
            autoComplete="off"
            enterKeyHint="search"
            spellCheck={false}
            className="peer h-11 pr-10 pl-9 text-base md:text-base"
            data-testid="search-input"
            data-hydrated={hydrated || undefined}
          />
          <kbd
            className="-translate-y-1/2 pointer-events-none absolute top-1/2 right-3 hidden rounded border bg-muted px-1.5 font-mono text-muted-foreground text-xs peer-focus:hidden sm:block"
            aria-hidden
          >
            /
          </kbd>
        </div>
        <Button type="submit" className="h-11 px-5" disabled={pending} data-testid="search-submit">
          {pending ? <LoaderIcon className="animate-spin motion-reduce:animate-none" aria-hidden /> : null}
          {pending ? "Searching…" : "Search"}
        </Button>
      </div>

      {(message || length > MAX_QUERY_CHARS * 0.8) && (
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 text-sm">
          {message ? (
            <p id={ids.message} role="alert" className="text-destructive" data-testid="search-message">
              {message}
            </p>
          ) : (
            <span />
          )}
          {length > MAX_QUERY_CHARS * 0.8 && (
            <span
              className={cn(
                "text-xs tabular-nums",
                length > MAX_QUERY_CHARS ? "text-destructive" : "text-muted-foreground",
              )}
              data-testid="query-length"
              title={length > MAX_QUERY_CHARS ? tooLongMessage(length) : undefined}
            >
              {length.toLocaleString("en")} / {MAX_QUERY_CHARS.toLocaleString("en")}
            </span>
          )}
        </div>
      )}

      <div className="flex flex-wrap items-end gap-x-5 gap-y-3">
        <fieldset className="space-y-1.5">
          <legend className="mb-1.5 block font-medium text-muted-foreground text-xs">Search in</legend>
          <div className="inline-flex h-8 items-stretch rounded-md border bg-muted/50 p-0.5" data-testid="index-toggle">
            {searchIndexes.map((index: SearchIndex) => (
              <label key={index} className="relative" title={indexDescriptions[index]} data-testid={`index-${index}`}>
                <input
                  type="radio"
                  name="index"
                  value={index}
                  checked={draft.index === index}
                  onChange={() => update({ index }, true)}
                  className="peer sr-only"
                />
                <span className="inline-flex h-full cursor-pointer items-center rounded-[5px] px-3 font-medium text-muted-foreground text-sm transition-colors hover:text-foreground peer-checked:bg-background peer-checked:text-foreground peer-checked:shadow-xs peer-focus-visible:ring-[3px] peer-focus-visible:ring-ring/50 dark:peer-checked:bg-input/60">
                  {indexLabels[index]}
                </span>
              </label>
            ))}
          </div>
        </fieldset>

        <div className="space-y-1.5">
          <FilterLabel>Papers</FilterLabel>
          <PaperPicker
            papers={library?.papers ?? []}
            selected={draft.papers}
            disabled={!library}
            onChange={(papers, applied) => update({ papers }, applied)}
          />
        </div>

        <fieldset className="space-y-1.5">
          <legend
            className="mb-1.5 block font-medium text-muted-foreground text-xs"
            title={
              library?.years ? `The library's papers are from ${library.years.min} to ${library.years.max}` : undefined
            }
          >
            Years
          </legend>
          <div className="flex items-center gap-1.5">
            <Input
              ref={fieldRefs.yearFrom}
              id={ids.yearFrom}
              name="from"
              value={draft.yearFrom}
              onChange={(e) => update({ yearFrom: e.target.value })}
              inputMode="numeric"
              maxLength={4}
              placeholder="from"
              aria-label="From year"
              aria-invalid={messageFor("yearFrom") || undefined}
              aria-describedby={invalid?.field === "yearFrom" ? ids.message : undefined}
              className="h-8 w-[4.5rem] tabular-nums"
              data-testid="year-from"
            />
            <span className="text-muted-foreground" aria-hidden>
              –
            </span>
            <Input
              ref={fieldRefs.yearTo}
              id={ids.yearTo}
              name="to"
              value={draft.yearTo}
              onChange={(e) => update({ yearTo: e.target.value })}
              inputMode="numeric"
              maxLength={4}
              placeholder="to"
              aria-label="To year"
              aria-invalid={messageFor("yearTo") || undefined}
              aria-describedby={invalid?.field === "yearTo" ? ids.message : undefined}
              className="h-8 w-[4.5rem] tabular-nums"
              data-testid="year-to"
            />
          </div>
        </fieldset>

        <div className="space-y-1.5">
          <FilterLabel htmlFor={ids.category}>arXiv category</FilterLabel>
          <Input
            ref={fieldRefs.category}
            id={ids.category}
            name="category"
            value={draft.category}
            onChange={(e) => update({ category: e.target.value })}
            placeholder="e.g. cs.CL"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={messageFor("category") || undefined}
            aria-describedby={invalid?.field === "category" ? ids.message : undefined}
            className="h-8 w-28"
            data-testid="category"
          />
        </div>

        <div className="space-y-1.5">
          <FilterLabel>Reference lists</FilterLabel>
          <div className="flex h-8 items-center gap-2">
            <input
              id={ids.refs}
              type="checkbox"
              name="refs"
              value="1"
              checked={draft.refs}
              disabled={!refsApply}
              onChange={(e) => update({ refs: e.target.checked }, true)}
              aria-describedby={ids.refsHint}
              className="peer size-4 shrink-0 cursor-pointer accent-primary outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50"
              data-testid="include-refs"
            />
            <label
              htmlFor={ids.refs}
              className="cursor-pointer text-sm peer-disabled:cursor-not-allowed peer-disabled:opacity-50"
            >
              Include reference lists
            </label>
            <span id={ids.refsHint} className="sr-only">
              {refsApply
                ? "The lists of cited works at the end of each paper, left out by default."
                : "Content only: summaries have no reference lists."}
            </span>
          </div>
        </div>

        {hasFilters && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => update({ papers: [], yearFrom: "", yearTo: "", category: "", refs: false }, true)}
            data-testid="clear-filters"
          >
            <XIcon />
            Clear filters
          </Button>
        )}
      </div>
    </form>
  );
}
