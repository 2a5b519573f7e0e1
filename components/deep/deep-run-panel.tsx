"use client";

import {
  ChevronDownIcon,
  CircleCheckIcon,
  CircleSlashIcon,
  CircleXIcon,
  GitBranchIcon,
  InfoIcon,
  LoaderIcon,
  MinusIcon,
  PencilIcon,
  PlusIcon,
  RefreshCwIcon,
  WaypointsIcon,
} from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from "@/components/ui/collapsible";
import type { Outline } from "@/lib/research/deep/types";
import type { ResearchRunState, RunStatus } from "@/lib/research/types";
import { OutlineEditor } from "./outline-editor";
import { OutlineView, yearsText } from "./outline-view";
import type { DeepRunInfo, DeepVersion } from "./types";
import { type ChangeKind, changeLines, changeSummary, versionLabel } from "./versions";

/** The outline a deep run's first step carries (known while it streams, before the saved run can be read). */
export function outlineOfSteps(run: ResearchRunState): Outline | null {
  for (const step of run.steps) if (step.type === "outline" && step.data) return step.data.outline;
  return null;
}

/** A deep run starts with its `outline` step; a quick one with `analysis`. */
export function isDeepRun(run: ResearchRunState): boolean {
  return run.steps.some((s) => s.type === "outline");
}

function StatusIcon({ status }: { status: RunStatus }) {
  const cls = "size-3.5 shrink-0";
  if (status === "running")
    return (
      <LoaderIcon className={cn(cls, "animate-spin text-primary motion-reduce:animate-none")} aria-label="running" />
    );
  if (status === "completed") return <CircleCheckIcon className={cn(cls, "text-success")} aria-label="finished" />;
  if (status === "failed") return <CircleXIcon className={cn(cls, "text-destructive")} aria-label="failed" />;
  return <CircleSlashIcon className={cn(cls, "text-muted-foreground")} aria-label="cancelled" />;
}

const changeIcon: Partial<Record<ChangeKind, React.ReactNode>> = {
  added: <PlusIcon className="size-3.5 text-success" aria-hidden />,
  removed: <MinusIcon className="size-3.5 text-destructive" aria-hidden />,
  changed: <PencilIcon className="size-3 text-warning" aria-hidden />,
  title: <PencilIcon className="size-3 text-warning" aria-hidden />,
  years: <PencilIcon className="size-3 text-warning" aria-hidden />,
  reordered: <RefreshCwIcon className="size-3 text-muted-foreground" aria-hidden />,
  feedback: <InfoIcon className="size-3.5 text-primary" aria-hidden />,
  origin: <GitBranchIcon className="size-3.5 text-muted-foreground" aria-hidden />,
  same: <RefreshCwIcon className="size-3 text-muted-foreground" aria-hidden />,
};

