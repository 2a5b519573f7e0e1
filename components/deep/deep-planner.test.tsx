// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Result } from "@/lib/errors";
import type { ClarifyingAnswer, Outline } from "@/lib/research/deep/types";
import type { ResearchStreamEvent } from "@/lib/research/types";
import { DeepPlanner } from "./deep-planner";
import { type PlannerDraft, plannerDraftKey } from "./planner-draft";
import type { ClarifyResult, DeepActions, OutlineResult } from "./types";

const KEY = plannerDraftKey("user-1");
const QUESTION = "How is retrieval done over long documents?";

const OUTLINE: Outline = {
  title: "Retrieval for long documents",
  knowledge_points: [
    { id: "kp1", category: "Methods", topic: "Dense retrieval", search_keywords: ["dense"], importance: "high" },
    { id: "kp2", category: "Methods", topic: "Sparse retrieval", search_keywords: ["bm25"], importance: "medium" },
  ],
  search_strategy: "",
};

/** The deep actions, answering at once, with what `start` was sent. */
function fakeActions() {
  const started: { question: string; outline: Outline; answers: ClarifyingAnswer[] }[] = [];
  const actions: DeepActions = {
    clarify: async (): Promise<Result<ClarifyResult>> => ({
      ok: true,
      data: {
        method: "library",
        questions: [
          { id: "q1", question: "Which kind of documents?", purpose: "scope", options: ["Books", "Legal texts"] },
          { id: "q2", question: "How deep should it go?", purpose: "depth", options: [] },
        ],
      },
    }),
    outline: async (): Promise<Result<OutlineResult>> => ({ ok: true, data: { outline: OUTLINE, method: "library" } }),
    start: (question, outline, answers) => {
      started.push({ question, outline, answers });
      return (async function* (): AsyncGenerator<ResearchStreamEvent> {
        yield {
          kind: "run_started",
          runId: "run-1",
          question,
          mode: "offline",
          model: "extractive",
          startedAt: "2026-01-01T00:00:00.000Z",
          steps: [],
        };
      })();
    },
    rerun: () => (async function* () {})(),
    improve: () => (async function* () {})(),
    info: async () => ({ ok: true, data: null }),
  };
  return { actions, started };
}

function planner(actions: DeepActions, extra: { onDraftRestored?: () => void; onStart?: () => void } = {}) {
  return (
    <DeepPlanner
      actions={actions}
      examples={[]}
      showExamples={false}
      busy={false}
      onStart={extra.onStart ?? (() => {})}
      draftKey={KEY}
      onDraftRestored={extra.onDraftRestored}
    />
  );
}

function stage(): string | null {
  return screen.getByTestId("deep-planner").getAttribute("data-stage");
}

function kept(): PlannerDraft | null {
  const raw = window.sessionStorage.getItem(KEY);
  return raw === null ? null : (JSON.parse(raw) as PlannerDraft);
}

/** The researcher goes to another page and comes back: the planner is unmounted, then mounted anew. */
function leaveAndComeBack(actions: DeepActions, extra: Parameters<typeof planner>[1] = {}) {
  cleanup();
  render(planner(actions, extra));
}

beforeEach(() => window.sessionStorage.clear());
afterEach(cleanup);

