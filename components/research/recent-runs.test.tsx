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
    render(<RecentRuns runs={[run("v2", "v1"), run("v1", null)]} currentId="v2" />);
    const [v2, v1] = screen.getAllByTestId("recent-run");
    expect(v2?.textContent).toContain("later version");
    expect(v1?.textContent).not.toContain("later version");
    expect(v2?.getAttribute("aria-current")).toBe("page");
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
