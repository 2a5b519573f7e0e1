"use client";

import {
  CheckIcon,
  CircleSlashIcon,
  CpuIcon,
  LinkIcon,
  RotateCcwIcon,
  SquareIcon,
  TriangleAlertIcon,
  WifiOffIcon,
} from "lucide-react";
import Link from "next/link";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { formatDate } from "@/components/library/format";
import { libraryPaperLinks, type PaperLinks, PaperLinksProvider } from "@/components/paper/paper-links";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import type { ResearchErrorCode, ResearchRunState, RunFeedback, RunStatus } from "@/lib/research/types";
import { AnswerMarkdown, type CitationTarget } from "./answer-view";
import { CitationSheet } from "./citation-sheet";
import { copyText } from "./copy-text";
import { FeedbackForm } from "./feedback-form";
import { ReferenceList } from "./reference-list";
import { StepList, StepStatusBadge } from "./step-list";
import { isDeclinedRun, statusLine } from "./step-state";
import type { ResearchActions } from "./types";
import { WebSourceList, webEvidenceOf } from "./web-sources";

export function ModeBadge({ mode, model }: { mode: ResearchRunState["mode"]; model: string }) {
  return mode === "offline" ? (
    <Badge variant="secondary" data-testid="research-mode" data-mode="offline">
      <WifiOffIcon aria-hidden />
      Offline mode · extractive answer
    </Badge>
  ) : (
    <Badge variant="secondary" data-testid="research-mode" data-mode="llm">
      <CpuIcon aria-hidden />
      {model}
    </Badge>
  );
}

const runStatusText: Record<RunStatus, string> = {
  running: "Researching",
  completed: "Answered",
  failed: "Failed",
  cancelled: "Cancelled",
  interrupted: "Interrupted",
};

function RunStatusBadge({ status, declined }: { status: RunStatus; declined: boolean }) {
  if (status === "cancelled" || status === "interrupted" || declined) {
    return (
      <Badge variant="outline" className="text-muted-foreground" data-testid="research-run-status">
        <CircleSlashIcon aria-hidden />
        {declined ? "Not in the library" : runStatusText[status]}
      </Badge>
    );
  }
  const step = status === "running" ? "in_progress" : status;
  return (
    <span data-testid="research-run-status" className="contents">
      <StepStatusBadge status={step} />
    </span>
  );
}

/** Copies the run's address: private to its author (and owners); a link others can open is made with Share. */
function CopyLinkButton({ runId }: { runId: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(t);
  }, [copied]);
  const copy = async () => {
    await copyText(`${window.location.origin}/research/${encodeURIComponent(runId)}`);
    setCopied(true);
  };
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() => void copy()}
      data-testid="research-copy-link"
      title="The run's own address: only you and the library's owners can open it. Share makes a link for others."
    >
      {copied ? <CheckIcon className="text-success" /> : <LinkIcon />}
      {copied ? "Link copied" : "Copy private link"}
      <span className="sr-only" role="status">
        {copied ? "The link to this run is on the clipboard." : ""}
      </span>
    </Button>
  );
}

const errorTitles: Record<ResearchErrorCode, string> = {
  no_papers: "No relevant papers",
  no_content: "No detailed content",
  no_answer: "The library does not answer this",
  synthesis_failed: "The answer could not be written",
  citation_warning: "Citation problems",
  timeout: "The research took too long",
  cancelled: "Cancelled",
  interrupted: "Interrupted",
  bad_request: "The question could not be researched",
  internal: "Something went wrong",
};

const defaultHints: Partial<Record<ResearchErrorCode, string>> = {
  no_papers: "Try other words for the same topic, or add papers about it to the library.",
  no_content: "Rebuild the index (npm run cli -- reembed), or upload the papers again.",
  no_answer: "Add papers about it to the library, or ask about what the library holds.",
  timeout: "Ask again, perhaps with a narrower question.",
  synthesis_failed: "Ask again; if it keeps failing, check the model server.",
};

