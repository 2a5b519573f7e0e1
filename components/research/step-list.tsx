"use client";

import {
  BrainIcon,
  ChevronDownIcon,
  CircleCheckIcon,
  CircleDashedIcon,
  CircleMinusIcon,
  CircleSlashIcon,
  CircleXIcon,
  FileSearchIcon,
  GlobeIcon,
  LibraryBigIcon,
  ListOrderedIcon,
  ListTreeIcon,
  LoaderIcon,
  type LucideIcon,
  MapIcon,
  NetworkIcon,
  PenLineIcon,
  ShieldCheckIcon,
  SquareDotIcon,
} from "lucide-react";
import { useId, useState } from "react";
import { usePaperLinks } from "@/components/paper/paper-links";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from "@/components/ui/collapsible";
import type { ResearchStep, StepSource, StepStatus } from "@/lib/research/types";
import { GraphEdgeChips } from "./graph-edges";
import { PaperChip } from "./paper-chip";
import {
  formatDuration,
  formatSimilarity,
  isDeclinedStep,
  isStepOpen,
  isStoppedStep,
  sourceViewerParams,
  stepDataRows,
} from "./step-state";
import { WebPageChips } from "./web-sources";

function stepIcon(step: ResearchStep): LucideIcon {
  switch (step.type) {
    case "analysis":
      return BrainIcon;
    case "outline":
      return MapIcon;
    case "query_expansion":
      return ListTreeIcon;
    case "rag_search":
      return step.stage === "summaries" ? LibraryBigIcon : FileSearchIcon;
    case "synthesis":
    case "framing":
      return PenLineIcon;
    case "verification":
      return ShieldCheckIcon;
    case "formatting":
      return ListOrderedIcon;
    case "web_search":
      return GlobeIcon;
    case "web_citations":
      return ShieldCheckIcon;
    case "graph_search":
    case "graph_relations":
      return NetworkIcon;
    default:
      // a kind of step without an icon of its own yet
      return SquareDotIcon;
  }
}

const statusLabels: Record<StepStatus, string> = {
  pending: "Pending",
  in_progress: "Running",
  completed: "Done",
  failed: "Failed",
  skipped: "Skipped",
};

export function StepStatusBadge({
  status,
  stopped = false,
  declined = false,
}: {
  status: StepStatus;
  stopped?: boolean;
  /** The step found that the library does not answer the question. */
  declined?: boolean;
}) {
  if (stopped || declined) {
    return (
      <Badge variant="outline" className="text-muted-foreground" data-testid="research-step-status">
        <CircleSlashIcon aria-hidden />
        <span className="sr-only sm:not-sr-only">{declined ? "No answer" : "Stopped"}</span>
      </Badge>
    );
  }
  const variant =
    status === "completed"
      ? "success"
      : status === "failed"
        ? "destructive"
        : status === "in_progress"
          ? "default"
          : "outline";
  const Icon =
    status === "completed"
      ? CircleCheckIcon
      : status === "failed"
        ? CircleXIcon
        : status === "in_progress"
          ? LoaderIcon
          : status === "skipped"
            ? CircleMinusIcon
            : CircleDashedIcon;
  return (
    <Badge
      variant={variant}
      className={cn((status === "pending" || status === "skipped") && "text-muted-foreground")}
      data-testid="research-step-status"
    >
      <Icon className={cn(status === "in_progress" && "animate-spin motion-reduce:animate-none")} aria-hidden />
      {/* narrow screens: the icon says it, and the title keeps the room */}
      <span className="sr-only sm:not-sr-only">{statusLabels[status]}</span>
    </Badge>
  );
}

