"use client";

import {
  ChevronLeftIcon,
  ChevronRightIcon,
  CircleAlertIcon,
  HighlighterIcon,
  MinusIcon,
  PlusIcon,
  ScanIcon,
} from "lucide-react";
import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Document, Page, pdfjs } from "react-pdf";
import "react-pdf/dist/Page/AnnotationLayer.css";
import "react-pdf/dist/Page/TextLayer.css";
import { replacePageInUrl } from "@/components/library/types";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { fitPageWidth, PHONE_QUERY } from "./fit-width";
import { findPassage, renderMarkedText } from "./highlight";

// The worker must be the same pdfjs-dist version react-pdf runs (pinned in package.json).
pdfjs.GlobalWorkerOptions.workerSrc = new URL("pdfjs-dist/build/pdf.worker.min.mjs", import.meta.url).toString();

const ZOOM_STEPS = [0.5, 0.67, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3] as const;
const MIN_ZOOM = ZOOM_STEPS[0];
const MAX_ZOOM = ZOOM_STEPS[ZOOM_STEPS.length - 1] as number;

export interface PdfViewerProps {
  /** Where the PDF is served (supports range requests). */
  url: string;
  /** Page count from the library, used until the document itself has loaded. */
  pageCount: number;
  /** Page opened first (from `?page=`). */
  initialPage: number;
  /** A passage to highlight (from `?hl=` or resolved from `?start=&end=`), on `passagePage`. */
  passage: string | null;
  passagePage: number | null;
  className?: string;
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

function ToolbarButton({
  label,
  shortcut,
  ...props
}: React.ComponentProps<typeof Button> & { label: string; shortcut?: string }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={label}
          aria-keyshortcuts={shortcut}
          {...props}
          // a finger's target on a phone (40 px), the compact toolbar elsewhere
          className={cn("max-sm:size-10", props.className)}
        />
      </TooltipTrigger>
      <TooltipContent>
        {label}
        {shortcut ? ` (${shortcut})` : ""}
      </TooltipContent>
    </Tooltip>
  );
}

