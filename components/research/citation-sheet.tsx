"use client";

import { CircleCheckIcon, CircleSlashIcon, ContrastIcon, ExternalLinkIcon, TriangleAlertIcon } from "lucide-react";
import Link from "next/link";
import { usePaperLinks } from "@/components/paper/paper-links";
import { PdfViewer } from "@/components/pdf/pdf-viewer-loader";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";
import type { CitationTarget } from "./answer-view";

/** Query of the paper page for a citation: its page, with the quoted passage highlighted when there is one. */
export function citationViewerParams(target: CitationTarget): Record<string, string | number | undefined> {
  return { page: target.page, hl: target.quote.trim() || undefined };
}

/**
 * The two verdicts on a cited claim, side by side: does the passage support it, and does it bear on the question
 * (each shown once verification has given it; runs made before relevance was judged have only the first).
 */
export function CitationVerdicts({ target }: { target: CitationTarget }) {
  const { supported, relevance } = target;
  if (supported === null && relevance === null) return null;
  return (
    <ul className="space-y-1" data-testid="citation-sheet-verdicts">
      {supported === true && (
        <li
          className="flex items-start gap-1.5 text-success"
          data-testid="citation-sheet-support"
          data-supported="true"
        >
          <CircleCheckIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>Supported by this passage</span>
        </li>
      )}
      {supported === false && (
        <li
          className="flex items-start gap-1.5 text-warning"
          data-testid="citation-sheet-support"
          data-supported="false"
        >
          <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>Not supported by this passage{target.reason ? `: ${target.reason}` : "."}</span>
        </li>
      )}
      {relevance === "relevant" && (
        <li
          className="flex items-start gap-1.5 text-success"
          data-testid="citation-sheet-relevance"
          data-relevance="relevant"
        >
          <CircleCheckIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>Relevant to the question</span>
        </li>
      )}
      {relevance === "partly" && (
        <li
          className="flex items-start gap-1.5 text-foreground/80"
          data-testid="citation-sheet-relevance"
          data-relevance="partly"
        >
          <ContrastIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>Partly relevant{target.relevanceReason ? `: ${target.relevanceReason}` : " to the question."}</span>
        </li>
      )}
      {relevance === "off_topic" && (
        <li
          className="flex items-start gap-1.5 text-warning"
          data-testid="citation-sheet-relevance"
          data-relevance="off_topic"
        >
          <CircleSlashIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>Off-topic{target.relevanceReason ? `: ${target.relevanceReason}` : " for the question."}</span>
        </li>
      )}
    </ul>
  );
}

/**
 * The cited page beside the answer: the PDF viewer opened at the page with the quote highlighted, the claim it
 * supports (or not) and how it bears on the question, and a link to the paper's own page (in the library, or inside the share link being read).
 */
export function CitationSheet({
  target,
  onOpenChange,
  returnFocusTo,
}: {
  target: CitationTarget | null;
  onOpenChange: (open: boolean) => void;
  /**
   * The element the focus goes back to when the sheet closes: the chip that opened it. Radix gives the focus back to
   * its own Dialog.Trigger only, and the chips in the answer are not one (without this it fell to the page's body).
   */
  returnFocusTo?: () => HTMLElement | null;
}) {
  const links = usePaperLinks();
  const paperPage = target ? links.paperPage(target.paperId, citationViewerParams(target)) : null;
  return (
    <Sheet open={target !== null} onOpenChange={onOpenChange}>
      <SheetContent
        // on a phone the sheet scrolls as a whole: the claim and its verdicts, then the PDF at nearly a screen's height
        className="gap-0 max-sm:overflow-y-auto sm:max-w-3xl"
        data-testid="citation-sheet"
        aria-describedby={undefined}
        onCloseAutoFocus={(e) => {
          const chip = returnFocusTo?.();
          if (!chip) return;
          // instead of Radix's own (to its trigger, which there is none of)
          e.preventDefault();
          chip.focus();
        }}
      >
        {target && (
          <>
            <SheetHeader className="gap-2 border-b max-sm:pr-14">
              <SheetTitle data-testid="citation-sheet-title">{target.title}</SheetTitle>
              <SheetDescription asChild>
                <div className="space-y-2">
                  <p>
                    <span className="font-mono">{target.paperId}</span> · page {target.page}
                  </p>
                  {target.claim && (
                    <blockquote className="border-l-2 pl-3 text-foreground/90" data-testid="citation-sheet-claim">
                      {target.claim}
                    </blockquote>
                  )}
                  <CitationVerdicts target={target} />
                </div>
              </SheetDescription>
              {paperPage && (
                <div>
                  <Button asChild variant="outline" size="sm" className="max-sm:h-10">
                    <Link href={paperPage} data-testid="citation-open-paper">
                      <ExternalLinkIcon />
                      Open the paper's page
                    </Link>
                  </Button>
                </div>
              )}
            </SheetHeader>
            <div className="flex min-h-0 flex-1 flex-col p-3 max-sm:h-[85dvh] max-sm:flex-none max-sm:p-0">
              <PdfViewer
                // a new citation is a new document position: start the viewer afresh
                key={`${target.paperId}:${target.page}:${target.quote}`}
                url={links.pdf(target.paperId)}
                pageCount={target.page}
                initialPage={target.page}
                passage={target.quote || null}
                passagePage={target.quote ? target.page : null}
                className="h-full max-sm:rounded-none max-sm:border-0"
              />
            </div>
          </>
        )}
      </SheetContent>
    </Sheet>
  );
}