function SourceChip({ source }: { source: StepSource }) {
  const page = source.page;
  const similarity = formatSimilarity(source.similarity);
  const href = usePaperLinks().paperPage(source.paperId, sourceViewerParams(source));
  const chipClass =
    "group flex max-w-full items-center gap-2 rounded-md border bg-background px-2.5 py-1.5 text-xs outline-none transition-colors";
  const content = (
    <>
      <span className={cn("min-w-0 truncate font-medium", href && "group-hover:underline")}>
        {source.title || source.paperId}
      </span>
      {page !== null && <span className="shrink-0 text-muted-foreground">p. {page}</span>}
      {source.section && <span className="sr-only">, section {source.section}</span>}
      {similarity && (
        <span className="shrink-0 text-muted-foreground tabular-nums">
          <span className="sr-only">relevance </span>
          {similarity}
        </span>
      )}
    </>
  );
  const details = {
    title: [source.section && `§ ${source.section}`, source.excerpt ? source.excerpt.slice(0, 400) : source.title]
      .filter(Boolean)
      .join("\n"),
    "data-testid": "research-source",
    "data-paper-id": source.paperId,
    "data-page": page ?? undefined,
  };
  return (
    <PaperChip href={href} className={chipClass} {...details}>
      {content}
    </PaperChip>
  );
}

