import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { INTERRUPTED_ERROR } from "@/lib/research/recovery";
import { analysisStep } from "@/lib/research/steps/analysis";
import { expansionStep } from "@/lib/research/steps/expansion";
import { summarySearchStep } from "@/lib/research/steps/search-summaries";
import type { ResearchRunState } from "@/lib/research/types";
import { RunView } from "./run-view";
import { IDLE_RUN_VIEW } from "./testing";

const at = "2026-11-26T06:00:00.000Z";

/** A run as the server's start leaves one it found running: interrupted, its running step stopped with it. */
const interrupted: ResearchRunState = {
  runId: "interruptedRun01",
  question: "Why is attention scaled?",
  mode: "offline",
  model: "extractive",
  status: "interrupted",
  startedAt: at,
  durationMs: null,
  steps: [
    { ...analysisStep.card(), status: "completed", startedAt: at, durationMs: 4 },
    { ...expansionStep.card(), status: "failed", startedAt: at, error: INTERRUPTED_ERROR },
    summarySearchStep.card(),
  ],
  answer: "",
  citations: [],
  references: [],
  warnings: [],
  error: INTERRUPTED_ERROR,
};

function render(run: ResearchRunState) {
  return renderToStaticMarkup(<RunView run={run} {...IDLE_RUN_VIEW} />);
}

describe("an interrupted run", () => {
  it("is shown as ended: no spinner, a stopped step, why it ended and Run again", () => {
    const html = render(interrupted);
    expect(html).toContain('data-status="interrupted"');
    expect(html).not.toContain("animate-spin");
    expect(html).toContain('data-testid="research-interrupted"');
    expect(html).toContain("Run again");
    expect(html).toContain("Interrupted at step 2 of 3: Expanding the search queries");
    expect(html).toContain("Stopped");
    expect(html).not.toContain("Cancel<");
  });

  it("differs from a run still going, which shows its spinner", () => {
    const running: ResearchRunState = {
      ...interrupted,
      status: "running",
      error: undefined,
      steps: [
        interrupted.steps[0] as ResearchRunState["steps"][number],
        { ...expansionStep.card(), status: "in_progress", startedAt: at },
      ],
    };
    const html = render(running);
    expect(html).toContain("animate-spin");
    expect(html).not.toContain("Run again");
  });
});
