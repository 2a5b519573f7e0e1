import Link from "next/link";
import { useId } from "react";
import { paperHref } from "@/components/library/types";
import { badgeVariants } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";

export const pageChipClass = cn(
  badgeVariants({ variant: "secondary" }),
  "h-6 px-2 tabular-nums outline-none hover:bg-primary hover:text-primary-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50",
);

/** A page of the paper to jump to from the card's header, and where the link opens the viewer. */
export interface PageLink {
  page: number;
  href: string;
}

/**
 * One paper in the search results, whichever index found it: a header with the title (to the paper's page), a line of
 * details and a chip per page worth opening, then the passages (`children`).
 */
export function ResultCard({
  paperId,
  title,
  details,
  pages,
  pagesLabel,
  children,
}: {
  paperId: string;
  title: string;
  /** Shown under the title joined by " · ", empty ones left out (a paper may have no year). */
  details: readonly (string | number | null | undefined)[];
  /** In page order; the page list is left out when there are none. */
  pages: readonly PageLink[];
  /** The accessible name of the page list, e.g. "Pages with matches in <title>". */
  pagesLabel: string;
  children: React.ReactNode;
}) {
  const headingId = useId();
  return (
    <article
      className="overflow-hidden rounded-xl border bg-card text-card-foreground shadow-xs"
      aria-labelledby={headingId}
      data-testid="result-group"
      data-paper-id={paperId}
    >
      <header className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 px-4 pt-3.5 pb-3">
        <div className="min-w-0 space-y-0.5">
          <h2 id={headingId} className="font-medium leading-snug">
            <Link
              href={paperHref(paperId)}
              className="rounded-sm outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
              data-testid="result-title"
            >
              {title}
            </Link>
          </h2>
          <p className="truncate text-muted-foreground text-xs">{details.filter(Boolean).join(" · ")}</p>
        </div>
        {pages.length > 0 && (
          <nav aria-label={pagesLabel} className="flex flex-wrap gap-1">
            {pages.map(({ page, href }) => (
              <Link key={page} href={href} className={pageChipClass} data-testid="page-chip" data-page={page}>
                p. {page}
              </Link>
            ))}
          </nav>
        )}
      </header>
      {children}
    </article>
  );
}