/** Why the run ended as it did; `onAskAgain` null (a read-only view): no buttons. */
function RunError({ run, onAskAgain }: { run: ResearchRunState; onAskAgain: ((q: string) => void) | null }) {
  const error = run.error;
  if (run.status === "cancelled") {
    return (
      <Alert data-testid="research-cancelled">
        <CircleSlashIcon />
        <AlertTitle>Research cancelled</AlertTitle>
        <AlertDescription>
          <p>The run was stopped before it finished; what it found so far is shown above.</p>
          {onAskAgain && (
            <Button variant="outline" size="sm" className="mt-1" onClick={() => onAskAgain(run.question)}>
              <RotateCcwIcon />
              Ask again
            </Button>
          )}
        </AlertDescription>
      </Alert>
    );
  }
  if (run.status === "interrupted") {
    return (
      <Alert data-testid="research-interrupted">
        <CircleSlashIcon />
        <AlertTitle>Research interrupted</AlertTitle>
        <AlertDescription>
          <p>{error?.message ?? "The server stopped before this run finished."}</p>
          {onAskAgain && (
            <Button
              variant="outline"
              size="sm"
              className="mt-1"
              onClick={() => onAskAgain(run.question)}
              data-testid="research-run-again"
            >
              <RotateCcwIcon />
              Run again
            </Button>
          )}
        </AlertDescription>
      </Alert>
    );
  }
  if (run.status !== "failed") return null;
  const code = error?.code ?? "internal";
  const hint = error?.hint ?? defaultHints[code];
  // the library not answering the question is an outcome, not an error
  const declined = isDeclinedRun(run);
  return (
    <Alert variant={declined ? "default" : "destructive"} data-testid="research-error" data-code={code}>
      {declined ? <CircleSlashIcon /> : <TriangleAlertIcon />}
      <AlertTitle>{errorTitles[code]}</AlertTitle>
      <AlertDescription>
        <p data-testid="research-error-message">{error?.message ?? "The run failed."}</p>
        {hint && <p className="text-muted-foreground">{hint}</p>}
        {onAskAgain && (
          <div className="mt-1 flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => onAskAgain(run.question)} data-testid="research-retry">
              <RotateCcwIcon />
              Try again
            </Button>
            {(code === "no_papers" || code === "no_answer") && (
              <Button asChild variant="ghost" size="sm">
                <Link href="/">Go to the library</Link>
              </Button>
            )}
          </div>
        )}
      </AlertDescription>
    </Alert>
  );
}

function AnswerPlaceholder({ run }: { run: ResearchRunState }) {
  const writing = run.steps.some((s) => s.type === "synthesis" && s.status === "in_progress");
  if (!writing) {
    return (
      <p className="text-muted-foreground text-sm" data-testid="research-answer-waiting">
        The answer is written once the evidence is gathered.
      </p>
    );
  }
  return (
    <div className="space-y-2" aria-hidden data-testid="research-answer-writing">
      <Skeleton className="h-4 w-2/3" />
      <Skeleton className="h-4 w-full" />
      <Skeleton className="h-4 w-5/6" />
    </div>
  );
}

/** Viewer parameters the PDF viewer writes into the address; they do not belong to a run's address. */
const VIEWER_PARAMS = ["page", "hl", "start", "end"] as const;
function clearViewerParams() {
  const params = new URLSearchParams(window.location.search);
  if (!VIEWER_PARAMS.some((k) => params.has(k))) return;
  for (const k of VIEWER_PARAMS) params.delete(k);
  const qs = params.toString();
  window.history.replaceState(null, "", `${window.location.pathname}${qs ? `?${qs}` : ""}`);
}

/** Skeleton of a run between submitting a question and its first event. */
export function StartingRun({ question }: { question: string }) {
  return (
    <article className="space-y-4" data-testid="research-starting" aria-busy>
      <h2 className="font-semibold text-xl leading-snug tracking-tight">{question}</h2>
      <p className="text-muted-foreground text-sm" role="status" aria-live="polite">
        Starting the research…
      </p>
      <div className="space-y-1.5" aria-hidden>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-11 w-full" />
        ))}
      </div>
    </article>
  );
}

/** What the person reading a run can do with it: follow it live, cancel it, ask it again, rate its answer. */
interface RunControls {
  following: boolean;
  cancelling: boolean;
  feedback: RunFeedback | null;
  onCancel: () => void;
  onAskAgain: (question: string) => void;
  sendFeedback: ResearchActions["feedback"];
}

/**
 * One research run: the question, its steps, the answer with its citations and references, and feedback. Read-only
 * (a share link's snapshot): the same run without a control that acts on it — no cancel, ask again, feedback, copy
 * link or slots — and its papers opened through `links`.
 */
export function RunView(
  props: {
    run: ResearchRunState;
    /** Deep research's parts of the run: header buttons (export), above the steps (outline, versions), and below. */
    slots?: { actions?: React.ReactNode; top?: React.ReactNode; bottom?: React.ReactNode };
    /** Where the step cards, references and citations open papers (the library's by default). */
    links?: PaperLinks;
  } & ({ readOnly: true } | ({ readOnly?: false } & RunControls)),
) {
  return (
    <PaperLinksProvider links={props.links ?? libraryPaperLinks}>
      <RunArticle
        run={props.run}
        slots={props.readOnly ? undefined : props.slots}
        controls={props.readOnly ? null : props}
      />
    </PaperLinksProvider>
  );
}

