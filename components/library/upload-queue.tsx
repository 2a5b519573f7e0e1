"use client";

import {
  CheckCircle2Icon,
  CircleAlertIcon,
  CopyCheckIcon,
  FileIcon,
  LoaderIcon,
  RefreshCwIcon,
  XIcon,
} from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Progress } from "@/components/ui/progress";
import type { IngestStage, LibraryStage } from "@/lib/ingest/progress";
import { formatBytes } from "./format";
import { paperHref } from "./types";
import { isFinished, type UploadItem, type UploadPhase } from "./use-upload-queue";

const stageLabels: Record<IngestStage, string> = {
  downloading: "Downloading the PDF",
  validating: "Validating",
  extracting: "Extracting text",
  chunking: "Splitting into passages",
  summarizing: "Summarizing",
  embedding: "Embedding passages",
  saving: "Saving",
};

const libraryStageLabels: Record<LibraryStage, string> = {
  embedding: "Embedding passages",
  neighbours: "Finding similar passages",
};

/** A stable, testable name for where a file is. */
export function phaseStatus(phase: UploadPhase): string {
  switch (phase.kind) {
    case "done":
      return phase.result.status;
    case "failed":
      return "error";
    case "stage":
    case "library":
      return phase.stage;
    default:
      return phase.kind;
  }
}

function describePhase(phase: UploadPhase, size: number): { text: string; progress: number | null | undefined } {
  switch (phase.kind) {
    case "queued":
      return { text: "Waiting", progress: undefined };
    case "uploading": {
      const total = phase.total || size;
      return {
        text: `Uploading ${formatBytes(phase.loaded)} of ${formatBytes(total)}`,
        progress: total ? (phase.loaded / total) * 100 : null,
      };
    }
    case "processing":
      return { text: "Uploaded — processing", progress: null };
    case "stage":
    case "library": {
      const counted = phase.of ? ` ${phase.done ?? 0}/${phase.of}` : "";
      const label = phase.kind === "stage" ? stageLabels[phase.stage] : libraryStageLabels[phase.stage];
      return {
        text: `${label}${counted}`,
        progress: phase.of ? ((phase.done ?? 0) / phase.of) * 100 : null,
      };
    }
    case "done": {
      const r = phase.result;
      const detail = r.pages ? ` · ${r.pages} pages, ${r.chunks} passages` : "";
      if (r.status === "ingested") return { text: `Ingested${detail}`, progress: undefined };
      if (r.status === "replaced") return { text: `Replaced the earlier version${detail}`, progress: undefined };
      if (r.status === "unchanged") return { text: "Already in library", progress: undefined };
      return { text: r.error ?? "Could not be ingested.", progress: undefined };
    }
    case "failed":
      return { text: phase.message, progress: undefined };
    case "cancelled":
      return { text: "Cancelled", progress: undefined };
  }
}

function StatusIcon({ phase }: { phase: UploadPhase }) {
  if (phase.kind === "done") {
    const s = phase.result.status;
    if (s === "ingested") return <CheckCircle2Icon className="text-success" aria-hidden />;
    if (s === "replaced") return <RefreshCwIcon className="text-success" aria-hidden />;
    if (s === "unchanged") return <CopyCheckIcon className="text-muted-foreground" aria-hidden />;
    return <CircleAlertIcon className="text-destructive" aria-hidden />;
  }
  if (phase.kind === "failed") return <CircleAlertIcon className="text-destructive" aria-hidden />;
  if (phase.kind === "cancelled" || phase.kind === "queued")
    return <FileIcon className="text-muted-foreground" aria-hidden />;
  return <LoaderIcon className="animate-spin text-muted-foreground motion-reduce:animate-none" aria-hidden />;
}

export function UploadQueue({
  items,
  onCancel,
  onClearFinished,
}: {
  items: UploadItem[];
  onCancel: (id: string) => void;
  onClearFinished: () => void;
}) {
  if (items.length === 0) return null;
  const finished = items.filter((it) => isFinished(it.phase)).length;
  return (
    <section aria-labelledby="uploads-heading" className="rounded-xl border bg-card" data-testid="upload-queue">
      <div className="flex items-center justify-between gap-2 border-b px-4 py-2.5">
        <h2 id="uploads-heading" className="font-medium text-sm">
          Uploads{" "}
          <span className="text-muted-foreground">
            ({finished} of {items.length} done)
          </span>
        </h2>
        {finished > 0 && (
          <Button variant="ghost" size="sm" onClick={onClearFinished} data-testid="upload-clear-finished">
            Clear finished
          </Button>
        )}
      </div>
      <ul className="divide-y">
        {items.map((item) => {
          const { text, progress } = describePhase(item.phase, item.size);
          const status = phaseStatus(item.phase);
          const isError = status === "error";
          const result = item.phase.kind === "done" ? item.phase.result : null;
          // once the server has the file it is queued there: closing or cancelling the page no longer stops it
          const canCancel = item.phase.kind === "queued" || item.phase.kind === "uploading";
          return (
            <li
              key={item.id}
              className="flex items-start gap-3 px-4 py-3 [&>svg]:mt-0.5 [&>svg]:size-4 [&>svg]:shrink-0"
              data-testid="upload-item"
              data-file={item.name}
              data-status={status}
            >
              <StatusIcon phase={item.phase} />
              <div className="min-w-0 flex-1 space-y-1.5">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
                  <p className="truncate font-medium text-sm" title={item.name}>
                    {item.name}
                    <span className="ml-2 font-normal text-muted-foreground text-xs">{formatBytes(item.size)}</span>
                  </p>
                  {result?.paper_id && result.status !== "error" && (
                    <Link
                      href={paperHref(result.paper_id)}
                      className="rounded-sm text-primary text-xs underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
                    >
                      Open paper
                    </Link>
                  )}
                </div>
                <p
                  className={cn("text-xs", isError ? "text-destructive" : "text-muted-foreground")}
                  data-testid="upload-item-status"
                >
                  {result?.status === "unchanged" ? <Badge variant="secondary">{text}</Badge> : text}
                </p>
                {progress !== undefined && <Progress value={progress} aria-label={`${item.name}: ${text}`} />}
              </div>
              {canCancel && (
                <Button
                  variant="ghost"
                  size="icon-sm"
                  onClick={() => onCancel(item.id)}
                  aria-label={`Cancel ${item.name}`}
                  className="-my-1"
                >
                  <XIcon />
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
