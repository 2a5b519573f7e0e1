// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type PlannerDraft, plannerDraftKey } from "@/components/deep/planner-draft";
import type { DeepActions } from "@/components/deep/types";
import type { Outline } from "@/lib/research/deep/types";
import type { ResearchEvent, ResearchStep } from "@/lib/research/types";
import { ResearchView, upsertRecent } from "./research-view";
import type { RecentRun, ResearchActions, RunOwnerActions } from "./types";

// the page outside a Next.js request: /research, with a router that does nothing
vi.mock("next/navigation", () => ({
  usePathname: () => "/research",
  useRouter: () => ({ refresh: () => {}, push: () => {}, replace: () => {} }),
}));

const unused = () => {
  throw new Error("not called in these tests");
};
const actions: ResearchActions = { start: unused, watch: unused, cancel: unused, feedback: unused };
const ownerActions: RunOwnerActions = {
  listShareLinks: unused,
  createShareLink: unused,
  revokeShareLink: unused,
  deleteRun: unused,
};
const deepActions: DeepActions = {
  clarify: unused,
  outline: unused,
  start: unused,
  rerun: unused,
  improve: unused,
  // a run shown asks for its outline and versions: a quick run has none
  info: async () => ({ ok: true, data: null }),
};

const OUTLINE: Outline = {
  title: "Retrieval for long documents",
  knowledge_points: [
    { id: "kp1", category: "Methods", topic: "Dense retrieval", search_keywords: ["dense"], importance: "high" },
  ],
  search_strategy: "",
};

function page(start: ResearchActions["start"] = unused) {
  return (
    <ResearchView
      initial={null}
      library={{ ready: 3, processing: 0, examples: [] }}
      recentRuns={[]}
      loadError={null}
      actions={{ ...actions, start }}
      deep={{ actions: deepActions, info: null, userId: "user-1" }}
      owner={{ actions: ownerActions, origin: null }}
    />
  );
}

beforeEach(() => window.sessionStorage.clear());
afterEach(cleanup);

describe("the research page with a deep research plan kept in the tab", () => {
  it("opens on the deep research tab, showing the plan", () => {
    const draft: PlannerDraft = {
      stage: "edit",
      question: "How is retrieval done over long documents?",
      quick: false,
      answers: [],
      outline: OUTLINE,
      method: "library",
    };
    window.sessionStorage.setItem(plannerDraftKey("user-1"), JSON.stringify(draft));
    render(page());
    expect(screen.getByTestId("mode-deep").getAttribute("aria-selected")).toBe("true");
    expect(screen.getByTestId("deep-planner").getAttribute("data-stage")).toBe("edit");
  });

  it("opens on quick answers without one, or with another user's", () => {
    window.sessionStorage.setItem(
      plannerDraftKey("user-2"),
      JSON.stringify({ stage: "ask", question: "Someone else's question", quick: false }),
    );
    render(page());
    expect(screen.getByTestId("mode-quick").getAttribute("aria-selected")).toBe("true");
    expect((screen.getByTestId("deep-question") as HTMLTextAreaElement).value).toBe("");
  });
});

const DECLINED = "What is the fracture toughness of reinforced concrete?";

function card(id: string, status: ResearchStep["status"]): ResearchStep {
  return {
    id,
    type: "synthesis",
    status,
    title: id,
    startedAt: null,
    durationMs: null,
    reasoning: "",
    queries: [],
    sources: [],
    confidence: null,
    data: null,
  };
}

/** A run the library declines, as the lifecycle streams it: the search fails, the steps after it are skipped. */
async function* declinedRun(): AsyncGenerator<ResearchEvent> {
  yield {
    kind: "run_started",
    runId: "run-declined",
    question: DECLINED,
    mode: "offline",
    model: "extractive",
    startedAt: "2026-11-30T09:00:00.000Z",
    steps: [card("search_summaries", "pending"), card("synthesis", "pending")],
  };
  const error = { code: "no_papers" as const, message: "No paper in the library is about this question." };
  yield { kind: "step", step: { ...card("search_summaries", "failed"), error } };
  yield { kind: "step", step: card("synthesis", "skipped") };
  yield { kind: "run_finished", status: "failed", durationMs: 40, error };
}

describe("a run that ends while the page follows it", () => {
  it("gets its author's Share and Delete without a reload, and a neutral mark in the recent list when declined", async () => {
    render(page(() => declinedRun()));
    await userEvent.type(screen.getByTestId("research-question"), `${DECLINED}{Enter}`);
    await waitFor(() => expect(screen.getByTestId("research-run").getAttribute("data-status")).toBe("failed"));
    expect(screen.getByTestId("research-share")).toBeTruthy();
    expect(screen.getByTestId("research-delete-run")).toBeTruthy();
    // the steps it never reached say so; no answer, so nothing to improve or export
    const synthesis = screen.getAllByTestId("research-step").find((s) => s.dataset.stepId === "synthesis");
    expect(synthesis?.dataset.status).toBe("skipped");
    expect(synthesis?.textContent).toContain("Skipped");
    expect(screen.queryByTestId("deep-improve")).toBeNull();
    expect(screen.queryByTestId("export-markdown")).toBeNull();
    const [line] = screen.getAllByTestId("recent-run");
    expect(line?.textContent).toContain("Not in the library");
    expect(line?.textContent).not.toContain("Failed");
  });
});

describe("upsertRecent", () => {
  const line: RecentRun = {
    id: "v2",
    question: "q",
    status: "running",
    mode: "offline",
    startedAt: "2026-11-30T09:00:00.000Z",
    durationMs: null,
    parentId: "v1",
  };
  const ended = {
    runId: "v2",
    question: "q",
    mode: "offline" as const,
    model: "extractive",
    status: "failed" as const,
    startedAt: line.startedAt,
    durationMs: 40,
    steps: [],
    answer: "",
    citations: [],
    references: [],
    warnings: [],
    error: { code: "no_answer" as const, message: "The library does not answer this." },
  };

  it("updates a line in place with why its run ended, keeping the version it improves", () => {
    expect(upsertRecent([line], ended)).toEqual([
      { ...line, status: "failed", durationMs: 40, errorCode: "no_answer" },
    ]);
    // and its number and feedback among its question's versions
    const numbered = { ...line, version: 3, feedback: "add more on drift" };
    expect(upsertRecent([numbered], ended)).toEqual([
      { ...numbered, status: "failed", durationMs: 40, errorCode: "no_answer" },
    ]);
  });

  it("puts a new run first", () => {
    const other = { ...line, id: "old", parentId: null };
    expect(upsertRecent([other], ended).map((r) => [r.id, r.errorCode, r.parentId])).toEqual([
      ["v2", "no_answer", null],
      ["old", undefined, null],
    ]);
  });
});
