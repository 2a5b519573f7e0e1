"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import { paperHref } from "@/components/library/types";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { bestExcerpt, type Span, type TermMatcher } from "./emphasis";
import { EmphasizedText } from "./emphasized-text";
import { groupByPaper, type PaperGroup } from "./group-results";
import { RankingDetails } from "./ranking-details";
import { ResultCard } from "./result-card";
import type { PassageHit } from "./types";

/** The viewer at the passage's page with `span` (offsets into the passage) highlighted. */
function viewerHref(hit: PassageHit, span: Span): string {
  return paperHref(hit.paperId, { page: hit.page, start: hit.charStart + span.start, end: hit.charStart + span.end });
}

/** Passages shown per paper before "show more". */
const PASSAGES_SHOWN = 3;

function Passage({ hit, excerpt, matcher }: { hit: PassageHit; excerpt: Span; matcher: TermMatcher }) {
  const [whole, setWhole] = useState(false);
  const cut = excerpt.start > 0 || excerpt.end < hit.text.trimEnd().length;
  const span = whole ? { start: 0, end: hit.text.length } : excerpt;
  return (
    <li className="grid grid-cols-[2.25rem_minmax(0,1fr)] gap-x-2 px-4 py-3" data-testid="passage" data-page={hit.page}>
      <span className="pt-1.5 font-medium text-muted-foreground text-xs tabular-nums" aria-hidden>
        p. {hit.page}
      </span>
      <div className="min-w-0 space-y-1.5">
        {(hit.section || hit.bibliography) && (
          <div className="flex min-w-0 items-center gap-2 pt-1">
            {hit.section && (
              <p className="truncate text-muted-foreground text-xs" title={hit.section} data-testid="passage-section">
                <span className="sr-only">Section: </span>
                {hit.section}
              </p>
            )}
            {/* says why a list of other papers' titles matched: the search was asked to include reference lists */}
            {hit.bibliography && (
              <Badge variant="outline" className="shrink-0 px-1.5 py-0 font-normal" data-testid="passage-bibliography">
                Reference list
              </Badge>
            )}
          </div>
        )}
        <Link
          href={viewerHref(hit, span)}
          className="-mx-2 block rounded-md px-2 py-1 text-sm leading-relaxed outline-none transition-colors hover:bg-accent/70 focus-visible:ring-[3px] focus-visible:ring-ring/50"
          data-testid="passage-link"
        >
          <span className="sr-only">Page {hit.page}: </span>
          {!whole && excerpt.start > 0 && "… "}
          <EmphasizedText text={hit.text.slice(span.start, span.end)} matcher={matcher} />
          {!whole && excerpt.end < hit.text.trimEnd().length && " …"}
        </Link>
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
          <RankingDetails ranking={hit} />
          {cut && (
            <Button
              variant="link"
              size="sm"
              className="h-auto px-0 py-0 text-muted-foreground text-xs hover:text-foreground has-[>svg]:px-0"
              aria-expanded={whole}
              onClick={() => setWhole((w) => !w)}
              data-testid="passage-toggle"
            >
              {whole ? "Show less" : "Whole passage"}
            </Button>
          )}
        </div>
      </div>
    </li>
  );
}

function Group({ group, matcher }: { group: PaperGroup; matcher: TermMatcher }) {
  const excerpts = useMemo(
    () => new Map(group.hits.map((h) => [h.chunkUid, bestExcerpt(h.text, matcher)])),
    [group.hits, matcher],
  );
  const excerptOf = (hit: PassageHit) => excerpts.get(hit.chunkUid) ?? { start: 0, end: hit.text.length };
  // a paper with many matching pages would push the others out of sight: its best few first, the rest on request
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? group.hits : group.hits.slice(0, PASSAGES_SHOWN);
  const hidden = group.hits.length - shown.length;
  return (
    <li>
      <ResultCard
        paperId={group.paperId}
        title={group.title}
        details={[group.year, `${group.hits.length} ${group.hits.length === 1 ? "passage" : "passages"}`]}
        pages={group.pages.map(({ page, hit }) => ({ page, href: viewerHref(hit, excerptOf(hit)) }))}
        pagesLabel={`Pages with matches in ${group.title}`}
      >
        <ol className="divide-y border-t">
          {shown.map((hit) => (
            <Passage key={hit.chunkUid} hit={hit} excerpt={excerptOf(hit)} matcher={matcher} />
          ))}
        </ol>
        {(hidden > 0 || expanded) && group.hits.length > PASSAGES_SHOWN && (
          <div className="border-t px-4 py-1.5">
            <Button
              variant="ghost"
              size="sm"
              className="-mx-2 text-muted-foreground"
              aria-expanded={expanded}
              onClick={() => setExpanded((e) => !e)}
              data-testid="group-toggle"
            >
              {expanded
                ? "Show fewer passages"
                : `Show ${hidden} more ${hidden === 1 ? "passage" : "passages"} from this paper`}
            </Button>
          </div>
        )}
      </ResultCard>
    </li>
  );
}

/** Passages of the content index, grouped by paper. */
export function ContentResults({ hits, matcher }: { hits: PassageHit[]; matcher: TermMatcher }) {
  const groups = useMemo(() => groupByPaper(hits), [hits]);
  return (
    <ol className="space-y-4" data-testid="search-results">
      {groups.map((group) => (
        <Group key={group.paperId} group={group} matcher={matcher} />
      ))}
    </ol>
  );
}
