"use client";

import { ArrowLeftIcon, CircleAlertIcon } from "lucide-react";
import Link from "next/link";
import type * as React from "react";
import { PdfViewer } from "@/components/pdf/pdf-viewer-loader";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Separator } from "@/components/ui/separator";
import type { SaveMetadata } from "./metadata-editor";
import { PaperDetails } from "./paper-details";
import { libraryPaperLinks, type PaperLinks, PaperLinksProvider, usePaperLinks } from "./paper-links";
import { PaperMetadata } from "./paper-metadata";
import { PaperOutline } from "./paper-outline";
import type { PaperDetailView } from "./types";

export function PaperView({
  paper,
  initialPage,
  passage,
  summary,
  saveMetadata,
  readOnly = false,
  links = libraryPaperLinks,
  back = { href: "/", label: "Library" },
}: {
  paper: PaperDetailView;
  /** The server action that corrects the paper's metadata. */
  /** Null when the person's role may not edit metadata. */
  saveMetadata: SaveMetadata | null;
  /** The rendered summary (a server component: the markdown renderer stays off the client bundle). */
  summary: React.ReactNode;
  initialPage: number;
  /** The passage to highlight on `initialPage`, if the URL asked for one. */
  passage: string | null;
  /** Read through a share link: the paper's details without the library's records, no editing. */
  readOnly?: boolean;
  /** Where the PDF and the contents' pages are (the library's by default; a share link's inside one). */
  links?: PaperLinks;
  /** The way back, above the title. */
  back?: { href: string; label: string };
}) {
  return (
    <PaperLinksProvider links={links}>
      <PaperLayout
        paper={paper}
        initialPage={initialPage}
        passage={passage}
        summary={summary}
        details={
          readOnly ? (
            <section aria-labelledby="details-heading" className="space-y-2">
              <h2 id="details-heading" className="font-semibold text-sm">
                Details
              </h2>
              <PaperMetadata paper={paper} shared />
            </section>
          ) : (
            <PaperDetails paper={paper} saveMetadata={saveMetadata} />
          )
        }
        back={back}
      />
    </PaperLinksProvider>
  );
}

function PaperLayout({
  paper,
  initialPage,
  passage,
  summary,
  details,
  back,
}: {
  paper: PaperDetailView;
  summary: React.ReactNode;
  initialPage: number;
  passage: string | null;
  details: React.ReactNode;
  back: { href: string; label: string };
}) {
  const links = usePaperLinks();
  return (
    // Narrow screens: title, then the PDF, then the details. Wide: details on the left, the PDF on the right.
    <div className="grid grid-cols-1 gap-6 lg:h-[calc(100dvh-6.5rem)] lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)] lg:grid-rows-[auto_minmax(0,1fr)] lg:gap-y-4">
      <header className="min-w-0 space-y-3 lg:col-start-1 lg:row-start-1 lg:pr-2">
        <Link
          href={back.href}
          className="inline-flex items-center gap-1 rounded-sm text-muted-foreground text-sm outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
          data-testid="paper-back"
        >
          <ArrowLeftIcon className="size-4" aria-hidden />
          {back.label}
        </Link>
        <h1 className="font-semibold text-xl leading-snug tracking-tight" data-testid="paper-title">
          {paper.title}
        </h1>
        {paper.status !== "ready" && (
          <Badge variant={paper.status === "error" ? "destructive" : "warning"} data-testid="paper-status">
            {paper.status === "error" ? "Error" : "Processing"}
          </Badge>
        )}
      </header>
      {/* on a phone the viewer runs from edge to edge of the screen (out of the page's side padding): every pixel for the PDF */}
      <section
        aria-label="PDF"
        className="flex min-w-0 flex-col max-sm:-mx-4 lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:min-h-0"
      >
        <PdfViewer
          url={links.pdf(paper.id)}
          pageCount={paper.pageCount}
          initialPage={initialPage}
          passage={passage}
          passagePage={passage ? initialPage : null}
          className="h-[80vh] max-sm:rounded-none max-sm:border-x-0 lg:h-full"
        />
      </section>
      <div className="min-w-0 space-y-5 lg:col-start-1 lg:row-start-2 lg:overflow-y-auto lg:pr-2">
        {paper.status === "error" && paper.error && (
          <Alert variant="destructive">
            <CircleAlertIcon />
            <AlertTitle>Ingestion failed</AlertTitle>
            <AlertDescription>{paper.error}</AlertDescription>
          </Alert>
        )}
        {details}
        <PaperOutline paperId={paper.id} outline={paper.outline} />
        {paper.abstract && (
          <section aria-labelledby="abstract-heading" className="space-y-2">
            <h2 id="abstract-heading" className="font-semibold text-sm">
              Abstract
            </h2>
            <p className="text-muted-foreground text-sm leading-relaxed">{paper.abstract}</p>
          </section>
        )}
        <Separator />
        <section aria-labelledby="summary-heading" className="space-y-2 pb-2">
          <h2 id="summary-heading" className="font-semibold text-sm">
            Summary
          </h2>
          {summary}
        </section>
      </div>
    </div>
  );
}
