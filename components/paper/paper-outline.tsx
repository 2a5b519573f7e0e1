"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import type * as React from "react";
import { replacePageInUrl } from "@/components/library/types";
import { cn } from "@/components/ui/cn";
import { usePaperLinks } from "./paper-links";
import type { OutlineEntry } from "./types";

/**
 * The entries to mark for the viewer's page: the headings on it, or, when none is, the last one before it (the
 * section the page continues). Indexes into `outline`.
 */
export function currentEntries(outline: readonly OutlineEntry[], page: number): number[] {
  const on = outline.flatMap((e, i) => (e.page === page ? [i] : []));
  if (on.length > 0) return on;
  let before = -1;
  outline.forEach((e, i) => {
    if (e.page < page) before = i;
  });
  return before >= 0 ? [before] : [];
}

/** Contents longer than this start folded, so the abstract and summary stay in reach. */
const OPEN_UP_TO = 30;

/**
 * The paper's table of contents, from the headings found in its text: each entry turns the viewer to its page (in the
 * browser: the URL's `page` changes and the viewer follows it, no server round trip; the link still opens in a new
 * tab), and the sections of the page in view are marked.
 */
export function PaperOutline({ paperId, outline }: { paperId: string; outline: readonly OutlineEntry[] }) {
  const searchParams = useSearchParams();
  const links = usePaperLinks();
  const page = Number(searchParams.get("page")) || 1;
  const current = currentEntries(outline, page);
  if (outline.length === 0) return null;
  const turnTo = (event: React.MouseEvent<HTMLAnchorElement>, target: number) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    // the highlight stays when the entry is on the page already in view
    replacePageInUrl(target, searchParams.get("page") === String(target));
  };
  return (
    <details open={outline.length <= OPEN_UP_TO} className="space-y-2" data-testid="paper-outline">
      <summary className="cursor-pointer rounded-sm font-semibold text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
        Contents <span className="font-normal text-muted-foreground">({outline.length})</span>
      </summary>
      <nav aria-label="Contents">
        <ol className="space-y-0.5 text-sm">
          {outline.map((e, i) => (
            <li key={`${e.page}-${i}`} className={cn(e.depth > 0 && "pl-4")}>
              <Link
                // the same paper's page in this view (the library's, or the share link's)
                href={links.paperPage(paperId, { page: e.page }) ?? `?page=${e.page}`}
                prefetch={false}
                onClick={(event) => turnTo(event, e.page)}
                aria-current={i === current[0] ? "location" : undefined}
                className={cn(
                  "-mx-2 flex items-baseline gap-2 rounded-md px-2 py-0.5 text-muted-foreground outline-none transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50",
                  current.includes(i) && "bg-accent/60 font-medium text-foreground",
                )}
                data-testid="outline-entry"
                data-page={e.page}
              >
                <span className="line-clamp-2 min-w-0 flex-1">
                  {e.numbering && <span className="tabular-nums">{e.numbering} </span>}
                  {e.title}
                </span>
                <span className="shrink-0 text-xs tabular-nums">
                  <span className="sr-only">, page </span>
                  <span aria-hidden>p. </span>
                  {e.page}
                </span>
              </Link>
            </li>
          ))}
        </ol>
      </nav>
    </details>
  );
}