function RunArticle({
  run,
  slots,
  controls,
}: {
  run: ResearchRunState;
  slots?: { actions?: React.ReactNode; top?: React.ReactNode; bottom?: React.ReactNode };
  /** Null: read-only. */
  controls: RunControls | null;
}) {
  const [citation, setCitation] = useState<CitationTarget | null>(null);
  const running = run.status === "running";
  const web = useMemo(() => webEvidenceOf(run.steps), [run.steps]);
  const following = controls?.following ?? false;
  const article = useRef<HTMLElement>(null);
  /** The chip that opened the citation sheet: the focus goes back to it when the sheet closes. */
  const citationChip = useRef<HTMLElement | null>(null);
  const openCitation = useCallback((target: CitationTarget, chip: HTMLElement) => {
    citationChip.current = chip;
    clearViewerParams();
    setCitation(target);
  }, []);
  const chipToRefocus = useCallback(() => {
    const chip = citationChip.current;
    citationChip.current = null;
    if (!chip || chip.isConnected) return chip;
    // the answer was drawn anew while the sheet was open (verification's citations arrived): the same citation's chip
    const { paperId = "", page = "" } = chip.dataset;
    return (
      article.current?.querySelector<HTMLElement>(
        `[data-testid="citation-chip"][data-paper-id="${CSS.escape(paperId)}"][data-page="${CSS.escape(page)}"]`,
      ) ?? null
    );
  }, []);

  return (
    <article
      ref={article}
      className="space-y-6"
      data-testid="research-run"
      data-run-id={run.runId}
      data-status={run.status}
    >
      <header className="space-y-3">
        <h2 className="font-semibold text-xl leading-snug tracking-tight" data-testid="research-run-question">
          {run.question}
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <ModeBadge mode={run.mode} model={run.model} />
          <RunStatusBadge status={run.status} declined={isDeclinedRun(run)} />
          <time dateTime={run.startedAt} className="text-muted-foreground text-xs" suppressHydrationWarning>
            {formatDate(run.startedAt, true)}
          </time>
          <div className="ml-auto flex flex-wrap gap-1.5">
            {running && following && controls && (
              <Button
                variant="outline"
                size="sm"
                onClick={controls.onCancel}
                disabled={controls.cancelling}
                data-testid="research-cancel"
              >
                <SquareIcon className="fill-current" />
                {controls.cancelling ? "Cancelling…" : "Cancel"}
              </Button>
            )}
            {slots?.actions}
            {controls && <CopyLinkButton runId={run.runId} />}
          </div>
        </div>
        <p
          className="text-muted-foreground text-sm"
          role="status"
          aria-live="polite"
          aria-atomic="true"
          data-testid="research-status"
        >
          {statusLine(run, { live: following || !running })}
        </p>
      </header>

      {slots?.top}

      {run.steps.length > 0 && <StepList steps={run.steps} finished={!running} />}

      <section aria-labelledby="research-answer-heading" className="space-y-4" data-testid="research-answer">
        {/* the answer's markdown brings its own headings */}
        <h2 id="research-answer-heading" className="sr-only">
          Answer
        </h2>
        <RunError run={run} onAskAgain={controls?.onAskAgain ?? null} />
        <div>
          {run.answer ? (
            <AnswerMarkdown
              markdown={run.answer}
              citations={run.citations}
              references={run.references}
              onOpenCitation={openCitation}
              streaming={running}
              web={web}
            />
          ) : running ? (
            <AnswerPlaceholder run={run} />
          ) : run.status === "completed" ? (
            <p className="text-muted-foreground text-sm">The run finished without an answer.</p>
          ) : null}
        </div>
        {run.warnings.length > 0 && (
          <Alert data-testid="research-warnings">
            <TriangleAlertIcon className="text-warning" />
            <AlertTitle>{run.warnings.length === 1 ? "Warning" : "Warnings"}</AlertTitle>
            <AlertDescription>
              <ul className="list-disc space-y-0.5 pl-4">
                {run.warnings.map((w, i) => (
                  <li key={i} data-testid="research-warning">
                    {w}
                  </li>
                ))}
              </ul>
            </AlertDescription>
          </Alert>
        )}
      </section>

      <ReferenceList references={run.references} />
      <WebSourceList evidence={web} readOnly={controls === null} />

      {slots?.bottom}

      {!running && run.answer && controls && (
        <FeedbackForm runId={run.runId} initial={controls.feedback} send={controls.sendFeedback} />
      )}

      <CitationSheet
        target={citation}
        returnFocusTo={chipToRefocus}
        onOpenChange={(open) => {
          if (open) return;
          setCitation(null);
          clearViewerParams();
        }}
      />
    </article>
  );
}