function Versions({ versions, currentId }: { versions: DeepVersion[]; currentId: string }) {
  const current = versions.find((v) => v.id === currentId);
  const lines = current ? changeLines(current) : [];
  return (
    <div className="space-y-2.5">
      <nav aria-label="Versions">
        <ol className="flex flex-wrap gap-1.5" data-testid="deep-versions">
          {versions.map((v) => {
            const isCurrent = v.id === currentId;
            const summary = changeSummary(v.diff);
            return (
              <li key={v.id}>
                <Link
                  href={`/research/${encodeURIComponent(v.id)}`}
                  aria-current={isCurrent ? "page" : undefined}
                  className={cn(
                    "flex max-w-72 items-center gap-1.5 rounded-md border px-2 py-1 text-xs outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50",
                    isCurrent ? "border-primary/40 bg-primary/10 text-foreground" : "bg-background hover:bg-accent",
                  )}
                  title={versionLabel(v)}
                  data-testid="deep-version"
                  data-version={v.number}
                  data-run-id={v.id}
                  data-current={isCurrent ? "true" : "false"}
                  data-kind={v.kind}
                >
                  <span className="font-semibold tabular-nums">v{v.number}</span>
                  <span className="min-w-0 truncate text-muted-foreground">{versionLabel(v)}</span>
                  {summary && <span className="shrink-0 font-mono text-[0.7rem] text-muted-foreground">{summary}</span>}
                  <StatusIcon status={v.status} />
                </Link>
              </li>
            );
          })}
        </ol>
      </nav>
      {current && lines.length > 0 && (
        <div className="space-y-1" data-testid="deep-diff">
          <h3 className="font-medium text-muted-foreground text-xs">
            What changed in v{current.number}
            {current.parentNumber !== null ? ` (from v${current.parentNumber})` : ""}
          </h3>
          <ul className="space-y-0.5 text-sm">
            {lines.map((l, i) => (
              <li key={i} className="flex items-start gap-2" data-testid="deep-diff-line" data-kind={l.kind}>
                <span className="mt-1 flex w-3.5 shrink-0 justify-center">{changeIcon[l.kind]}</span>
                <span className="min-w-0 break-words">{l.text}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/**
 * Beside a run: its versions (with what changed in the outline), the outline it ran, and "Edit & rerun", which opens
 * the outline in the editor and runs it as a new version.
 */
export function DeepRunPanel({
  run,
  info,
  notice,
  onRerun,
}: {
  run: ResearchRunState;
  info: DeepRunInfo | null;
  notice: string | null;
  onRerun: (outline: Outline) => Promise<string | null>;
}) {
  const [editing, setEditing] = useState(false);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // closed at first: the steps and the answer come first; the header line says what the outline holds
  const [open, setOpen] = useState(false);
  const deep = isDeepRun(run);
  const outline = info?.outline ?? outlineOfSteps(run);
  const versions = info?.versions ?? [];
  const finished = run.status !== "running";
  const number = versions.find((v) => v.id === run.runId)?.number;

  if (!deep && versions.length <= 1) return null;

  const rerun = async (next: Outline) => {
    setStarting(true);
    setError(null);
    const problem = await onRerun(next);
    setStarting(false);
    if (problem) setError(problem);
    else setEditing(false);
  };

  return (
    <section
      aria-labelledby="deep-panel-heading"
      className="space-y-4 rounded-xl border bg-card px-4 py-3.5"
      data-testid="deep-run-panel"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="deep-panel-heading" className="flex items-center gap-1.5 font-semibold text-sm">
          <WaypointsIcon className="size-4 text-primary" aria-hidden />
          {deep ? "Deep research" : "Versions"}
          {number !== undefined && versions.length > 1 && (
            <span className="font-normal text-muted-foreground">
              · version {number} of {versions.length}
            </span>
          )}
        </h2>
        {deep && outline && finished && !editing && (
          <Button
            variant="outline"
            size="sm"
            className="ml-auto"
            onClick={() => {
              setEditing(true);
              setError(null);
            }}
            data-testid="deep-edit-rerun"
          >
            <PencilIcon />
            Edit &amp; rerun
          </Button>
        )}
      </div>

      {notice && (
        <p className="flex items-start gap-2 text-sm" data-testid="deep-notice">
          <InfoIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          {notice}
        </p>
      )}

      {versions.length > 1 && <Versions versions={versions} currentId={run.runId} />}

      {editing && outline ? (
        <div className="border-t pt-4">
          <OutlineEditor
            initial={outline}
            busy={starting}
            serverError={error}
            onRun={(next) => void rerun(next)}
            onCancel={() => setEditing(false)}
            runLabel={`Rerun as version ${versions.length + 1}`}
            note="Edit the outline, then run it again: the result is a new version of this review, linked to this one."
          />
        </div>
      ) : outline ? (
        <Collapsible open={open} onOpenChange={setOpen} className="border-t pt-3">
          <CollapsibleTrigger
            className="flex w-full items-center gap-2 rounded-md text-left font-medium text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
            data-testid="deep-outline-toggle"
          >
            Outline
            <span className="min-w-0 truncate font-normal text-muted-foreground">
              · {outline.knowledge_points.length} knowledge {outline.knowledge_points.length === 1 ? "point" : "points"}{" "}
              · {yearsText(outline) ?? "all years"}
            </span>
            <ChevronDownIcon
              className={cn("ml-auto size-4 shrink-0 text-muted-foreground transition-transform", open && "rotate-180")}
              aria-hidden
            />
          </CollapsibleTrigger>
          <CollapsibleContent className="pt-3">
            <OutlineView outline={outline} />
          </CollapsibleContent>
        </Collapsible>
      ) : null}
    </section>
  );
}
