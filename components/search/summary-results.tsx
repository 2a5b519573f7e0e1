"use client";

import Link from "next/link";
import { formatAuthors } from "@/components/library/format";
import { paperHref } from "@/components/library/types";
import { pageChipClass } from "./content-results";
import type { TermMatcher } from "./emphasis";
import { EmphasizedText } from "./emphasized-text";
import { RankingDetails } from "./ranking-details";
import { summaryPageLinks, summaryPlainText } from "./summary-passage";
import type { SummaryHit } from "./types";

function Paper({ hit, matcher }: { hit: SummaryHit; matcher: TermMatcher }) {
  const passages = hit.passages.map((p) => ({
    ...p,
    plain: summaryPlainText(p.text),
    links: summaryPageLinks(p.text, p.pages),
  }));
  // each page once, linked to the first passage that cites it
  const pages = new Map<number, string>();
  for (const p of passages) for (const l of p.links) if (!pages.has(l.page)) pages.set(l.page, l.passage);
  const chips = [...pages.entries()].sort((a, b) => a[0] - b[0]);
  return (
    <li>
      <article
        className="overflow-hidden rounded-xl border bg-card text-card-foreground shadow-xs"
        aria-labelledby={`summary-${hit.paperId}`}
        data-testid="result-group"
        data-paper-id={hit.paperId}
      >
        <header className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 px-4 pt-3.5 pb-3">
          <div className="min-w-0 space-y-0.5">
            <h2 id={`summary-${hit.paperId}`} className="font-medium leading-snug">
              <Link
                href={paperHref(hit.paperId)}
                className="rounded-sm outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
                data-testid="result-title"
              >
                {hit.title}
              </Link>
            </h2>
            <p className="truncate text-muted-foreground text-xs">
              {[hit.year, formatAuthors(hit.authors)].filter(Boolean).join(" · ")}
            </p>
          </div>
          {chips.length > 0 && (
            <nav aria-label={`Pages cited by the summary of ${hit.title}`} className="flex flex-wrap gap-1">
              {chips.map(([page, passage]) => (
                <Link
                  key={page}
                  href={paperHref(hit.paperId, { page, hl: passage })}
                  className={pageChipClass}
                  data-testid="page-chip"
                  data-page={page}
                >
                  p. {page}
                </Link>
              ))}
            </nav>
          )}
        </header>
        <ol className="divide-y border-t">
          {passages.map((p) => {
            const first = p.links[0];
            return (
              <li
                key={p.chunkUid}
                className="grid grid-cols-[2.25rem_minmax(0,1fr)] gap-x-2 px-4 py-3"
                data-testid="passage"
                data-page={first?.page}
              >
                <span className="pt-1.5 font-medium text-muted-foreground text-xs tabular-nums" aria-hidden>
                  {first ? `p. ${first.page}` : "—"}
                </span>
                <div className="min-w-0 space-y-1.5">
                  <Link
                    href={
                      first ? paperHref(hit.paperId, { page: first.page, hl: first.passage }) : paperHref(hit.paperId)
                    }
                    className="-mx-2 block rounded-md px-2 py-1 text-sm leading-relaxed outline-none transition-colors hover:bg-accent/70 focus-visible:ring-[3px] focus-visible:ring-ring/50"
                    data-testid="passage-link"
                  >
                    <span className="sr-only">{first ? `Page ${first.page}: ` : "Open the paper: "}</span>
                    <EmphasizedText text={p.plain} matcher={matcher} />
                  </Link>
                  <RankingDetails ranking={p} />
                </div>
              </li>
            );
          })}
        </ol>
      </article>
    </li>
  );
}

/** Papers found through their summaries, each with its matching summary passages. */
export function SummaryResults({ papers, matcher }: { papers: SummaryHit[]; matcher: TermMatcher }) {
  return (
    <ol className="space-y-4" data-testid="search-results">
      {papers.map((hit) => (
        <Paper key={hit.paperId} hit={hit} matcher={matcher} />
      ))}
    </ol>
  );
}
