"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  CheckCircle2Icon,
  ChevronDownIcon,
  CircleAlertIcon,
  CopyCheckIcon,
  FileIcon,
  LoaderIcon,
  RefreshCwIcon,
} from "lucide-react";
import Link from "next/link";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Progress } from "@/components/ui/progress";
import { formatDate } from "./format";
import { batchActive, newlyFinished, type QueueBatch, type QueueFile, queueOpenByDefault } from "./job-queue-types";
import { type ApiResult, paperHref } from "./types";

const stageLabels: Record<string, string> = {
  downloading: "Downloading the PDF",
  validating: "Validating",
  extracting: "Extracting text",
  chunking: "Splitting into passages",
  summarizing: "Summarizing",
  embedding: "Embedding passages",
  saving: "Saving",
};
const libraryStageLabels: Record<string, string> = {
  embedding: "Embedding the library's passages",
  neighbours: "Finding similar passages",
  graph: "Building the knowledge graph",
};
const originLabels: Record<string, string> = {
  web: "Upload",
  cli: "Command line",
  arxiv: "arXiv",
  bibliography: "Import",
};

/** How long an idle page's request waits for new work (the server answers at once when a batch is queued). */
const IDLE_WAIT_S = 25;

/**
 * The queue; `idle` the queue the page shows when nothing in it has work left: the server then answers when a batch
 * is queued anywhere (or after IDLE_WAIT_S), so a batch from another page, instance or the CLI appears at once.
 */
async function fetchQueue(signal: AbortSignal, idle: QueueBatch[] | null): Promise<QueueBatch[]> {
  const wait = idle ? `?${new URLSearchParams({ wait: String(IDLE_WAIT_S), newest: idle[0]?.id ?? "" })}` : "";
  const res = await fetch(`/api/ingest/queue${wait}`, { cache: "no-store", signal });
  const body = (await res.json().catch(() => null)) as ApiResult<QueueBatch[]> | null;
  if (!body) throw new Error(`The queue could not be loaded (HTTP ${res.status}).`);
  if (!body.ok) throw new Error(body.error.message);
  return body.data;
}

function describeFile(f: QueueFile): { text: string; progress: number | null | undefined } {
  switch (f.status) {
    case "queued":
      return { text: f.error ? `Waiting to try again · ${f.error}` : "Waiting for a worker", progress: undefined };
    case "running": {
      const label = (f.stage && stageLabels[f.stage]) ?? "Starting";
      const counted = f.of ? ` ${f.done ?? 0}/${f.of}` : "";
      const retry = f.attempts > 1 ? ` (attempt ${f.attempts})` : "";
      return { text: `${label}${counted}${retry}`, progress: f.of ? ((f.done ?? 0) / f.of) * 100 : null };
    }
    case "ingested":
      return { text: "Ingested", progress: undefined };
    case "replaced":
      return { text: "Replaced the earlier version", progress: undefined };
    case "unchanged":
      return { text: "Already in library", progress: undefined };
    case "error":
      return { text: f.error ?? "Could not be ingested.", progress: undefined };
  }
}

function FileStatusIcon({ status }: { status: QueueFile["status"] }) {
  if (status === "ingested") return <CheckCircle2Icon className="text-success" aria-hidden />;
  if (status === "replaced") return <RefreshCwIcon className="text-success" aria-hidden />;
  if (status === "unchanged") return <CopyCheckIcon className="text-muted-foreground" aria-hidden />;
  if (status === "error") return <CircleAlertIcon className="text-destructive" aria-hidden />;
  if (status === "queued") return <FileIcon className="text-muted-foreground" aria-hidden />;
  return <LoaderIcon className="animate-spin text-muted-foreground motion-reduce:animate-none" aria-hidden />;
}

function libraryLine(b: QueueBatch): string | null {
  switch (b.libraryStatus) {
    case "waiting":
      return b.files.every((f) => f.status !== "queued" && f.status !== "running")
        ? "Library step: waiting for a worker"
        : null;
    case "running": {
      const label = (b.libraryStage && libraryStageLabels[b.libraryStage]) ?? "Updating the library";
      return `Library step: ${label}${b.libraryOf ? ` ${b.libraryDone ?? 0}/${b.libraryOf}` : ""}`;
    }
    case "error":
      return `Library step failed: ${b.libraryError ?? "unknown error"} (the papers are stored and found by full text)`;
    default:
      return null;
  }
}