export default function PdfViewer({ url, pageCount, initialPage, passage, passagePage, className }: PdfViewerProps) {
  const searchParams = useSearchParams();
  const [numPages, setNumPages] = useState<number | null>(null);
  const total = numPages ?? Math.max(pageCount, 1);
  const [page, setPage] = useState(() => clamp(initialPage, 1, total));
  const [pageInput, setPageInput] = useState(String(page));
  const [zoom, setZoom] = useState(1);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [pageError, setPageError] = useState<string | null>(null);
  const [textItems, setTextItems] = useState<{ page: number; items: readonly unknown[] } | null>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const [containerWidth, setContainerWidth] = useState(0);
  // pdf.js runs in the browser only (the loader never renders this on the server), so the first render can ask
  const [phone, setPhone] = useState(() => typeof window !== "undefined" && window.matchMedia?.(PHONE_QUERY).matches);

  // Follow the URL when it changes from outside (a link to another page of this paper).
  const urlPage = Number(searchParams.get("page"));
  useEffect(() => {
    if (Number.isInteger(urlPage) && urlPage >= 1) setPage((p) => (p === urlPage ? p : clamp(urlPage, 1, total)));
  }, [urlPage, total]);

  useEffect(() => setPageInput(String(page)), [page]);

  /** Turns the page and records it in the URL (without a server round trip). The highlight belongs to its page. */
  const goTo = useCallback(
    (target: number) => {
      const next = clamp(Math.round(target), 1, total);
      setPage(next);
      replacePageInUrl(next, next === passagePage);
    },
    [total, passagePage],
  );

  useEffect(() => {
    const el = scrollerRef.current;
    if (!el) return;
    const ro = new ResizeObserver(([entry]) => {
      if (entry) setContainerWidth(Math.floor(entry.contentRect.width));
    });
    ro.observe(el);
    const media = window.matchMedia?.(PHONE_QUERY);
    const onMedia = () => setPhone(Boolean(media?.matches));
    media?.addEventListener("change", onMedia);
    return () => {
      ro.disconnect();
      media?.removeEventListener("change", onMedia);
    };
  }, []);

  const pageWidth = fitPageWidth(containerWidth, zoom, phone);

  const activePassage = passage && page === passagePage ? passage : null;
  const match = useMemo(() => {
    if (!activePassage || !textItems || textItems.page !== page) return undefined;
    return findPassage(textItems.items, activePassage);
  }, [activePassage, textItems, page]);

  const customTextRenderer = useMemo(() => {
    if (!match) return undefined;
    return ({ itemIndex, str }: { itemIndex: number; str: string }) =>
      renderMarkedText(str, match.ranges.get(itemIndex));
  }, [match]);

  // The page's own links (its citations, figure and section references): named for screen readers, and out of the Tab
  // order — a page of a paper has dozens, between the toolbar and whatever follows the viewer; the arrow keys turn pages
  const onAnnotationLayerRendered = useCallback(() => {
    // (and its annotations' sections, which pdf.js makes focusable for their popups)
    for (const section of scrollerRef.current?.querySelectorAll<HTMLElement>(".annotationLayer section[tabindex]") ??
      [])
      section.tabIndex = -1;
    for (const a of scrollerRef.current?.querySelectorAll<HTMLAnchorElement>(".annotationLayer a") ?? []) {
      a.tabIndex = -1;
      if (a.getAttribute("aria-label") || a.textContent?.trim()) continue;
      const href = a.getAttribute("href") ?? "";
      a.setAttribute("aria-label", /^https?:/i.test(href) ? `Link to ${href}` : "Link to another place in this paper");
    }
  }, []);

  // Bring the highlight into view once per page and passage (not again on every zoom).
  const scrolledFor = useRef<string | null>(null);
  const onTextLayerRendered = useCallback(() => {
    const key = `${page}:${activePassage}`;
    if (!activePassage || scrolledFor.current === key) return;
    const scroller = scrollerRef.current;
    const mark = scroller?.querySelector("mark.lectern-hl");
    if (scroller && mark) {
      scrolledFor.current = key;
      // only the viewer's own scroller moves (scrollIntoView scrolled the window too, under the sticky header)
      const at = mark.getBoundingClientRect();
      const box = scroller.getBoundingClientRect();
      scroller.scrollTop += at.top - box.top - (box.height - at.height) / 2;
      if (at.left < box.left || at.right > box.right)
        scroller.scrollLeft += at.left - box.left - (box.width - at.width) / 2;
    }
  }, [page, activePassage]);

  const zoomBy = useCallback((dir: 1 | -1) => {
    setZoom((z) => {
      const i = ZOOM_STEPS.findIndex((s) => s >= z - 1e-6);
      const nextIndex = clamp((i === -1 ? ZOOM_STEPS.length - 1 : i) + dir, 0, ZOOM_STEPS.length - 1);
      return ZOOM_STEPS[nextIndex] ?? 1;
    });
  }, []);

  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    const t = e.target as HTMLElement;
    if (t.tagName === "INPUT" || e.metaKey || e.ctrlKey || e.altKey) return;
    switch (e.key) {
      // Page Up/Down and Home/End keep scrolling within a zoomed page.
      case "ArrowLeft":
        goTo(page - 1);
        break;
      case "ArrowRight":
        goTo(page + 1);
        break;
      case "+":
      case "=":
        zoomBy(1);
        break;
      case "-":
        zoomBy(-1);
        break;
      case "0":
        setZoom(1);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const commitPageInput = () => {
    const n = Number(pageInput);
    if (Number.isFinite(n) && n >= 1) goTo(n);
    else setPageInput(String(page));
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the region handles page keys for everything inside it
    <div
      className={cn("flex min-h-0 flex-col overflow-hidden rounded-xl border bg-card", className)}
      data-testid="pdf-viewer"
      data-page={page}
      onKeyDown={onKeyDown}
    >
      <div
        className="flex flex-wrap items-center gap-1 border-b px-2 py-1.5"
        role="toolbar"
        aria-label="PDF navigation and zoom"
      >
        <ToolbarButton
          label="Previous page"
          shortcut="ArrowLeft"
          onClick={() => goTo(page - 1)}
          disabled={page <= 1}
          data-testid="pdf-prev"
        >
          <ChevronLeftIcon />
        </ToolbarButton>
        <form
          className="flex items-center gap-1.5 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            commitPageInput();
          }}
        >
          <label htmlFor="pdf-page-input" className="sr-only">
            Page number
          </label>
          <Input
            id="pdf-page-input"
            inputMode="numeric"
            value={pageInput}
            onChange={(e) => setPageInput(e.target.value.replace(/[^\d]/g, ""))}
            onBlur={commitPageInput}
            onFocus={(e) => e.currentTarget.select()}
            className="h-8 w-14 text-center max-sm:h-10"
            data-testid="pdf-page-input"
          />
          <span className="text-muted-foreground" data-testid="pdf-page-count">
            of {total}
          </span>
        </form>
        <ToolbarButton
          label="Next page"
          shortcut="ArrowRight"
          onClick={() => goTo(page + 1)}
          disabled={page >= total}
          data-testid="pdf-next"
        >
          <ChevronRightIcon />
        </ToolbarButton>
        <div className="mx-1 h-5 w-px bg-border max-sm:hidden" aria-hidden />
        {/* on a phone the zoom buttons sit at the right end of the row, and the level is only announced (no room) */}
        <ToolbarButton
          label="Zoom out"
          shortcut="-"
          onClick={() => zoomBy(-1)}
          disabled={zoom <= MIN_ZOOM}
          className="max-sm:ml-auto"
        >
          <MinusIcon />
        </ToolbarButton>
        <span className="w-12 text-center text-muted-foreground text-sm tabular-nums max-sm:sr-only" aria-live="polite">
          <span className="sr-only">Zoom </span>
          {Math.round(zoom * 100)}%
        </span>
        <ToolbarButton label="Zoom in" shortcut="+" onClick={() => zoomBy(1)} disabled={zoom >= MAX_ZOOM}>
          <PlusIcon />
        </ToolbarButton>
        <ToolbarButton label="Fit width" shortcut="0" onClick={() => setZoom(1)} disabled={zoom === 1}>
          <ScanIcon />
        </ToolbarButton>
        {activePassage && match !== undefined && (
          <p
            className={cn(
              "ml-auto flex items-center gap-1.5 px-2 text-xs max-sm:ml-0 max-sm:basis-full max-sm:py-1 [&>svg]:size-3.5",
              match ? "text-muted-foreground" : "text-warning",
            )}
            data-testid="highlight-status"
            data-state={match ? (match.complete ? "found" : "partial") : "not-found"}
            role="status"
          >
            {match ? <HighlighterIcon aria-hidden /> : <CircleAlertIcon aria-hidden />}
            {match
              ? match.complete
                ? "Passage highlighted"
                : `Closest match highlighted (${match.matchedWords} of ${match.totalWords} words)`
              : "The passage was not found in this page's text"}
          </p>
        )}
      </div>

      <div
        ref={scrollerRef}
        // on a phone the page fills the width (fit-width.ts): no padding at the sides
        className="relative min-h-0 flex-1 overflow-auto bg-muted/60 px-0 py-2 outline-none sm:p-4 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:ring-inset"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the page area is focusable so ←/→ and scrolling work from the keyboard
        tabIndex={0}
        role="region"
        aria-label={`PDF, page ${page} of ${total}. Use the left and right arrow keys to turn pages.`}
        data-testid="pdf-scroller"
      >
        {loadError ? (
          <Alert variant="destructive" className="mx-auto max-w-md" data-testid="pdf-error">
            <CircleAlertIcon />
            <AlertTitle>The PDF could not be opened</AlertTitle>
            <AlertDescription>{loadError}</AlertDescription>
          </Alert>
        ) : (
          <Document
            file={url}
            // our own loading and error states, rather than suspending into an error boundary
            suspense={false}
            onLoadSuccess={(doc) => {
              setNumPages(doc.numPages);
              setLoadError(null);
              setPage((p) => clamp(p, 1, doc.numPages));
            }}
            onLoadError={(err) =>
              setLoadError(
                /missing|404/i.test(err.message)
                  ? "The PDF file is missing from the library's data directory."
                  : `${err.message || "Unknown error."}`,
              )
            }
            loading={<PageSkeleton width={pageWidth} />}
            error={null}
            // centred while it fits; zoomed wider than the scroller, it starts at the left edge (plain centring put its
            // left part out of reach of the scrollbar)
            className="flex justify-center-safe"
          >
            <div className="w-fit shadow-md" data-testid="pdf-page" data-page-number={page}>
              <Page
                key={page}
                pageNumber={page}
                width={pageWidth}
                renderTextLayer
                renderAnnotationLayer
                customTextRenderer={customTextRenderer}
                onGetTextSuccess={(content) => setTextItems({ page, items: content.items })}
                onRenderTextLayerSuccess={onTextLayerRendered}
                onRenderAnnotationLayerSuccess={onAnnotationLayerRendered}
                onLoadError={(err) => setPageError(err.message)}
                onLoadSuccess={() => setPageError(null)}
                loading={<PageSkeleton width={pageWidth} />}
                error={
                  <div className="p-6 text-destructive text-sm">
                    Page {page} could not be rendered{pageError ? `: ${pageError}` : "."}
                  </div>
                }
                canvasBackground="white"
              />
            </div>
          </Document>
        )}
      </div>
    </div>
  );
}

function PageSkeleton({ width }: { width: number | undefined }) {
  const w = width ?? 600;
  return (
    <Skeleton
      className="mx-auto rounded-none bg-background"
      style={{ width: w, height: Math.round(w * 1.294) }}
      data-testid="pdf-loading"
      aria-label="Loading PDF"
    />
  );
}
