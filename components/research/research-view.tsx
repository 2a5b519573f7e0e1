"use client";

import { FileUpIcon, MessagesSquareIcon } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { DeepPlanner } from "@/components/deep/deep-planner";
import { plannerDraftKey } from "@/components/deep/planner-draft";
import { type ResearchMode, ResearchModes } from "@/components/deep/research-modes";
import { deepRunSlots } from "@/components/deep/run-slots";
import type { DeepActions, DeepRunInfo } from "@/components/deep/types";
import { useDeepRun } from "@/components/deep/use-deep-run";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { ResearchRunState, ResearchStreamEvent } from "@/lib/research/types";
import { DeleteRunButton } from "./delete-run-button";
import { QuestionForm } from "./question-form";
import { RecentRuns } from "./recent-runs";
import { routeSync } from "./route-sync";
import { RunView, StartingRun } from "./run-view";
import { ShareRunButton } from "./share-dialog";
import type {
  AskOptions,
  RecentRun,
  ResearchActions,
  ResearchLibrary,
  ResearchRunView,
  RunOwnerActions,
} from "./types";
import { useResearchRun } from "./use-research-run";

export function runPath(runId: string): string {
  return `/research/${encodeURIComponent(runId)}`;
}

/** Back to the top for a new run: smoothly, unless the user's system asks for less motion. */
function scrollToTop(): void {
  const reduce = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  window.scrollTo({ top: 0, behavior: reduce ? "auto" : "smooth" });
}

function EmptyLibrary() {
  return (
    <section
      className="flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-10 text-center"
      data-testid="research-empty-library"
    >
      <MessagesSquareIcon className="size-9 text-muted-foreground" aria-hidden />
      <h2 className="font-semibold">Your library is empty</h2>
      <p className="max-w-md text-muted-foreground text-sm">
        Research answers come only from your own papers, each claim cited to a paper and page. Add some PDFs to the
        library first.
      </p>
      <Button asChild variant="outline">
        <Link href="/">
          <FileUpIcon />
          Add papers to the library
        </Link>
      </Button>
    </section>
  );
}

type RunSlots = { actions?: React.ReactNode; top?: React.ReactNode; bottom?: React.ReactNode };

/** The run header's Share and Delete, for its author, once the run has ended (a run going on is cancelled first). */
function withOwnerControls(
  slots: RunSlots | undefined,
  run: ResearchRunState,
  owner: { actions: RunOwnerActions; origin: string | null } | undefined,
): RunSlots | undefined {
  if (!owner || run.status === "running") return slots;
  return {
    ...slots,
    actions: (
      <>
        {slots?.actions}
        <ShareRunButton runId={run.runId} actions={owner.actions} origin={owner.origin} />
        <DeleteRunButton runId={run.runId} question={run.question} deleteRun={owner.actions.deleteRun} />
      </>
    ),
  };
}

/**
 * Puts a run that just finished (or started) at the top of the recent list, or updates its line in place — with why
 * it ended, as the stored list has it (a run the library declined is marked so, not as failed).
 */
export function upsertRecent(list: readonly RecentRun[], run: ResearchRunState): RecentRun[] {
  const at = list.findIndex((r) => r.id === run.runId);
  const item: RecentRun = {
    id: run.runId,
    question: run.question,
    status: run.status,
    mode: run.mode,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    // (the run's state does not carry the version it improves: the line keeps what it had)
    parentId: list[at]?.parentId ?? null,
    // (and its number and feedback among its question's versions, when the list has them)
    ...(list[at]?.version !== undefined ? { version: list[at]?.version } : {}),
    ...(list[at]?.feedback ? { feedback: list[at]?.feedback } : {}),
    errorCode: run.error?.code ?? null,
  };
  if (at >= 0) return [...list.slice(0, at), item, ...list.slice(at + 1)];
  return [item, ...list];
}

/**
 * The research page's one client root (`/research` and `/research/<id>`): the question box, the run — streamed live,
 * followed after a reload, or as stored — and the recent questions.
 */
