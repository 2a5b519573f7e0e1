import { describe, expect, it } from "vitest";
import { exportMarkdown } from "./export";
import { INTERRUPTED_ERROR } from "./recovery";
import { summarySearchStep } from "./steps/search-summaries";
import type { ResearchRunState } from "./types";

const base: ResearchRunState = {
  runId: "run1",
  question: "Why is attention scaled?",
  mode: "offline",
  model: "extractive",
  status: "completed",
  startedAt: "2026-11-26T06:00:00.000Z",
  durationMs: 10,
  steps: [],
  answer: "## Answer\n\nBecause the dot products grow large [1706.03762v5, page 4].",
  citations: [],
  references: [],
  warnings: [],
};

const searched = {
  ...summarySearchStep.card(),
  status: "completed" as const,
  sources: [
    {
      id: "1706.03762v5",
      type: "paper" as const,
      title: "Attention Is All You Need",
      paperId: "1706.03762v5",
      page: 4,
      excerpt: "We suspect that for large values of d_k, the dot products grow large in magnitude.",
      similarity: 0.9,
    },
  ],
};

describe("exportMarkdown", () => {
  it("exports an answer with its citations intact", () => {
    const md = exportMarkdown(base);
    expect(md).toMatch(/^# Why is attention scaled\?\n\n## Answer/);
    expect(md).toContain("[1706.03762v5, page 4]");
  });

  it("exports what an interrupted run found when it has no answer, and nothing when it found nothing", () => {
    const run = { ...base, status: "interrupted" as const, answer: "", error: INTERRUPTED_ERROR, steps: [searched] };
    const md = exportMarkdown(run);
    expect(md).toContain("The server stopped before this run wrote its answer.");
    expect(md).toContain("- Attention Is All You Need [1706.03762v5, page 4]: “We suspect");
    expect(exportMarkdown({ ...run, steps: [summarySearchStep.card()] })).toBeNull();
    // a run still going has nothing to export yet
    expect(exportMarkdown({ ...run, status: "running" })).toBeNull();
  });
});
