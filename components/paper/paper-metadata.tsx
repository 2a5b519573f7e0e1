import { ExternalLinkIcon } from "lucide-react";
import type * as React from "react";
import { formatBytes, formatDate } from "@/components/library/format";
import { Badge } from "@/components/ui/badge";
import { describeFields } from "./metadata-form";
import type { PaperDetailView } from "./types";

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-[7rem_1fr] gap-2 py-1.5">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function ExternalLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noreferrer noopener"
      className="inline-flex items-center gap-1 rounded-sm text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      {children}
      <ExternalLinkIcon className="size-3" aria-hidden />
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}

/** `shared`: read through a share link — the paper's own details only, not the library's records of its file. */
export function PaperMetadata({ paper, shared = false }: { paper: PaperDetailView; shared?: boolean }) {
  return (
    <dl className="divide-y text-sm" data-testid="paper-metadata">
      <Row label="Authors" testId="meta-authors">
        {paper.authors.length ? paper.authors.join(", ") : <span className="text-muted-foreground">Unknown</span>}
      </Row>
      {(paper.publishedDate || paper.year !== null) && (
        <Row label="Published" testId="meta-published">
          {paper.publishedDate ? (
            <time dateTime={paper.publishedDate}>{formatDate(`${paper.publishedDate}T12:00:00Z`)}</time>
          ) : (
            paper.year
          )}
        </Row>
      )}
      {paper.arxivId && (
        <Row label="arXiv" testId="meta-arxiv">
          <ExternalLink href={`https://arxiv.org/abs/${encodeURI(paper.arxivId)}`}>
            <span className="font-mono">{paper.arxivId}</span>
          </ExternalLink>
        </Row>
      )}
      {paper.categories.length > 0 && (
        <Row label="Categories" testId="meta-categories">
          <span className="flex flex-wrap gap-1">
            {paper.categories.map((c) => (
              <Badge key={c} variant="outline" className="font-mono">
                {c}
              </Badge>
            ))}
          </span>
        </Row>
      )}
      {paper.venue && (
        <Row label="Venue" testId="meta-venue">
          {paper.venue}
        </Row>
      )}
      {paper.doi && (
        <Row label="DOI" testId="meta-doi">
          <ExternalLink href={`https://doi.org/${encodeURI(paper.doi)}`}>{paper.doi}</ExternalLink>
        </Row>
      )}
      <Row label="Pages" testId="meta-pages">
        {paper.pageCount}
      </Row>
      {!shared && (
        <>
          <Row label="Passages" testId="meta-chunks">
            {paper.chunkCount}
          </Row>
          <Row label="File" testId="meta-file">
            {paper.fileName} <span className="text-muted-foreground">({formatBytes(paper.fileSize)})</span>
          </Row>
          {paper.editedFields.length > 0 && (
            <Row label="Corrected" testId="meta-edited">
              <span className="text-muted-foreground">{describeFields(paper.editedFields)} (by hand)</span>
            </Row>
          )}
          <Row label="Added" testId="meta-added">
            <time dateTime={paper.createdAt} suppressHydrationWarning>
              {formatDate(paper.createdAt, true)}
            </time>
          </Row>
        </>
      )}
    </dl>
  );
}
