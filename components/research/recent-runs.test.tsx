// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { RecentRuns } from "./recent-runs";
import type { RecentRun } from "./types";

afterEach(cleanup);

const run = (id: string, parentId: string | null): RecentRun => ({
  id,
  question: "How do language models correct themselves?",
  status: "completed",
  mode: "offline",
  startedAt: "2026-11-29T09:00:00.000Z",
  durationMs: 900,
  parentId,
});

describe("RecentRuns", () => {
  it("tells a later version (an improvement or a rerun) from the run it comes from, though both ask the same question", () => {
    const v3 = { ...run("v3", "v1"), version: 3, feedback: "Improve:  add more on   debate" };
    const v2 = { ...run("v2", "v1"), version: 2, feedback: null };
    render(<RecentRuns runs={[v3, v2, run("v1", null), run("new", "v3")]} currentId="v2" />);
    const [third, second, first, fresh] = screen.getAllByTestId("recent-run");
    expect(third?.textContent).toContain("· v3 · “add more on debate”");
    expect(second?.textContent).toContain("· v2");
    expect(second?.textContent).not.toContain("“");
    expect(first?.textContent).not.toMatch(/· v\d|later version/);
    // a version started on this page before the list was read again: its number is not known yet
    expect(fresh?.textContent).toContain("· later version");
    expect(second?.getAttribute("aria-current")).toBe("page");
  });

  it("says a run the library does not answer is not in the library, not that it failed", () => {
    const declined = { ...run("d", null), status: "failed" as const, errorCode: "no_answer" };
    const broken = { ...run("b", null), status: "failed" as const, errorCode: "synthesis_failed" };
    render(<RecentRuns runs={[declined, broken]} currentId={null} />);
    const [d, b] = screen.getAllByTestId("recent-run");
    expect(d?.textContent).toContain("Not in the library");
    expect(b?.textContent).toContain("Failed");
  });

  it("does not invite a viewer to ask when the list is empty", () => {
    render(<RecentRuns runs={[]} currentId={null} canAsk={false} />);
    expect(screen.getByTestId("recent-runs-empty").textContent).toMatch(/shared with you/);
    cleanup();
    render(<RecentRuns runs={[]} currentId={null} />);
    expect(screen.getByTestId("recent-runs-empty").textContent).toMatch(/Questions you ask/);
  });
});
