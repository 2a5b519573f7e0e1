"use client";

import { useRouter } from "next/navigation";
import { type ReactNode, useCallback, useMemo, useTransition } from "react";
import type { ApiResult } from "@/components/library/types";
import { cn } from "@/components/ui/cn";
import { Progress } from "@/components/ui/progress";
import { quotedList } from "@/lib/text/lists";
import { ContentResults } from "./content-results";
import { searchedMatcher } from "./emphasis";
import { SearchForm } from "./search-form";
import { EmptyLibraryState, ErrorState, IdleState, NoResultsState } from "./search-states";
import { searchHref } from "./search-url";
import { SummaryResults } from "./summary-results";
import type { Respelled, SearchLibrary, SearchResponse, SearchState } from "./types";

function countLine(response: SearchResponse): string {
  if (response.index === "summaries") {
    const n = response.papers.length;
    return `${n} ${n === 1 ? "paper" : "papers"} by ${n === 1 ? "its summary" : "their summaries"}`;
  }
  const papers = new Set(response.hits.map((h) => h.paperId)).size;
  const n = response.hits.length;
  return `${n} ${n === 1 ? "passage" : "passages"} in ${papers} ${papers === 1 ? "paper" : "papers"}`;
}

function HowRanked({ embedder }: { embedder: SearchLibrary["embedder"] | undefined }) {
  return (
    <details className="group text-muted-foreground text-xs">
      <summary className="cursor-pointer select-none rounded-sm outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50">
        How results are ranked
      </summary>
      <div className="mt-2 max-w-2xl space-y-1.5 rounded-lg border bg-card p-3 leading-relaxed">
        <p>
          <span className="font-medium text-foreground">Full text</span>: the passage's rank among full-text matches and
          its BM25 score (rare query words count most). <span className="font-medium text-foreground">Proximity</span>:
          its rank by how close together the query's words are (Postgres cover density), shown for reference: it is not
          part of the fused order. <span className="font-medium text-foreground">Vector</span>: its rank by embedding
          similarity, with the cosine similarity. The rank discounts passages close to many others (an abstract or an
          introduction restates the whole paper): half of a passage&apos;s mean similarity to its ten nearest passages
          is taken off its cosine before ranking.
        </p>
        <p>
          <span className="font-medium text-foreground">Best sentence</span> (questions that ask for a result or how
          something works): the passage&apos;s rank by its best sentence, scored by BM25 with each sentence taken alone,
          so the page stating the fact in one sentence comes before an overview that mentions the same words apart.
        </p>
        <p>
          <span className="font-medium text-foreground">Fused</span>: the full-text (BM25), vector and — when shown —
          best-sentence rankings combined by reciprocal rank fusion; results come in this order, with near-duplicates
          spread out. <span className="font-medium text-foreground">Relevance</span>: how well the passage covers the
          query, calibrated so that results below a cutoff are left out.
        </p>
        {embedder === "hashing" && (
          <p data-testid="offline-embedder-note">
            Vectors come from the offline hashing embedder: they measure shared words and word fragments, not meaning.
          </p>
        )}
        {embedder === "latent" && (
          <p data-testid="offline-embedder-note">
            Vectors come from the offline latent embedder (latent semantic analysis fitted to this library): words that
            occur in the same passages count as related, so a passage can match without sharing the query&apos;s words.
            No language model is involved.
          </p>
        )}
      </div>
    </details>
  );
}

/**
 * The search page. The URL holds the search (the server runs it and renders the results); searching navigates to the
 * new URL, so results are shareable and survive a reload, and back/forward move through earlier searches.
 */
