"use client";

import {
  CheckCircle2Icon,
  CircleAlertIcon,
  CloudDownloadIcon,
  CopyCheckIcon,
  FileTextIcon,
  LoaderIcon,
  RefreshCwIcon,
} from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Progress } from "@/components/ui/progress";
import type { SourceItemStatus, SourceStage } from "@/lib/sources/types";
import { paperHref } from "./types";
import type { SourceItemView } from "./use-source-run";

const stageLabels: Record<SourceStage, string> = {
  looking_up: "Looking up on arXiv",
  downloading: "Downloading the PDF",
  validating: "Validating",
  extracting: "Extracting text",
  chunking: "Splitting into passages",
  summarizing: "Summarizing",
  embedding: "Embedding passages",
  saving: "Saving",
};

const statusLabels: Record<SourceItemStatus, string> = {
  ingested: "Added",
  replaced: "Replaced the older version",
  already_in_library: "Already in library",
  update_available: "Newer version available",
  arxiv_available: "No PDF in the export",
  no_pdf: "Metadata only, no PDF",
  queued: "Queued",
  error: "Failed",
};

function StatusIcon({ item }: { item: SourceItemView }) {
  const s = item.result?.status;
  if (!s) return <LoaderIcon className="animate-spin text-muted-foreground motion-reduce:animate-none" aria-hidden />;
  if (s === "ingested") return <CheckCircle2Icon className="text-success" aria-hidden />;
  if (s === "replaced") return <RefreshCwIcon className="text-success" aria-hidden />;
  if (s === "already_in_library") return <CopyCheckIcon className="text-muted-foreground" aria-hidden />;
  if (s === "update_available" || s === "arxiv_available")
    return <CloudDownloadIcon className="text-primary" aria-hidden />;
  if (s === "no_pdf") return <FileTextIcon className="text-muted-foreground" aria-hidden />;
  return <CircleAlertIcon className="text-destructive" aria-hidden />;
}

/**
 * Each item of an arXiv add or a bibliography import: its stage while it runs, then what happened, with a way on
 * where there is one (replace with the newer version, fetch from arXiv).
 */
export function SourceItems({
  title,
  items,
  running,
  onReplace,
  onFetchFromArxiv,
}: {
  title: string;
  items: SourceItemView[];
  running: boolean;
  /** Replace the library's older version of this arXiv paper. */
  onReplace?: (arxivId: string) => void;
  /** Download an entry that has no PDF from arXiv. */
  onFetchFromArxiv?: (arxivId: string) => void;
}) {
  if (items.length === 0) return null;
  const finished = items.filter((it) => it.result).length;
  return (
    <section aria-label={title} className="rounded-lg border bg-card" data-testid="source-items">
      <h3 className="border-b px-3 py-2 font-medium text-sm">
        {title}{" "}
        <span className="text-muted-foreground">
          ({finished} of {items.length} done)
        </span>
      </h3>
      <ul className="divide-y">
        {items.map((item) => {
          const r = item.result;
          const stageText = item.stage
            ? `${stageLabels[item.stage]}${item.of ? ` ${item.done ?? 0}/${item.of}` : ""}`
            : "Waiting";
          const text = !r
            ? stageText
            : r.status === "error"
              ? (r.error ?? "Failed.")
              : [statusLabels[r.status], r.pages ? `${r.pages} pages, ${r.chunks} passages` : null, r.detail]
                  .filter(Boolean)
                  .join(" · ");
          return (
            <li
              key={item.index}
              className="flex items-start gap-3 px-3 py-2.5 [&>svg]:mt-0.5 [&>svg]:size-4 [&>svg]:shrink-0"
              data-testid="source-item"
              data-item={item.label}
              data-status={r?.status ?? item.stage ?? "waiting"}
            >
              <StatusIcon item={item} />
              <div className="min-w-0 flex-1 space-y-1">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
                  <p className="truncate font-medium text-sm" title={item.label}>
                    {r?.title ?? item.label}
                    {r?.title && <span className="ml-2 font-normal text-muted-foreground text-xs">{item.label}</span>}
                  </p>
                  <div className="flex items-center gap-2">
                    {r?.paper_id && r.status !== "error" && (
                      <Link
                        href={paperHref(r.paper_id)}
                        className="rounded-sm text-primary text-xs underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
                      >
                        Open paper
                      </Link>
                    )}
                    {r?.status === "update_available" && r.arxiv_id && onReplace && (
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => onReplace(r.arxiv_id as string)}
                        disabled={running}
                      >
                        Replace with {r.arxiv_id}
                      </Button>
                    )}
                    {r?.status === "arxiv_available" && r.arxiv_id && onFetchFromArxiv && (
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => onFetchFromArxiv(r.arxiv_id as string)}
                        disabled={running}
                      >
                        Add from arXiv
                      </Button>
                    )}
                  </div>
                </div>
                <p
                  className={cn("text-xs", r?.status === "error" ? "text-destructive" : "text-muted-foreground")}
                  data-testid="source-item-status"
                >
                  {text}
                </p>
                {!r && item.of ? (
                  <Progress value={((item.done ?? 0) / item.of) * 100} aria-label={`${item.label}: ${stageText}`} />
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
