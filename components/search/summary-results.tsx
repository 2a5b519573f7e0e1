"use client";

import Link from "next/link";
import { formatAuthors } from "@/components/library/format";
import { paperHref } from "@/components/library/types";
import type { TermMatcher } from "./emphasis";
import { EmphasizedText } from "./emphasized-text";
import { RankingDetails } from "./ranking-details";
import { ResultCard } from "./result-card";
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
      <ResultCard
        paperId={hit.paperId}
        title={hit.title}
        details={[hit.year, formatAuthors(hit.authors)]}
        pages={chips.map(([page, passage]) => ({ page, href: paperHref(hit.paperId, { page, hl: passage }) }))}
        pagesLabel={`Pages cited by the summary of ${hit.title}`}
      >
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
      </ResultCard>
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