export function SearchView({
  state,
  result,
  library,
  libraryError,
}: {
  state: SearchState;
  /** The search's outcome; null before the first search (no query in the URL). */
  result: ApiResult<SearchResponse> | null;
  library: SearchLibrary | null;
  libraryError: string | null;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();

  const search = useCallback(
    (next: SearchState) => {
      const href = searchHref(next);
      startTransition(() => {
        // the same search again runs it again (the library may have changed)
        if (href === `${window.location.pathname}${window.location.search}`) router.refresh();
        else router.push(href, { scroll: false });
      });
    },
    [router],
  );
  const retry = useCallback(() => startTransition(() => router.refresh()), [router]);

  const badQuery = result && !result.ok && result.error.code.startsWith("bad_request") ? result.error.message : null;
  const failure = result && !result.ok && !badQuery ? result.error.message : null;
  const response = result?.ok ? result.data : null;
  const matcher = useMemo(() => searchedMatcher(state.q, response?.respelled), [state.q, response?.respelled]);
  const count = response ? (response.index === "content" ? response.hits.length : response.papers.length) : 0;

  let body: ReactNode;
  if (library && library.ready === 0) body = <EmptyLibraryState library={library} />;
  else if (failure) body = <ErrorState title="The search failed" message={failure} onRetry={retry} />;
  else if (!library && libraryError && !response)
    body = <ErrorState title="The library could not be read" message={libraryError} onRetry={retry} />;
  else if (!response) body = <IdleState library={library} />;
  else if (count === 0)
    body = (
      <div className="space-y-4">
        <RespelledLine respelled={response.respelled} />
        <AbsentLine absent={response.absent} results={false} allAbsent={response.allAbsent === true} />
        <NoResultsState state={state} />
      </div>
    );
  else
    body = (
      <div className="space-y-4">
        <RespelledLine respelled={response.respelled} />
        <AbsentLine absent={response.absent} results allAbsent={response.allAbsent === true} />
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <p className="text-sm" data-testid="result-count">
            {countLine(response)}
            <span className="text-muted-foreground"> · {response.tookMs.toLocaleString("en")} ms</span>
          </p>
        </div>
        <HowRanked embedder={library?.embedder} />
        {response.index === "content" ? (
          <ContentResults hits={response.hits} matcher={matcher} />
        ) : (
          <SummaryResults papers={response.papers} matcher={matcher} />
        )}
      </div>
    );

  const announcement =
    failure ?? badQuery ?? (response ? (count === 0 ? "No results." : `${countLine(response)}.`) : "");

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <h1 className="font-semibold text-2xl tracking-tight">Search</h1>
        <p className="text-muted-foreground text-sm">
          Find passages in your papers, with the page they are on
          {library && library.ready > 0 ? ` — ${library.ready} ${library.ready === 1 ? "paper" : "papers"}` : ""}.
        </p>
      </div>
      <SearchForm state={state} library={library} pending={pending} serverMessage={badQuery} onSearch={search} />
      <div
        aria-busy={pending}
        className={cn("relative space-y-4 transition-opacity", pending && "opacity-60")}
        data-testid="search-outcome"
        data-state={pending ? "loading" : "idle"}
      >
        {pending && <Progress value={null} aria-label="Searching" className="absolute -top-3 h-1" />}
        {body}
      </div>
      <div className="sr-only" aria-live="polite" role="status">
        {announcement}
      </div>
    </div>
  );
}

/**
 * The query's words no page of the library holds: said, so results that match only its other words ("bridge the gap"
 * for "crack detection in bridges") are not taken for passages on its subject.
 */
function AbsentLine({ absent, results, allAbsent }: { absent?: string[]; results: boolean; allAbsent: boolean }) {
  if (!absent || absent.length === 0) return null;
  // (when no word of the query is in the library, what is found is alike only by the vectors' measure)
  const after = !results
    ? "."
    : allAbsent
      ? ": the results below are only alike by the vector search's measure."
      : ": the results below match the query's other words.";
  return (
    <p className="text-muted-foreground text-sm" data-testid="absent-words">
      No paper in the library mentions {quotedList(absent)}
      {after}
    </p>
  );
}

/** The words the search looked for under the library's spelling: said, so a wrong guess can be seen and retyped. */
function RespelledLine({ respelled }: { respelled?: Respelled[] }) {
  if (!respelled || respelled.length === 0) return null;
  return (
    <p className="text-muted-foreground text-sm" data-testid="respelled">
      Searched{" "}
      {respelled.map((r, i) => (
        <span key={r.written}>
          {i > 0 ? ", " : ""}“{r.written}” as “<span className="font-medium text-foreground">{r.searched}</span>”
        </span>
      ))}
      : not in the library as typed.
    </p>
  );
}
