import { describe, expect, it } from "vitest";
import type { ResearchRunState, StepOf, StepStatus } from "@/lib/research/types";
import {
  currentStep,
  displayableData,
  formatDuration,
  formatSimilarity,
  humanizeKey,
  isDeclinedRun,
  isDeclinedStep,
  isStepOpen,
  isStoppedStep,
  sourceViewerParams,
  statusLine,
  stepDataRows,
} from "./step-state";

function step(id: string, status: StepStatus, title = id): StepOf<"analysis"> {
  return {
    id,
    type: "analysis",
    status,
    title,
    startedAt: null,
    durationMs: null,
    reasoning: "",
    queries: [],
    sources: [],
    confidence: null,
    data: null,
  };
}

function run(partial: Partial<ResearchRunState>): ResearchRunState {
  return {
    runId: "r1",
    question: "q",
    mode: "offline",
    model: "extractive",
    status: "running",
    startedAt: "2025-01-01T00:00:00.000Z",
    durationMs: null,
    steps: [],
    answer: "",
    citations: [],
    references: [],
    warnings: [],
    ...partial,
  };
}

describe("isStepOpen", () => {
  it("opens the running and failed steps, closes pending and completed ones", () => {
    const none = new Map<string, boolean>();
    expect(isStepOpen(step("a", "in_progress"), none)).toBe(true);
    expect(isStepOpen(step("a", "failed"), none)).toBe(true);
    expect(isStepOpen(step("a", "completed"), none)).toBe(false);
    expect(isStepOpen(step("a", "pending"), none)).toBe(false);
  });

  it("keeps a card as the user left it, whatever its status becomes", () => {
    expect(isStepOpen(step("a", "completed"), new Map([["a", true]]))).toBe(true);
    expect(isStepOpen(step("a", "in_progress"), new Map([["a", false]]))).toBe(false);
    expect(isStepOpen(step("b", "completed"), new Map([["a", true]]))).toBe(false);
  });
});

describe("statusLine", () => {
  const steps = [step("a", "completed"), step("b", "completed"), step("c", "in_progress", "Searching full text")];

  it("says which step is running, out of how many", () => {
    expect(statusLine(run({ steps: [...steps, step("d", "pending")] }), { live: true })).toBe(
      "Step 3 of 4: Searching full text",
    );
    expect(currentStep([step("a", "completed"), step("b", "pending", "Next")])).toEqual({
      step: step("b", "pending", "Next"),
      position: 2,
    });
  });

  it("says how a run ended", () => {
    expect(statusLine(run({ status: "completed", durationMs: 1234, steps }), { live: false })).toBe(
      "Finished in 1.2 s · 3 steps",
    );
    const citation = { supported: false } as ResearchRunState["citations"][number];
    expect(
      statusLine(
        run({ status: "completed", durationMs: 80, steps, citations: [citation, { ...citation, supported: true }] }),
        {
          live: false,
        },
      ),
    ).toBe("Finished in 80 ms · 3 steps · 1 of 2 citations not supported");
    const stopped = [step("a", "completed"), step("b", "failed", "Searching paper summaries"), step("c", "pending")];
    expect(
      statusLine(run({ status: "failed", steps: stopped, error: { code: "no_papers", message: "No papers." } }), {
        live: false,
      }),
    ).toBe("No answer in the library · stopped at step 2 of 3: Searching paper summaries");
    // an error is a failure
    expect(
      statusLine(run({ status: "failed", steps: stopped, error: { code: "internal", message: "Oops." } }), {
        live: false,
      }),
    ).toBe("Failed at step 2 of 3: Searching paper summaries");
    expect(statusLine(run({ status: "cancelled", steps: stopped }), { live: false })).toBe(
      "Cancelled at step 2 of 3: Searching paper summaries",
    );
    expect(statusLine(run({ status: "cancelled" }), { live: false })).toBe("Cancelled");
    expect(statusLine(run({ status: "interrupted", steps: stopped }), { live: false })).toBe(
      "Interrupted at step 2 of 3: Searching paper summaries",
    );
  });

  it("says so when a running run is not followed any more", () => {
    expect(statusLine(run({ steps }), { live: false })).toMatch(/stopped before it finished/);
  });
});

describe("isDeclinedStep and isDeclinedRun", () => {
  it("is the library not answering the question, not an error", () => {
    const failed = (code: string) => ({ ...step("a", "failed"), error: { code, message: "x" } });
    expect(isDeclinedStep(failed("no_answer") as never)).toBe(true);
    expect(isDeclinedStep(failed("no_papers") as never)).toBe(true);
    expect(isDeclinedStep(failed("synthesis_failed") as never)).toBe(false);
    expect(isDeclinedStep(step("a", "completed"))).toBe(false);
    expect(isDeclinedRun({ status: "failed", error: { code: "no_answer", message: "x" } })).toBe(true);
    expect(isDeclinedRun({ status: "failed", error: { code: "timeout", message: "x" } })).toBe(false);
    expect(isDeclinedRun({ status: "completed" })).toBe(false);
  });
});