export function ResearchView({
  initial,
  library,
  recentRuns,
  loadError,
  actions,
  deep,
  owner,
  canResearch = true,
}: {
  /** False for a viewer: runs are read through share links, not asked (the question box says so). */
  canResearch?: boolean;
  /** The run of `/research/<id>`; null on `/research`. */
  initial: ResearchRunView | null;
  library: ResearchLibrary | null;
  recentRuns: RecentRun[];
  loadError: string | null;
  actions: ResearchActions;
  /**
   * Deep research: its actions, the shown run's outline and versions, the mode the question box opens in, and whose
   * plan not yet run the tab keeps (`userId`: the signed-in person).
   */
  deep?: { actions: DeepActions; info: DeepRunInfo | null; initialMode?: ResearchMode; userId?: string };
  /**
   * What the author does with a run shown here (every run this page shows is the signed-in person's own): share it by
   * link, delete it. `origin`: the app's public address for absolute share links (null: the page's own). Required, so
   * that no page showing runs — a new one streamed in, or one opened — leaves them out.
   */
  owner: { actions: RunOwnerActions; origin: string | null };
}) {
  const [mode, setMode] = useState<ResearchMode>(deep?.initialMode ?? "quick");
  const [recent, setRecent] = useState(recentRuns);
  const pathname = usePathname();
  /** The address this page gave itself with replaceState when a run started (not a navigation). */
  const ownPath = useRef<string | null>(null);

  const controller = useResearchRun({
    initial,
    actions,
    onRunStarted: (event) => {
      const path = runPath(event.runId);
      ownPath.current = path;
      // the shareable address, without a navigation (which would remount the page and drop the stream)
      window.history.replaceState(null, "", path);
      document.title = `${event.question.length > 60 ? `${event.question.slice(0, 60)}…` : event.question} · Lectern`;
      setRecent((list) =>
        upsertRecent(list, {
          runId: event.runId,
          question: event.question,
          status: "running",
          mode: event.mode,
          model: event.model,
          startedAt: event.startedAt,
          durationMs: null,
          steps: [],
          answer: "",
          citations: [],
          references: [],
          warnings: [],
        }),
      );
    },
    onRunFinished: (run) => setRecent((list) => upsertRecent(list, run)),
  });
  const { run, starting, problem, following, show, ask, startWith } = controller;

  // Navigations that land on this same page component (the header's Research link after a run changed the address,
  // a recent run, the back button) keep its state: show what the server rendered for the address (route-sync.ts).
  const router = useRouter();
  const lastPath = useRef(pathname);
  const lastInitial = useRef(initial);
  const refreshedFor = useRef<string | null>(null);
  useEffect(() => {
    const action = routeSync({
      pathname,
      previousPath: lastPath.current,
      ownPath: ownPath.current,
      renderedRunId: initial?.run.runId ?? null,
      initialChanged: lastInitial.current !== initial,
      refreshedFor: refreshedFor.current,
    });
    lastPath.current = pathname;
    lastInitial.current = initial;
    if (action === "refresh") {
      refreshedFor.current = pathname;
      router.refresh();
    } else if (action === "show") {
      ownPath.current = null;
      show(initial);
      setRecent(recentRuns);
    }
  }, [pathname, initial, recentRuns, show, router]);

  const shown = useRef(run);
  shown.current = run;
  const askAgain = useCallback(
    (question: string, options?: AskOptions) => {
      // the run in flight is cancelled by the new question; its stream is no longer read, so say so here
      const replaced = shown.current?.status === "running" ? shown.current.runId : null;
      if (replaced) setRecent((list) => list.map((r) => (r.id === replaced ? { ...r, status: "cancelled" } : r)));
      ask(question, options);
      scrollToTop();
    },
    [ask],
  );

  /** A deep research run (new, rerun or improved) replaces the one shown, like a new question. */
  const startDeep = useCallback(
    (question: string, open: () => AsyncIterable<ResearchStreamEvent>) => {
      const replaced = shown.current?.status === "running" ? shown.current.runId : null;
      if (replaced) setRecent((list) => list.map((r) => (r.id === replaced ? { ...r, status: "cancelled" } : r)));
      startWith(question, open);
      // after the render that swaps the planner or the editor for the run (a scroll begun before it stops short)
      requestAnimationFrame(scrollToTop);
    },
    [startWith],
  );
  const deepRun = useDeepRun({
    run,
    actions: deep?.actions ?? null,
    initialInfo: deep?.info ?? null,
    onStart: startDeep,
  });

  const libraryEmpty = library !== null && library.ready === 0;
  const running = run?.status === "running" && following;
  const questionForm = (
    <QuestionForm
      onAsk={askAgain}
      examples={library?.examples ?? []}
      showExamples={!run && !starting}
      busy={running || starting !== null}
      web={library?.web}
    />
  );

  return (
    <div className="grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,1fr)_17rem] xl:gap-12">
      <div className="min-w-0 max-w-[52rem] space-y-6">
        <header className="space-y-1">
          <h1 className="font-semibold text-2xl tracking-tight">Research</h1>
          <p className="text-muted-foreground text-sm">
            Ask a question across your library. Watch the search happen step by step, and check every claim at its page.
          </p>
        </header>

        {loadError && (
          <Alert variant="destructive" data-testid="research-load-error">
            <AlertTitle>The library could not be read</AlertTitle>
            <AlertDescription>{loadError}</AlertDescription>
          </Alert>
        )}

        {!canResearch ? (
          <Alert data-testid="research-viewer">
            <AlertTitle>You can read, not ask</AlertTitle>
            <AlertDescription>
              As a viewer you read the library and the research runs shared with you by link. Ask an owner of this
              Lectern for member access to ask questions.
            </AlertDescription>
          </Alert>
        ) : libraryEmpty ? (
          <EmptyLibrary />
        ) : deep ? (
          <ResearchModes
            mode={mode}
            onModeChange={setMode}
            quick={questionForm}
            deep={
              <DeepPlanner
                actions={deep.actions}
                examples={library?.examples ?? []}
                showExamples={!run && !starting}
                busy={running || starting !== null}
                onStart={startDeep}
                draftKey={deep.userId ? plannerDraftKey(deep.userId) : undefined}
                // a plan left unfinished on /research is what the researcher came back to; beside a run shown, the
                // tab stays in the run's mode (the plan waits in the deep tab)
                onDraftRestored={initial ? undefined : () => setMode("deep")}
              />
            }
          />
        ) : (
          questionForm
        )}
        {library && library.ready === 0 && library.processing > 0 && (
          <p className="text-muted-foreground text-sm">
            {library.processing} {library.processing === 1 ? "paper is" : "papers are"} still being processed.
          </p>
        )}

        {problem && (
          <Alert variant="destructive" data-testid="research-problem">
            <AlertTitle>{run ? "The live view stopped" : "The question could not be asked"}</AlertTitle>
            <AlertDescription>{problem}</AlertDescription>
          </Alert>
        )}

        {starting !== null && !run && <StartingRun question={starting} />}
        {run && (
          <RunView
            key={run.runId}
            run={run}
            following={following}
            cancelling={controller.cancelling}
            feedback={controller.feedback}
            onCancel={controller.cancel}
            onAskAgain={askAgain}
            sendFeedback={actions.feedback}
            slots={withOwnerControls(
              deep ? deepRunSlots(run, deepRun) : undefined,
              run,
              canResearch ? owner : undefined,
            )}
          />
        )}
      </div>
      <aside className="min-w-0 lg:sticky lg:top-20 lg:max-h-[calc(100dvh-6rem)] lg:self-start lg:overflow-y-auto lg:border-l lg:pl-6">
        <RecentRuns runs={recent} currentId={run?.runId ?? null} canAsk={canResearch} />
      </aside>
    </div>
  );
}
