"use client";

import dynamic from "next/dynamic";
import { Skeleton } from "@/components/ui/skeleton";
import type { PdfViewerProps } from "./pdf-viewer";

/** pdf.js needs the browser (canvas, workers): the viewer is never rendered on the server. */
export const PdfViewer = dynamic<PdfViewerProps>(() => import("./pdf-viewer"), {
  ssr: false,
  loading: () => (
    <div className="flex min-h-0 flex-1 flex-col gap-3 rounded-xl border bg-card p-3" data-testid="pdf-viewer-loading">
      <Skeleton className="h-8 w-72" />
      <Skeleton className="min-h-[60vh] flex-1" />
    </div>
  ),
});
