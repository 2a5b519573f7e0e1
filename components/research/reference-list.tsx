import { ExternalLinkIcon } from "lucide-react";
import Link from "next/link";
import { formatAuthors, formatDate } from "@/components/library/format";
import { usePaperLinks } from "@/components/paper/paper-links";
import type { Reference } from "@/lib/research/types";

/** `2017-06-12` → `12 Jun 2017`; a bare year stays a year. */
export function formatPublished(published: string | null): string | null {
  if (!published) return null;
  if (/^\d{4}$/.test(published)) return published;
  if (/^\d{4}-\d{2}-\d{2}$/.test(published)) return formatDate(`${published}T12:00:00Z`);
  return formatDate(published);
}

/** The answer's references: `N. ID — Title`, authors, date, DOI; each opens the paper's page (the view's links). */
export function ReferenceList({ references }: { references: readonly Reference[] }) {
  const links = usePaperLinks();
  if (references.length === 0) return null;
  return (
    <section aria-labelledby="research-references-heading" className="space-y-2" data-testid="research-references">
      <h2 id="research-references-heading" className="font-semibold text-sm">
        References
      </h2>
      <ol className="space-y-2 text-sm">
        {references.map((r) => {
          const published = formatPublished(r.published);
          const href = links.paperPage(r.paperId);
          return (
            <li key={r.paperId} className="flex gap-2" data-testid="research-reference" data-paper-id={r.paperId}>
              <span className="w-5 shrink-0 text-right text-muted-foreground tabular-nums">{r.number}.</span>
              <div className="min-w-0 space-y-0.5">
                {href ? (
                  <Link
                    href={href}
                    className="rounded-sm font-medium leading-snug outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
                    data-testid="research-reference-link"
                  >
                    <span className="font-mono text-[0.9em]">{r.paperId}</span> — {r.title}
                  </Link>
                ) : (
                  <span className="font-medium leading-snug">
                    <span className="font-mono text-[0.9em]">{r.paperId}</span> — {r.title}
                  </span>
                )}
                <p className="text-muted-foreground text-xs">
                  {formatAuthors(r.authors)}
                  {published && <> · {published}</>}
                  {r.doi && (
                    <>
                      {" · "}
                      <a
                        href={`https://doi.org/${encodeURI(r.doi)}`}
                        target="_blank"
                        rel="noreferrer noopener"
                        className="inline-flex items-center gap-0.5 rounded-sm text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
                      >
                        doi:{r.doi}
                        <ExternalLinkIcon className="size-3" aria-hidden />
                        <span className="sr-only">(opens in a new tab)</span>
                      </a>
                    </>
                  )}
                </p>
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