/**
 * The ingestion queue as the server has it — batches queued from any page, instance or the command line, each file's
 * stage, after a reload or a restart. Batches this page is uploading itself are left to its upload list.
 */
export function JobQueue({ exclude }: { exclude: ReadonlySet<string> }) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ["ingest-queue"],
    queryFn: ({ signal }) => {
      const shown = queryClient.getQueryData<QueueBatch[]>(["ingest-queue"]);
      return fetchQueue(signal, shown && !shown.some(batchActive) ? shown : null);
    },
    // with work: read each second; idle: the next waiting request a second after the last one answered; failing
    // (the server is away): every 15 s
    refetchInterval: (q) => (q.state.status === "error" ? 15_000 : 1000),
  });
  const batches = useMemo(() => (query.data ?? []).filter((b) => !exclude.has(b.id)), [query.data, exclude]);
  // when a batch ends, its papers join the list — also one that began and ended between two polls of this page
  const finished = useRef(new Set<string>());
  useEffect(() => {
    if (newlyFinished(batches, finished.current).length > 0)
      void queryClient.invalidateQueries({ queryKey: ["papers"] });
  }, [batches, queryClient]);
  // null: open while there is work or a failure (queueOpenByDefault); the user's choice once they make one
  const [unfolded, setUnfolded] = useState<boolean | null>(null);
  const listId = useId();
  if (batches.length === 0) return null;
  const files = batches.flatMap((b) => b.files);
  const open = files.filter((f) => f.status === "queued" || f.status === "running").length;
  const expanded = unfolded ?? queueOpenByDefault(batches);
  return (
    <section aria-labelledby="queue-heading" className="rounded-xl border bg-card" data-testid="job-queue">
      <div className={cn("flex items-center justify-between gap-2 px-4 py-1.5", expanded && "border-b")}>
        <h2 id="queue-heading" className="font-medium text-sm">
          Processing on the server{" "}
          <span className="text-muted-foreground" data-testid="job-queue-count">
            ({open > 0 ? `${open} of ${files.length} files in progress` : `${files.length} files, all done`})
          </span>
        </h2>
        <Button
          variant="ghost"
          size="sm"
          aria-expanded={expanded}
          aria-controls={listId}
          onClick={() => setUnfolded(!expanded)}
          data-testid="job-queue-toggle"
        >
          {expanded ? "Hide files" : "Show files"}
          <ChevronDownIcon className={cn("transition-transform", expanded && "rotate-180")} aria-hidden />
        </Button>
      </div>
      <ul id={listId} className="divide-y" hidden={!expanded}>
        {batches.map((b) => {
          const line = libraryLine(b);
          return (
            <li key={b.id} className="px-4 py-2" data-testid="job-batch" data-library={b.libraryStatus}>
              <p className="text-muted-foreground text-xs">
                {originLabels[b.origin] ?? b.origin} · {formatDate(b.createdAt, true)}
              </p>
              <ul>
                {b.files.map((f) => {
                  const { text, progress } = describeFile(f);
                  return (
                    <li
                      key={f.id}
                      className="flex items-start gap-3 py-1.5 [&>svg]:mt-0.5 [&>svg]:size-4 [&>svg]:shrink-0"
                      data-testid="job-file"
                      data-file={f.name}
                      data-status={f.status}
                    >
                      <FileStatusIcon status={f.status} />
                      <div className="min-w-0 flex-1 space-y-1">
                        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                          <p className="truncate font-medium text-sm" title={f.name}>
                            {f.name}
                          </p>
                          {f.paperId && f.status !== "error" && (
                            <Link
                              href={paperHref(f.paperId)}
                              className="rounded-sm text-primary text-xs underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
                            >
                              Open paper
                            </Link>
                          )}
                        </div>
                        <p
                          className={cn("text-xs", f.status === "error" ? "text-destructive" : "text-muted-foreground")}
                        >
                          {text}
                        </p>
                        {progress !== undefined && <Progress value={progress} aria-label={`${f.name}: ${text}`} />}
                      </div>
                    </li>
                  );
                })}
              </ul>
              {line && (
                <p
                  className={cn(
                    "pt-1 text-xs",
                    b.libraryStatus === "error" ? "text-destructive" : "text-muted-foreground",
                  )}
                  data-testid="job-library"
                >
                  {line}
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