describe("isStoppedStep", () => {
  it("is a step failed by cancellation, not by an error", () => {
    expect(isStoppedStep({ ...step("a", "failed"), error: { code: "cancelled", message: "x" } })).toBe(true);
    expect(isStoppedStep({ ...step("a", "failed"), error: { code: "interrupted", message: "x" } })).toBe(true);
    expect(isStoppedStep({ ...step("a", "failed"), error: { code: "no_papers", message: "x" } })).toBe(false);
    expect(isStoppedStep(step("a", "completed"))).toBe(false);
  });
});

describe("formatting", () => {
  it("formats durations", () => {
    expect(formatDuration(null)).toBe("");
    expect(formatDuration(85.4)).toBe("85 ms");
    expect(formatDuration(1234)).toBe("1.2 s");
    expect(formatDuration(12_345)).toBe("12 s");
    expect(formatDuration(65_000)).toBe("1 min 5 s");
    expect(formatDuration(120_000)).toBe("2 min");
  });

  it("formats similarity as a clamped percentage", () => {
    expect(formatSimilarity(0.834)).toBe("83%");
    expect(formatSimilarity(1.2)).toBe("100%");
    expect(formatSimilarity(Number.NaN)).toBe("");
  });

  it("humanizes data keys and keeps only what reads well (the rows of a kind without its own)", () => {
    expect(humanizeKey("feedbackTerms")).toBe("Feedback terms");
    expect(humanizeKey("cited_paper_ids")).toBe("Cited paper ids");
    expect(
      displayableData({
        intent: "performance",
        keywords: ["bleu", "wmt"],
        total: 4,
        support: 0.666,
        fallback: true,
        nested: { a: 1 },
        empty: "",
      }),
    ).toEqual([
      { key: "intent", label: "Intent", value: "performance" },
      { key: "keywords", label: "Keywords", value: "bleu, wmt" },
      { key: "total", label: "Total", value: "4" },
      { key: "support", label: "Support", value: "0.67" },
      { key: "fallback", label: "Fallback", value: "yes" },
    ]);
  });

  it("lists each kind's data in its own words, and nothing before the step has data", () => {
    const base = step("analysis", "completed");
    expect(stepDataRows(base)).toEqual([]);
    expect(
      stepDataRows({ ...base, data: { intent: "technical", keywords: ["attention", "scaled"], method: "rules" } }),
    ).toEqual([
      { key: "intent", label: "Intent", value: "technical" },
      { key: "keywords", label: "Keywords", value: "attention, scaled" },
      { key: "method", label: "Classified by", value: "rules" },
    ]);
    expect(
      stepDataRows({
        ...base,
        id: "verification",
        type: "verification",
        data: { total: 5, supported: 4, unsupported: 1, method: "llm" },
      }).map((r) => `${r.label}: ${r.value}`),
    ).toEqual(["Total: 5", "Supported: 4", "Unsupported: 1", "Checked by: the model"]);
    // with relevance counts (runs made since relevance is judged)
    expect(
      stepDataRows({
        ...base,
        id: "verification",
        type: "verification",
        data: { total: 5, supported: 4, unsupported: 1, method: "lexical", relevant: 3, partly: 2, offTopic: 1 },
      }).map((r) => `${r.label}: ${r.value}`),
    ).toEqual([
      "Total: 5",
      "Supported: 4",
      "Unsupported: 1",
      "Relevant: 3",
      "Partly relevant: 2",
      "Off-topic sentences dropped: 1",
      "Checked by: word overlap",
    ]);
    expect(
      stepDataRows({
        ...base,
        id: "point_p1",
        type: "rag_search",
        stage: "point",
        data: { point: "p1", candidates: 20, kept: 10 },
      }).map((r) => r.value),
    ).toEqual(["20", "10"]);
    // the summary search's papers are its source chips, not a row
    expect(
      stepDataRows({ ...base, id: "s", type: "rag_search", stage: "summaries", data: { papers: ["a", "b"] } }),
    ).toEqual([]);
  });
});

describe("sourceViewerParams", () => {
  const source = {
    id: "u1",
    type: "passage" as const,
    title: "T",
    paperId: "p",
    page: 2,
    excerpt: "An excerpt.",
    similarity: 0.5,
  };
  it("highlights by offsets when the passage has them, else by its excerpt", () => {
    expect(sourceViewerParams({ ...source, charStart: 10, charEnd: 50 })).toEqual({ page: 2, start: 10, end: 50 });
    expect(sourceViewerParams(source)).toEqual({ page: 2, hl: "An excerpt." });
  });
  it("links a paper without a page to the paper", () => {
    expect(sourceViewerParams({ ...source, type: "paper", page: null })).toEqual({});
  });
});