describe("a deep research plan not yet run, after a visit to another page", () => {
  it("keeps the question typed", async () => {
    const user = userEvent.setup();
    const { actions } = fakeActions();
    render(planner(actions));
    await user.type(screen.getByTestId("deep-question"), "Late interaction");
    let restored = 0;
    leaveAndComeBack(actions, { onDraftRestored: () => restored++ });
    expect((screen.getByTestId("deep-question") as HTMLTextAreaElement).value).toBe("Late interaction");
    expect(restored).toBe(1);
  });

  it("keeps the clarifying questions and the answers given", async () => {
    const user = userEvent.setup();
    const { actions } = fakeActions();
    render(planner(actions));
    await user.type(screen.getByTestId("deep-question"), `${QUESTION}{Enter}`);
    await waitFor(() => expect(stage()).toBe("clarify"));
    await user.click(screen.getByRole("button", { name: "Legal texts" }));
    await user.type(screen.getAllByTestId("clarify-answer")[1] as HTMLElement, "A survey");
    leaveAndComeBack(actions);
    expect(stage()).toBe("clarify");
    expect(screen.getByTestId("deep-question").textContent).toBe(QUESTION);
    const answers = screen.getAllByTestId("clarify-answer") as HTMLInputElement[];
    expect(answers.map((a) => a.value)).toEqual(["Legal texts", "A survey"]);
  });

  it("keeps the outline as edited, runs it, and forgets it once the run has started", async () => {
    const user = userEvent.setup();
    const { actions, started } = fakeActions();
    render(planner(actions));
    await user.click(screen.getByTestId("deep-quick-mode"));
    await user.type(screen.getByTestId("deep-question"), `${QUESTION}{Enter}`);
    await waitFor(() => expect(stage()).toBe("edit"));
    await user.clear(screen.getByTestId("outline-title"));
    await user.type(screen.getByTestId("outline-title"), "Long documents, revisited");
    await user.click(screen.getAllByTestId("outline-point-remove")[1] as HTMLElement);
    leaveAndComeBack(actions);
    expect(stage()).toBe("edit");
    expect((screen.getByTestId("outline-title") as HTMLInputElement).value).toBe("Long documents, revisited");
    expect(screen.getAllByTestId("outline-point")).toHaveLength(1);
    expect(kept()?.quick).toBe(true);
    await user.click(screen.getByTestId("outline-run"));
    await waitFor(() => expect(started).toHaveLength(1));
    expect(started[0]?.outline.title).toBe("Long documents, revisited");
    expect(started[0]?.outline.knowledge_points.map((p) => p.id)).toEqual(["kp1"]);
    await waitFor(() => expect(stage()).toBe("ask"));
    expect(kept()).toBeNull();
    leaveAndComeBack(actions);
    expect(stage()).toBe("ask");
    expect((screen.getByTestId("deep-question") as HTMLTextAreaElement).value).toBe("");
  });

  it("does not keep a plan while it is being started: leaving then does not bring it back to be run twice", async () => {
    const user = userEvent.setup();
    const { actions } = fakeActions();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // the server has not answered yet when the researcher leaves
    const slow: DeepActions = {
      ...actions,
      start: (question, outline, answers) =>
        (async function* () {
          await held;
          yield* actions.start(question, outline, answers);
        })(),
    };
    render(planner(slow));
    await user.click(screen.getByTestId("deep-quick-mode"));
    await user.type(screen.getByTestId("deep-question"), `${QUESTION}{Enter}`);
    await waitFor(() => expect(stage()).toBe("edit"));
    expect(kept()?.stage).toBe("edit");
    await user.click(screen.getByTestId("outline-run"));
    await waitFor(() => expect(kept()).toBeNull());
    leaveAndComeBack(slow);
    expect(stage()).toBe("ask");
    release();
  });

  it("forgets the plan on Start over", async () => {
    const user = userEvent.setup();
    const { actions } = fakeActions();
    render(planner(actions));
    await user.type(screen.getByTestId("deep-question"), `${QUESTION}{Enter}`);
    await waitFor(() => expect(stage()).toBe("clarify"));
    expect(kept()?.stage).toBe("clarify");
    await user.click(screen.getByTestId("deep-start-over"));
    expect(kept()).toBeNull();
    leaveAndComeBack(actions);
    expect(stage()).toBe("ask");
  });

  it("drops a kept draft that is not one, and starts afresh", () => {
    const { actions } = fakeActions();
    for (const raw of ["{", JSON.stringify({ stage: "edit", question: QUESTION, quick: false, outline: {} })]) {
      window.sessionStorage.setItem(KEY, raw);
      let restored = 0;
      render(planner(actions, { onDraftRestored: () => restored++ }));
      expect(stage()).toBe("ask");
      expect((screen.getByTestId("deep-question") as HTMLTextAreaElement).value).toBe("");
      expect(window.sessionStorage.getItem(KEY)).toBeNull();
      expect(restored).toBe(0);
      cleanup();
    }
  });

  it("hydrates the server's markup without a mismatch, then shows the kept outline", async () => {
    const { actions } = fakeActions();
    const draft: PlannerDraft = {
      stage: "edit",
      question: QUESTION,
      quick: false,
      answers: [],
      outline: OUTLINE,
      method: "llm",
    };
    window.sessionStorage.setItem(KEY, JSON.stringify(draft));
    // the server has no storage: it renders the question box
    const container = document.createElement("div");
    container.innerHTML = renderToString(planner(actions));
    document.body.append(container);
    expect(container.querySelector('[data-testid="deep-planner"]')?.getAttribute("data-stage")).toBe("ask");
    const errors: unknown[] = [];
    const root = await act(async () =>
      hydrateRoot(container, planner(actions), { onRecoverableError: (e) => errors.push(e) }),
    );
    expect(errors).toEqual([]);
    expect(container.querySelector('[data-testid="deep-planner"]')?.getAttribute("data-stage")).toBe("edit");
    expect((container.querySelector('[data-testid="outline-title"]') as HTMLInputElement).value).toBe(OUTLINE.title);
    act(() => root.unmount());
    container.remove();
  });
});