function StepDetails({ step }: { step: ResearchStep }) {
  const data = stepDataRows(step);
  const empty =
    !step.reasoning &&
    !step.error &&
    data.length === 0 &&
    step.queries.length === 0 &&
    step.sources.length === 0 &&
    !((step.type === "graph_search" || step.type === "graph_relations") && step.data && step.data.edges.length > 0);
  return (
    <div className="space-y-3 text-sm">
      {step.reasoning && (
        <p className="text-muted-foreground leading-relaxed" data-testid="research-step-reasoning">
          {step.reasoning}
        </p>
      )}
      {step.error && isStoppedStep(step) && <p className="text-muted-foreground">{step.error.message}</p>}
      {step.error && isDeclinedStep(step) && (
        <div className="rounded-md border bg-muted/40 px-3 py-2">
          <p>{step.error.message}</p>
          {step.error.hint && <p className="mt-1 text-muted-foreground text-xs">{step.error.hint}</p>}
        </div>
      )}
      {step.error && !isStoppedStep(step) && !isDeclinedStep(step) && (
        <div className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-destructive">
          <p>{step.error.message}</p>
          {step.error.hint && <p className="mt-1 text-destructive/80 text-xs">{step.error.hint}</p>}
        </div>
      )}
      {data.length > 0 && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs">
          {data.map((d) => (
            <div key={d.key} className="contents" data-testid="research-step-data" data-key={d.key}>
              <dt className="text-muted-foreground">{d.label}</dt>
              <dd className="min-w-0 break-words">{d.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {step.queries.length > 0 && (
        <div className="space-y-1.5">
          <h4 className="font-medium text-muted-foreground text-xs">Search terms</h4>
          <ul className="flex flex-wrap gap-1.5" aria-label="Search terms">
            {step.queries.map((q, i) => (
              <li key={`${i}-${q}`}>
                <Badge
                  variant="secondary"
                  className="max-w-full whitespace-normal break-words text-left font-normal"
                  data-testid="research-query"
                >
                  {q}
                </Badge>
              </li>
            ))}
          </ul>
        </div>
      )}
      {step.type === "web_search" && step.data && <WebPageChips pages={step.data.pages} />}
      {(step.type === "graph_search" || step.type === "graph_relations") && step.data && (
        <GraphEdgeChips edges={step.data.edges} />
      )}
      {step.sources.length > 0 && (
        <div className="space-y-1.5">
          <h4 className="font-medium text-muted-foreground text-xs">
            {step.sources.length} {step.sources.length === 1 ? "source" : "sources"}
          </h4>
          <ul className="flex flex-wrap gap-1.5" aria-label="Sources">
            {step.sources.map((s) => (
              <SourceChip key={s.id} source={s} />
            ))}
          </ul>
        </div>
      )}
      {empty && (
        <p className="text-muted-foreground text-xs">
          {step.status === "pending"
            ? "Waiting for the steps before it."
            : step.status === "in_progress"
              ? "Working on it…"
              : step.status === "skipped"
                ? "Not run: the research ended before this step."
                : "Nothing to show for this step."}
        </p>
      )}
    </div>
  );
}

function StepCard({
  step,
  position,
  open,
  onOpenChange,
}: {
  step: ResearchStep;
  position: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const Icon = stepIcon(step);
  const duration = formatDuration(step.durationMs);
  const stopped = isStoppedStep(step);
  const declined = isDeclinedStep(step);
  const tone = stopped || declined || step.status === "skipped" ? "pending" : step.status;
  return (
    <li
      data-testid="research-step"
      data-step-id={step.id}
      data-step-type={step.type}
      data-stage={step.type === "rag_search" ? step.stage : undefined}
      data-status={step.status}
    >
      <Collapsible
        open={open}
        onOpenChange={onOpenChange}
        className={cn(
          "rounded-lg border bg-card transition-colors",
          step.status === "in_progress" && "border-primary/40",
          tone === "failed" && "border-destructive/40",
        )}
      >
        <CollapsibleTrigger
          className="flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left outline-none transition-colors hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/50"
          data-testid="research-step-toggle"
        >
          <span
            className={cn(
              "flex size-7 shrink-0 items-center justify-center rounded-md [&>svg]:size-4",
              tone === "pending" && "bg-muted text-muted-foreground",
              tone === "in_progress" && "bg-primary/10 text-primary",
              tone === "completed" && "bg-success/10 text-success",
              tone === "failed" && "bg-destructive/10 text-destructive",
            )}
            aria-hidden
          >
            <Icon />
          </span>
          <span className="min-w-0 flex-1">
            <span className="sr-only">Step {position}: </span>
            <span
              className={cn(
                "block break-words font-medium text-sm sm:truncate",
                (step.status === "pending" || step.status === "skipped") && "text-muted-foreground",
              )}
              data-testid="research-step-title"
            >
              {step.title}
            </span>
          </span>
          {duration && (
            <span
              className="hidden shrink-0 text-muted-foreground text-xs tabular-nums sm:inline"
              data-testid="research-step-duration"
            >
              {duration}
            </span>
          )}
          <StepStatusBadge status={step.status} stopped={stopped} declined={declined} />
          <ChevronDownIcon
            className={cn("size-4 shrink-0 text-muted-foreground transition-transform", open && "rotate-180")}
            aria-hidden
          />
        </CollapsibleTrigger>
        <CollapsibleContent className="border-t px-3 py-3" data-testid="research-step-details">
          <StepDetails step={step} />
        </CollapsibleContent>
      </Collapsible>
    </li>
  );
}

/** A finished run with more steps than this shows them folded (a quick run has at most 11; a deep run 8–25). */
export const FOLD_STEPS_OVER = 12;

/**
 * "Research process · N steps": a card per step, the running one open, finished ones closed unless opened. While the
 * run goes on every card shows; once it has finished, a long list (a deep run's) folds under its heading — the review
 * is what the reader came for — with a button to show it. Only a list of completed steps folds: a failed step, or one
 * an ended run never reached (skipped), stays in view. Folded cards stay in the page, hidden, each with its open or closed state.
 */
export function StepList({ steps, finished = false }: { steps: readonly ResearchStep[]; finished?: boolean }) {
  const [overrides, setOverrides] = useState<ReadonlyMap<string, boolean>>(() => new Map());
  const [shown, setShown] = useState(false);
  // (a run cancelled, interrupted or failed leaves steps skipped or stopped: those stay in view too)
  const foldable = finished && steps.length > FOLD_STEPS_OVER && steps.every((s) => s.status === "completed");
  const folded = foldable && !shown;
  const listId = useId();
  return (
    <section aria-labelledby="research-process-heading" className="space-y-2" data-testid="research-steps">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 id="research-process-heading" className="font-semibold text-sm">
          Research process{" "}
          <span className="font-normal text-muted-foreground">
            · {steps.length} {steps.length === 1 ? "step" : "steps"}
            {foldable && ", all done"}
          </span>
        </h2>
        {foldable && (
          <Button
            variant="link"
            size="sm"
            className="h-auto px-0 py-0 text-muted-foreground text-xs hover:text-foreground"
            aria-expanded={!folded}
            aria-controls={listId}
            onClick={() => setShown((v) => !v)}
            data-testid="research-steps-toggle"
          >
            {folded ? "Show the steps" : "Hide the steps"}
          </Button>
        )}
      </div>
      <ol id={listId} className="space-y-1.5" hidden={folded}>
        {steps.map((step, i) => (
          <StepCard
            key={step.id}
            step={step}
            position={i + 1}
            open={isStepOpen(step, overrides)}
            onOpenChange={(open) => setOverrides((prev) => new Map(prev).set(step.id, open))}
          />
        ))}
      </ol>
    </section>
  );
}
