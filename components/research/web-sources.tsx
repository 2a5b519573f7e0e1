"use client";

import { ExternalLinkIcon, GlobeIcon, LibraryBigIcon, TriangleAlertIcon } from "lucide-react";
import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import type { ResearchStep } from "@/lib/research/types";
import type { WebCitation, WebSource } from "@/lib/research/web";

/**
 * Web evidence in the run's view: the pages the web search read (its step's data) and the answer's `[W1]`… citations
 * as checked (the web_citations step's data). Web sources look unlike the library's papers on purpose: a globe, a
 * dashed sky-blue chip, the site's host, and a link that leaves Lectern.
 */

export interface RunWebEvidence {
  /** Every page read, by id. */
  pages: WebSource[];
  /** The pages the answer cites (its "Web sources"). */
  cited: WebSource[];
  citations: WebCitation[];
}

export const NO_WEB_EVIDENCE: RunWebEvidence = { pages: [], cited: [], citations: [] };

/** The run's web evidence, read from its steps (stored with them, so a reload or a share link shows the same). */
export function webEvidenceOf(steps: readonly ResearchStep[]): RunWebEvidence {
  let pages: WebSource[] = [];
  let cited: WebSource[] = [];
  let citations: WebCitation[] = [];
  for (const s of steps) {
    if (s.type === "web_search" && s.data) pages = s.data.pages;
    if (s.type === "web_citations" && s.data) {
      cited = s.data.sources;
      citations = s.data.citations;
    }
  }
  if (pages.length === 0 && citations.length === 0) return NO_WEB_EVIDENCE;
  return { pages, cited, citations };
}

/** `[W1]` in the answer's text: the web markers, split out of a text node by remark-citations' web pass. */
export const WEB_CITATION_ATTR = "data-web-citation";
export const WEB_CLAIM_ATTR = "data-web-claim";

/** Where the library page adds an arXiv paper (its arXiv panel reads `?arxiv=`). */
export function addToLibraryHref(arxivId: string): string {
  return `/?arxiv=${encodeURIComponent(arxivId)}#add-from-arxiv`;
}

/** Only http(s) links leave Lectern (a stored URL is the provider's, untrusted). */
function safeHref(url: string): string | null {
  return /^https?:\/\//i.test(url) ? url : null;
}

export function WebCitationChip({ id, claim, evidence }: { id: string; claim: string; evidence: RunWebEvidence }) {
  const source = evidence.pages.find((p) => p.id === id) ?? evidence.cited.find((p) => p.id === id);
  const checked =
    evidence.citations.find((c) => c.sourceId === id && c.claim === claim) ??
    evidence.citations.find((c) => c.sourceId === id);
  const unsupported = checked?.supported === false;
  const href = source ? safeHref(source.url) : null;
  const label = `${id}: ${source?.title ?? "web page"}${source ? ` (${source.site})` : ""}${unsupported ? " — claim not supported by this page" : ""}`;
  const chip = (
    <span
      className={cn(
        "mx-0.5 inline-flex translate-y-[-1px] items-center gap-1 whitespace-nowrap rounded-full border border-dashed px-1.5 py-px align-baseline font-medium text-[0.75em] leading-normal",
        unsupported
          ? "border-warning/60 bg-warning/10 text-warning"
          : "border-sky-500/50 bg-sky-500/10 text-sky-700 dark:text-sky-300",
      )}
    >
      {unsupported ? (
        <TriangleAlertIcon className="size-3" aria-hidden />
      ) : (
        <GlobeIcon className="size-3" aria-hidden />
      )}
      <span>{id}</span>
      {source && <span className="max-w-[10rem] truncate opacity-75">{source.site}</span>}
    </span>
  );
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        {href ? (
          <a
            href={href}
            target="_blank"
            rel="noreferrer noopener nofollow"
            aria-label={`${label} (opens the web page in a new tab)`}
            className="rounded-full outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
            data-testid="web-citation-chip"
            data-web-id={id}
            data-supported={checked ? String(checked.supported) : "pending"}
          >
            {chip}
          </a>
        ) : (
          <span
            role="note"
            aria-label={label}
            data-testid="web-citation-chip"
            data-web-id={id}
            data-supported={checked ? String(checked.supported) : "pending"}
          >
            {chip}
          </span>
        )}
      </TooltipTrigger>
      <TooltipContent className="max-w-sm text-left">
        <p className="flex items-center gap-1 font-medium">
          <GlobeIcon className="size-3" aria-hidden /> From the web · {source?.site ?? id}
        </p>
        {source && <p className="opacity-90">{source.title}</p>}
        {checked?.quote && <p className="mt-1 italic opacity-80">“{checked.quote}”</p>}
        {unsupported && checked?.reason && <p className="mt-1">Not supported: {checked.reason}</p>}
      </TooltipContent>
    </Tooltip>
  );
}

