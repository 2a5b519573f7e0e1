"use client";

import { CircleAlertIcon, LoaderIcon } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { type DeletePaper, DeletePaperButton } from "./delete-paper-button";
import { formatAuthors, formatDate } from "./format";
import { type PaperRow, paperHref } from "./types";

function StatusBadge({ paper }: { paper: PaperRow }) {
  if (paper.status === "processing")
    return (
      <Badge variant="warning" data-testid="paper-status">
        <LoaderIcon className="animate-spin motion-reduce:animate-none" aria-hidden />
        Processing
      </Badge>
    );
  if (paper.status === "error")
    return (
      <Badge variant="destructive" data-testid="paper-status">
        <CircleAlertIcon aria-hidden />
        Error
      </Badge>
    );
  return null;
}

export function PaperList({
  papers,
  deletePaper,
  onDeleted,
}: {
  papers: PaperRow[];
  /** Null when the person's role may not delete papers (no delete buttons). */
  deletePaper: DeletePaper | null;
  onDeleted: (id: string, title: string) => void;
}) {
  return (
    <ul className="divide-y rounded-xl border bg-card" data-testid="paper-list">
      {papers.map((paper) => (
        <li
          key={paper.id}
          className="group relative flex items-start gap-4 px-4 py-3.5 transition-colors focus-within:bg-accent/40 hover:bg-accent/40"
          data-testid="paper-row"
          data-paper-id={paper.id}
        >
          <div className="min-w-0 flex-1 space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <Link
                href={paperHref(paper.id)}
                className="rounded-sm font-medium leading-snug outline-none after:absolute after:inset-0 hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
                data-testid="paper-title-link"
              >
                {paper.title}
              </Link>
              <StatusBadge paper={paper} />
            </div>
            <p className="truncate text-muted-foreground text-sm" title={paper.authors.join(", ")}>
              {formatAuthors(paper.authors)}
            </p>
            <dl className="flex flex-wrap gap-x-4 gap-y-1 text-muted-foreground text-xs">
              {paper.year !== null && (
                <div className="flex gap-1">
                  <dt className="sr-only">Year</dt>
                  <dd>{paper.year}</dd>
                </div>
              )}
              {paper.arxivId && (
                <div className="flex gap-1">
                  <dt>arXiv</dt>
                  <dd className="font-mono" data-testid="paper-arxiv-id">
                    {paper.arxivId}
                  </dd>
                </div>
              )}
              <div className="flex gap-1">
                <dt className="sr-only">Pages</dt>
                <dd>
                  {paper.pageCount} {paper.pageCount === 1 ? "page" : "pages"}
                </dd>
              </div>
              <div className="flex gap-1">
                <dt>Added</dt>
                <dd>
                  <time dateTime={paper.createdAt} suppressHydrationWarning>
                    {formatDate(paper.createdAt)}
                  </time>
                </dd>
              </div>
            </dl>
            {paper.status === "error" && paper.error && (
              <p className="text-destructive text-sm" data-testid="paper-error">
                {paper.error}
              </p>
            )}
          </div>
          {/* above the row-wide link overlay */}
          {deletePaper && (
            <div className="relative z-10 shrink-0">
              <DeletePaperButton id={paper.id} title={paper.title} deletePaper={deletePaper} onDeleted={onDeleted} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
