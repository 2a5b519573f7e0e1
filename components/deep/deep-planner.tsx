"use client";

import { ListChecksIcon, MessageCircleQuestionIcon, RotateCcwIcon, WaypointsIcon } from "lucide-react";
import { useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { QuestionForm } from "@/components/research/question-form";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import type { ErrorCode } from "@/lib/errors";
import type { ClarifyingAnswer, ClarifyingQuestion, Outline } from "@/lib/research/deep/types";
import { ClarifyPanel } from "./clarify-panel";
import { OutlineEditor } from "./outline-editor";
import {
  clearPlannerDraft,
  type EditorSnapshot,
  type PlannerDraft,
  readPlannerDraft,
  writePlannerDraft,
} from "./planner-draft";
import { openRun } from "./streams";
import type { DeepActions, PlanMethod, StartRun } from "./types";

type Stage =
  | { name: "ask" }
  | { name: "clarifying"; question: string }
  | { name: "clarify"; question: string; questions: ClarifyingQuestion[]; method: PlanMethod; warning?: string }
  | { name: "outlining"; question: string; answers: ClarifyingAnswer[]; from: "ask" | "clarify" }
  | {
      name: "edit";
      question: string;
      answers: ClarifyingAnswer[];
      outline: Outline;
      method: PlanMethod;
      warning?: string;
      /** Which outline this is: a new one starts the editor afresh. */
      key: number;
      /** The outline as edited before the researcher left the page (restored from the kept draft). */
      resume?: EditorSnapshot;
    };

/** What the planner keeps of itself while not yet run (planner-draft.ts); null when there is nothing to keep. */
function draftOf(
  stage: Stage,
  quick: boolean,
  typed: { question: string; clarifyAnswers: Record<string, string>; editor: EditorSnapshot | null },
): PlannerDraft | null {
  switch (stage.name) {
    case "ask":
      return typed.question.trim() ? { stage: "ask", question: typed.question, quick } : null;
    // a request in flight cannot be followed from another page: back in the question box, asked again from there
    case "clarifying":
    case "outlining":
      return { stage: "ask", question: stage.question, quick };
    case "clarify":
      return {
        stage: "clarify",
        question: stage.question,
        quick,
        questions: stage.questions,
        method: stage.method,
        ...(stage.warning ? { warning: stage.warning } : {}),
        answers: typed.clarifyAnswers,
      };
    case "edit":
      return {
        stage: "edit",
        question: stage.question,
        quick,
        answers: stage.answers,
        outline: stage.outline,
        method: stage.method,
        ...(stage.warning ? { warning: stage.warning } : {}),
        ...(typed.editor ? { editor: typed.editor } : {}),
      };
  }
}

/** The planner's stage from a kept draft. */
function stageOf(draft: PlannerDraft): Stage {
  switch (draft.stage) {
    case "ask":
      return { name: "ask" };
    case "clarify":
      return {
        name: "clarify",
        question: draft.question,
        questions: draft.questions,
        method: draft.method,
        ...(draft.warning ? { warning: draft.warning } : {}),
      };
    case "edit":
      return {
        name: "edit",
        question: draft.question,
        answers: draft.answers,
        outline: draft.outline,
        method: draft.method,
        ...(draft.warning ? { warning: draft.warning } : {}),
        // below every key a new outline takes (`request`, from 1)
        key: 0,
        ...(draft.editor ? { resume: draft.editor } : {}),
      };
  }
}

function unreachable(): { ok: false; error: { code: ErrorCode; message: string } } {
  return {
    ok: false,
    error: { code: "unavailable:run", message: "Could not reach the server. Is Lectern still running?" },
  };
}

function outlineNote(method: PlanMethod, warning?: string): string {
  const how =
    method === "llm"
      ? "Planned by the model."
      : method === "library"
        ? "Built from your library: key phrases of the papers and passages that best match the question, grouped into topics."
        : "A default outline from the question's own words: the library holds little on this question.";
  return warning && method !== "fallback" ? `${how} ${warning}` : how;
}

function Progress({ stage }: { stage: Stage["name"] }) {
  const steps = [
    { key: "clarify", label: "Clarify", Icon: MessageCircleQuestionIcon },
    { key: "edit", label: "Edit the outline", Icon: ListChecksIcon },
    { key: "run", label: "Run", Icon: WaypointsIcon },
  ] as const;
  const at = stage === "clarifying" || stage === "clarify" ? 0 : 1;
  return (
    <ol className="flex flex-wrap items-center gap-x-1 gap-y-1 text-xs" aria-label="Deep research steps">
      {steps.map((s, i) => (
        <li key={s.key} className="flex items-center gap-1">
          {i > 0 && <span className="mx-1 h-px w-4 bg-border" aria-hidden />}
          <span
            className={cn(
              "inline-flex items-center gap-1 rounded-full px-2 py-0.5",
              i === at ? "bg-primary/10 font-medium text-primary" : "text-muted-foreground",
            )}
            aria-current={i === at ? "step" : undefined}
          >
            <s.Icon className="size-3.5" aria-hidden />
            {s.label}
          </span>
        </li>
      ))}
    </ol>
  );
}

/**
 * Deep research before it runs: the question, 2–4 clarifying questions (skipped in quick mode), then the outline to
 * edit. Run hands the new run's events to the page's run view, which streams them like a quick run's.
 */
export function DeepPlanner({
  actions,
  examples,
  showExamples,
  busy,
  onStart,
  draftKey,
  onDraftRestored,
}: {
  actions: DeepActions;
  examples: readonly string[];
  showExamples: boolean;
  /** A run is in flight: starting another replaces it. */
  busy: boolean;
  onStart: StartRun;
  /**
   * Where the plan not yet run is kept in the tab's sessionStorage (`plannerDraftKey`: per user), so that it is there
   * again after a visit to another page; none keeps nothing.
   */
  draftKey?: string;
  /** A kept plan was restored on opening. */
  onDraftRestored?: () => void;
}) {
  const [stage, setStage] = useState<Stage>({ name: "ask" });
  const [skipClarify, setSkipClarify] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [clarifyBusy, setClarifyBusy] = useState(false);
  /** Bumped by every new request and by Start over: an older reply is ignored. */
  const request = useRef(0);
  const switchId = useId();
  const headingId = useId();
  // what the stages' own fields hold, for the kept draft
  const [askText, setAskText] = useState("");
  const [clarifyAnswers, setClarifyAnswers] = useState<Record<string, string>>({});
  const [editor, setEditor] = useState<EditorSnapshot | null>(null);
  /** Bumped when a kept question is restored: the question box starts again from it. */
  const [restored, setRestored] = useState(0);
  /** The kept draft was read: until then, nothing is written over it. */
  const [draftRead, setDraftRead] = useState(false);
  const draftRestored = useRef(onDraftRestored);
  draftRestored.current = onDraftRestored;

  // Read after mount, so that the server's markup and the first client render agree (hydration); a layout effect, so
  // that the restored plan is what the first paint shows.
  useLayoutEffect(() => {
    if (!draftKey) return;
    const kept = readPlannerDraft(window.sessionStorage, draftKey);
    if (kept) {
      setSkipClarify(kept.quick);
      setStage(stageOf(kept));
      if (kept.stage === "ask") {
        setAskText(kept.question);
        setRestored((n) => n + 1);
      } else if (kept.stage === "clarify") setClarifyAnswers(kept.answers);
      else setEditor(kept.editor ?? null);
      draftRestored.current?.();
    }
    setDraftRead(true);
  }, [draftKey]);

  useEffect(() => {
    if (!draftKey || !draftRead) return;
    // a plan being started is no draft: leaving the page meanwhile must not bring it back to be run twice (a start
    // that fails writes it again)
    const draft = starting ? null : draftOf(stage, skipClarify, { question: askText, clarifyAnswers, editor });
    if (draft) writePlannerDraft(window.sessionStorage, draftKey, draft);
    else clearPlannerDraft(window.sessionStorage, draftKey);
  }, [draftKey, draftRead, stage, skipClarify, askText, clarifyAnswers, editor, starting]);

  const makeOutline = async (question: string, answers: ClarifyingAnswer[], from: "ask" | "clarify") => {
    const n = ++request.current;
    setProblem(null);
    setStage((s) => (from === "clarify" && s.name === "clarify" ? s : { name: "outlining", question, answers, from }));
    if (from === "clarify") setClarifyBusy(true);
    const result = await actions.outline(question, answers).catch(unreachable);
    if (n !== request.current) return;
    setClarifyBusy(false);
    if (!result.ok) {
      setProblem(result.error.message);
      if (from === "ask") setStage({ name: "ask" });
      return;
    }
    setServerError(null);
    setEditor(null);
    setStage({ name: "edit", question, answers, ...result.data, key: n });
  };

  const begin = async (question: string) => {
    setProblem(null);
    if (skipClarify) {
      await makeOutline(question, [], "ask");
      return;
    }
    const n = ++request.current;
    setClarifyAnswers({});
    setStage({ name: "clarifying", question });
    const result = await actions.clarify(question).catch(unreachable);
    if (n !== request.current) return;
    if (!result.ok) {
      setProblem(result.error.message);
      setStage({ name: "ask" });
      return;
    }
    setStage({ name: "clarify", question, ...result.data });
  };

  const startOver = () => {
    ++request.current;
    setStage({ name: "ask" });
    setProblem(null);
    setServerError(null);
    setStarting(false);
    setClarifyBusy(false);
  };

  const run = async (question: string, outline: Outline, answers: ClarifyingAnswer[]) => {
    const n = ++request.current;
    setStarting(true);
    setServerError(null);
    const opened = await openRun(actions.start(question, outline, answers));
    if (n !== request.current) return;
    setStarting(false);
    if (!opened.ok) {
      setServerError(opened.error.message);
      return;
    }
    onStart(opened.question, opened.events);
    setStage({ name: "ask" });
  };

  const problemAlert = problem && (
    <Alert variant="destructive" data-testid="deep-problem">
      <AlertTitle>The review could not be planned</AlertTitle>
      <AlertDescription>{problem}</AlertDescription>
    </Alert>
  );

  if (stage.name === "ask") {
    return (
      <div className="space-y-3" data-testid="deep-planner" data-stage="ask">
        <QuestionForm
          key={restored}
          initialQuestion={askText}
          onQuestionChange={setAskText}
          onAsk={(q) => void begin(q)}
          examples={examples}
          showExamples={showExamples}
          busy={busy}
          testIdPrefix="deep"
          placeholder="What should the review cover? e.g. the state of retrieval for long documents"
          // (planning leaves the run in flight alone: only running the new plan replaces it)
          submitLabel={busy ? "Plan another review" : "Plan the review"}
        />
        <div className="flex items-center gap-2">
          <Switch id={switchId} checked={skipClarify} onCheckedChange={setSkipClarify} data-testid="deep-quick-mode" />
          <label htmlFor={switchId} className="text-sm">
            Quick mode <span className="text-muted-foreground">— skip the clarifying questions, go to the outline</span>
          </label>
        </div>
        {problemAlert}
      </div>
    );
  }

  return (
    <section
      aria-labelledby={headingId}
      className="space-y-5 rounded-xl border bg-card p-4 shadow-xs sm:p-5"
      data-testid="deep-planner"
      data-stage={stage.name}
    >
      <header className="space-y-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Progress stage={stage.name} />
          <Button variant="ghost" size="sm" onClick={startOver} disabled={starting} data-testid="deep-start-over">
            <RotateCcwIcon />
            Start over
          </Button>
        </div>
        <h2 id={headingId} className="font-semibold text-lg leading-snug tracking-tight" data-testid="deep-question">
          {stage.question}
        </h2>
      </header>

      {stage.name === "clarifying" && (
        <div className="space-y-4" aria-busy data-testid="clarify-loading">
          <p className="text-muted-foreground text-sm" role="status">
            Looking at what your library holds on this…
          </p>
          {[0, 1, 2].map((i) => (
            <div key={i} className="space-y-2">
              <Skeleton className="h-4 w-2/3" />
              <div className="flex gap-1.5">
                <Skeleton className="h-7 w-28 rounded-full" />
                <Skeleton className="h-7 w-36 rounded-full" />
                <Skeleton className="h-7 w-24 rounded-full" />
              </div>
            </div>
          ))}
        </div>
      )}

      {stage.name === "clarify" && (
        <div className="space-y-3">
          <p className="text-muted-foreground text-sm">
            A few questions first, so the outline fits what you need.{" "}
            {stage.method === "library"
              ? "They come from the papers that match your question."
              : stage.method === "llm"
                ? "Written by the model."
                : "General questions (the model's were unusable)."}
          </p>
          <ClarifyPanel
            questions={stage.questions}
            busy={clarifyBusy}
            onContinue={(answers) => void makeOutline(stage.question, answers, "clarify")}
            onSkip={() => void makeOutline(stage.question, [], "clarify")}
            initialAnswers={clarifyAnswers}
            onAnswersChange={setClarifyAnswers}
          />
        </div>
      )}

      {stage.name === "outlining" && (
        <div className="space-y-3" aria-busy data-testid="outline-loading">
          <p className="text-muted-foreground text-sm" role="status">
            Building the outline from your library…
          </p>
          <Skeleton className="h-10 w-full" />
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-24 w-full" />
          ))}
        </div>
      )}

      {stage.name === "edit" && (
        <OutlineEditor
          key={stage.key}
          initial={stage.outline}
          resume={stage.resume}
          onDraftChange={setEditor}
          note={outlineNote(stage.method, stage.warning)}
          busy={starting}
          serverError={serverError}
          onRun={(outline) => void run(stage.question, outline, stage.answers)}
          onCancel={startOver}
          cancelLabel="Discard"
        />
      )}

      {problemAlert}
    </section>
  );
}
