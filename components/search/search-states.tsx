import { CircleAlertIcon, FileUpIcon, LibraryIcon, SearchXIcon, TextSearchIcon } from "lucide-react";
import Link from "next/link";
import type * as React from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { activeFilterCount, searchHref } from "./search-url";
import { emptySearchState, indexLabels, type SearchLibrary, type SearchState } from "./types";

function Panel({ testId, children }: { testId: string; children: React.ReactNode }) {
  return (
    <section
      className="flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-10 text-center"
      data-testid={testId}
    >
      {children}
    </section>
  );
}

const linkClass =
  "rounded-sm text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50";

/** Before the first search: what searching does, and a few queries to start from. */
export function IdleState({ library }: { library: SearchLibrary | null }) {
  const examples = (library?.papers ?? []).slice(0, 3).map((p) => p.title);
  return (
    <Panel testId="search-idle">
      <TextSearchIcon className="size-9 text-muted-foreground" aria-hidden />
      <h2 className="font-semibold text-lg">Search the text of your papers</h2>
      <ul className="max-w-xl list-disc space-y-1.5 pl-5 text-left text-muted-foreground text-sm marker:text-border">
        <li>
          Ask a question or type keywords. Passages are ranked by their words (full text, BM25) and by similar wording
          (vectors); each result says which found it.
        </li>
        <li>
          <span className="font-medium text-foreground">Content</span> searches the pages passage by passage;{" "}
          <span className="font-medium text-foreground">Summaries</span> finds papers by what their summaries say.
        </li>
        <li>A result opens the PDF at its page with the passage highlighted.</li>
      </ul>
      {examples.length > 0 && (
        <div className="flex max-w-2xl flex-col items-center gap-2 text-sm">
          <span className="text-muted-foreground">Or start from one of your latest papers:</span>
          <ul className="flex flex-wrap justify-center gap-2">
            {examples.map((q) => (
              <li key={q} className="min-w-0 max-w-full">
                <Link
                  href={searchHref({ ...emptySearchState, q })}
                  title={q}
                  className="block max-w-72 truncate rounded-full border bg-card px-3 py-1 text-foreground outline-none transition-colors hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50"
                  data-testid="example-query"
                >
                  {q}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="text-muted-foreground text-xs">
        Press <kbd className="rounded border bg-muted px-1.5 font-mono">/</kbd> to jump to the search box.
      </p>
    </Panel>
  );
}

/** Nothing to search: the library has no ready paper. */
export function EmptyLibraryState({ library }: { library: SearchLibrary }) {
  return (
    <Panel testId="search-empty-library">
      <LibraryIcon className="size-9 text-muted-foreground" aria-hidden />
      <h2 className="font-semibold text-lg">There is nothing to search yet</h2>
      <p className="max-w-md text-muted-foreground text-sm">
        {library.processing > 0
          ? `${library.processing} ${library.processing === 1 ? "paper is" : "papers are"} still being processed; ${library.processing === 1 ? "it becomes" : "they become"} searchable when ready.`
          : "Add PDFs to your library: each is split into passages and summarized, and then you can search it here."}
      </p>
      <Button asChild variant="outline">
        <Link href="/">
          <FileUpIcon />
          Add papers in the library
        </Link>
      </Button>
    </Panel>
  );
}

/** A search that found nothing above the relevance cutoff, with ways to widen it. */
export function NoResultsState({ state }: { state: SearchState }) {
  const other = state.index === "content" ? "summaries" : "content";
  // the filters that narrow the search: including the reference lists only widens it, so the link keeps them
  const filtered = activeFilterCount({ ...state, refs: false }) > 0;
  return (
    <Panel testId="search-no-results">
      <SearchXIcon className="size-9 text-muted-foreground" aria-hidden />
      <h2 className="font-semibold text-lg">
        No {state.index === "content" ? "passages" : "papers"} match “
        <span className="wrap-anywhere">{state.q.length > 120 ? `${state.q.slice(0, 120)}…` : state.q}</span>”
      </h2>
      <p className="max-w-md text-muted-foreground text-sm">
        Results that are not relevant enough are left out, so your library may not cover this topic. Try other words,
        fewer words, or a wider search.
      </p>
      <div className="flex flex-wrap justify-center gap-x-4 gap-y-1 text-sm">
        {filtered && (
          <Link
            href={searchHref({ ...state, papers: [], yearFrom: null, yearTo: null, category: null })}
            className={linkClass}
            data-testid="search-without-filters"
          >
            Search without filters
          </Link>
        )}
        <Link href={searchHref({ ...state, index: other })} className={linkClass} data-testid="search-other-index">
          Search the {indexLabels[other].toLowerCase()} instead
        </Link>
      </div>
    </Panel>
  );
}

/** The search (or the library) could not be read: the server's message and a retry. */
export function ErrorState({ title, message, onRetry }: { title: string; message: string; onRetry: () => void }) {
  return (
    <Alert variant="destructive" data-testid="search-error">
      <CircleAlertIcon aria-hidden />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>
        <p>{message}</p>
        <Button variant="outline" size="sm" className="mt-1" onClick={onRetry}>
          Try again
        </Button>
      </AlertDescription>
    </Alert>
  );
}
