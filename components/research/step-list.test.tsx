// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { ResearchStep, StepStatus } from "@/lib/research/types";
import { FOLD_STEPS_OVER, StepList } from "./step-list";

afterEach(cleanup);

function steps(n: number, status: (i: number) => StepStatus = () => "completed"): ResearchStep[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `point_p${i + 1}`,
    type: "synthesis",
    status: status(i),
    title: `Point ${i + 1}`,
    startedAt: "2026-11-29T05:00:00.000Z",
    durationMs: 120,
    reasoning: "",
    queries: [],
    sources: [],
    confidence: null,
    data: null,
  }));
}

const cards = () => screen.getAllByTestId("research-step");
const list = () => cards()[0]?.closest("ol") as HTMLOListElement;

describe("StepList", () => {
  it("folds a finished run's long list of steps under its heading, and shows it on request", async () => {
    const many = steps(21);
    expect(many.length).toBeGreaterThan(FOLD_STEPS_OVER);
    render(<StepList steps={many} finished />);
    expect(screen.getByRole("heading", { name: /Research process/ }).textContent).toContain("21 steps, all done");
    // (folded: in the page, hidden)
    expect(cards()).toHaveLength(21);
    expect(list().hidden).toBe(true);
    const toggle = screen.getByRole("button", { name: "Show the steps" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    await userEvent.click(toggle);
    expect(list().hidden).toBe(false);
    expect(screen.getByRole("button", { name: "Hide the steps" }).getAttribute("aria-expanded")).toBe("true");
  });

  it("shows every step while the run goes on, for a short run, when a step failed, and when the run stopped", () => {
    for (const [given, finished] of [
      [steps(21), false],
      [steps(FOLD_STEPS_OVER), true],
      [steps(21, (i) => (i === 3 ? "failed" : "completed")), true],
      // a run cancelled or interrupted leaves the steps it never reached skipped
      [steps(21, (i) => (i > 15 ? "skipped" : i === 15 ? "failed" : "completed")), true],
    ] as const) {
      render(<StepList steps={given} finished={finished} />);
      expect(cards()).toHaveLength(given.length);
      expect(list().hidden).toBe(false);
      expect(screen.queryByTestId("research-steps-toggle")).toBeNull();
      cleanup();
    }
  });

  it("shows a step the run never reached as skipped, not as waiting", async () => {
    render(<StepList steps={steps(3, (i) => (i === 0 ? "completed" : i === 1 ? "failed" : "skipped"))} finished />);
    const skipped = cards()[2] as HTMLElement;
    expect(skipped.dataset.status).toBe("skipped");
    expect(skipped.querySelector('[data-testid="research-step-status"]')?.textContent).toBe("Skipped");
    await userEvent.click(skipped.querySelector('[data-testid="research-step-toggle"]') as HTMLElement);
    expect(skipped.textContent).toContain("Not run: the research ended before this step.");
    expect(skipped.textContent).not.toContain("Waiting");
  });
});