/** The pages a web search step read, on its card. */
export function WebPageChips({ pages }: { pages: readonly WebSource[] }) {
  if (pages.length === 0) return null;
  return (
    <div className="space-y-1.5">
      <h4 className="font-medium text-muted-foreground text-xs">
        {pages.length} web {pages.length === 1 ? "page" : "pages"} read
      </h4>
      <ul className="flex flex-wrap gap-1.5" aria-label="Web pages read">
        {pages.map((p) => {
          const href = safeHref(p.url);
          return (
            <li key={p.id} data-testid="web-step-page" data-web-id={p.id}>
              <a
                href={href ?? undefined}
                target="_blank"
                rel="noreferrer noopener nofollow"
                title={p.title}
                className="inline-flex max-w-[18rem] items-center gap-1 rounded-full border border-sky-500/50 border-dashed bg-sky-500/10 px-2 py-0.5 text-sky-700 text-xs outline-none hover:bg-sky-500/20 focus-visible:ring-[3px] focus-visible:ring-ring/50 dark:text-sky-300"
              >
                <GlobeIcon className="size-3 shrink-0" aria-hidden />
                <span className="font-medium">{p.id}</span>
                <span className="truncate">{p.title}</span>
              </a>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The answer's "Web sources": each cited page, its link, the quote it was checked against, and "Add to library". */
export function WebSourceList({ evidence, readOnly = false }: { evidence: RunWebEvidence; readOnly?: boolean }) {
  if (evidence.cited.length === 0) return null;
  return (
    <section aria-labelledby="research-web-sources-heading" className="space-y-2" data-testid="research-web-sources">
      <h2 id="research-web-sources-heading" className="flex items-center gap-1.5 font-semibold text-sm">
        <GlobeIcon className="size-4 text-sky-600 dark:text-sky-400" aria-hidden />
        Web sources
        <span className="font-normal text-muted-foreground text-xs">— not from the library</span>
      </h2>
      <ol className="space-y-2 text-sm">
        {evidence.cited.map((s) => {
          const href = safeHref(s.url);
          const quotes = evidence.citations.filter((c) => c.sourceId === s.id);
          const unsupported = quotes.filter((c) => !c.supported).length;
          return (
            <li key={s.id} className="flex gap-2" data-testid="research-web-source" data-web-id={s.id}>
              <span className="w-7 shrink-0 text-right font-medium text-sky-700 text-xs tabular-nums leading-5 dark:text-sky-300">
                {s.id}
              </span>
              <div className="min-w-0 space-y-0.5">
                {href ? (
                  <a
                    href={href}
                    target="_blank"
                    rel="noreferrer noopener nofollow"
                    className="inline-flex items-center gap-1 rounded-sm font-medium leading-snug outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
                  >
                    {s.title}
                    <ExternalLinkIcon className="size-3 shrink-0" aria-hidden />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                ) : (
                  <span className="font-medium">{s.title}</span>
                )}
                <p className="break-all text-muted-foreground text-xs">
                  {s.site}
                  {s.published && <> · {s.published.slice(0, 10)}</>}
                  {quotes.length > 0 && (
                    <>
                      {" · "}
                      {quotes.length - unsupported} of {quotes.length} {quotes.length === 1 ? "claim" : "claims"}{" "}
                      checked against the page
                    </>
                  )}
                </p>
                {s.arxivId && !readOnly && (
                  <Link
                    href={addToLibraryHref(s.arxivId)}
                    className="inline-flex items-center gap-1 text-primary text-xs underline-offset-4 hover:underline"
                    data-testid="web-source-add-to-library"
                  >
                    <LibraryBigIcon className="size-3" aria-hidden />
                    Add arXiv:{s.arxivId} to the library
                  </Link>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
