// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type PlannerDraft, plannerDraftKey } from "@/components/deep/planner-draft";
import type { DeepActions } from "@/components/deep/types";
import type { Outline } from "@/lib/research/deep/types";
import { ResearchView } from "./research-view";
import type { ResearchActions } from "./types";

// the page outside a Next.js request: /research, with a router that does nothing
vi.mock("next/navigation", () => ({
  usePathname: () => "/research",
  useRouter: () => ({ refresh: () => {}, push: () => {}, replace: () => {} }),
}));

const unused = () => {
  throw new Error("not called in these tests");
};
const actions: ResearchActions = { start: unused, watch: unused, cancel: unused, feedback: unused };
const deepActions: DeepActions = {
  clarify: unused,
  outline: unused,
  start: unused,
  rerun: unused,
  improve: unused,
  info: unused,
};

const OUTLINE: Outline = {
  title: "Retrieval for long documents",
  knowledge_points: [
    { id: "kp1", category: "Methods", topic: "Dense retrieval", search_keywords: ["dense"], importance: "high" },
  ],
  search_strategy: "",
};

function page() {
  return (
    <ResearchView
      initial={null}
      library={{ ready: 3, processing: 0, examples: [] }}
      recentRuns={[]}
      loadError={null}
      actions={actions}
      deep={{ actions: deepActions, info: null, userId: "user-1" }}
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
