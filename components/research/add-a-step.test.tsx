import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ResearchDeps } from "@/lib/research/deps";
import { executeRun, pendingCard, type StepDefinition } from "@/lib/research/lifecycle";
import { analysisStep } from "@/lib/research/steps/analysis";
import type { ResearchEvent, StepOf } from "@/lib/research/types";
import { StepList } from "./step-list";

/**
 * The proof that docs/architecture.md's "How to add a step" is true: a new kind of step, added the documented way —
 * its data type by declaration merging, its definition (a card and a run), its place in a runner — runs on the one
 * lifecycle, streams, folds, and appears as a card (a generic one: it has no rows or icon of its own).
 */

declare module "@/lib/research/types" {
  interface StepDataByType {
    paper_count: { papers: number; longestTitle: string };
  }
}

const paperCountStep: StepDefinition<StepOf<"paper_count">, { titles: string[] }, number> = {
  card: () => pendingCard<StepOf<"paper_count">>({ id: "paper_count", type: "paper_count", title: "Counting papers" }),
  async run(ctx, { titles }) {
    ctx.progress({ title: `Counting ${titles.length} papers` });
    const longest = titles.reduce((a, b) => (b.length > a.length ? b : a), "");
    return {
      result: titles.length,
      patch: {
        title: `Counted ${titles.length} papers`,
        reasoning: `The question "${ctx.question}" was asked of ${titles.length} papers.`,
        data: { papers: titles.length, longestTitle: longest },
      },
    };
  },
};

describe("adding a step", () => {
  it("runs a new kind of step on the lifecycle and shows it as a card", async () => {
    const events: ResearchEvent[] = [];
    // neither step of this run touches the library or a model
    const deps: ResearchDeps = {
      db: undefined as never,
      embedder: undefined as never,
      chatModel: null,
      llmTimeoutMs: 1_000,
      runTimeoutMs: 10_000,
    };
    const state = await executeRun(
      deps,
      "Which papers are in the library?",
      { runId: "r", onEvent: (e) => events.push(e) },
      {
        plan: [analysisStep.card(), paperCountStep.card()],
        timeoutHint: "",
        async body(run) {
          await run.step(analysisStep, undefined);
          const n = await run.step(paperCountStep, { titles: ["Attention Is All You Need", "LoRA"] });
          return { markdown: `${n} papers.`, citations: [], references: [] };
        },
      },
    );
    expect(state.status).toBe("completed");
    expect(state.answer).toBe("2 papers.");
    const step = state.steps.find((s) => s.type === "paper_count");
    expect(step).toMatchObject({ status: "completed", title: "Counted 2 papers", data: { papers: 2 } });
    // the stream carried it like any step: pending in the plan, then in progress (with its progress), then done
    const seen = events.flatMap((e) => (e.kind === "step" && e.step.type === "paper_count" ? [e.step.title] : []));
    expect(seen).toEqual(["Counting papers", "Counting 2 papers", "Counted 2 papers"]);

    const html = renderToStaticMarkup(<StepList steps={state.steps} />);
    const card = /<li[^>]*data-step-type="paper_count"[^>]*>/.exec(html)?.[0] ?? "";
    expect(card).toContain('data-step-id="paper_count"');
    expect(card).toContain('data-status="completed"');
    expect(html).toContain("Counted 2 papers");
    expect(html).toContain("2 steps");
  });

  it("shows the new step's data as rows once the card is open (the generic rows of a kind without its own)", async () => {
    const step: StepOf<"paper_count"> = {
      ...paperCountStep.card(),
      status: "failed",
      data: { papers: 3, longestTitle: "Attention Is All You Need" },
    };
    // a failed step's card is open by itself, so its details are rendered
    const html = renderToStaticMarkup(<StepList steps={[step]} />);
    expect(html).toMatch(/<dt[^>]*>Papers<\/dt><dd[^>]*>3<\/dd>/);
    expect(html).toMatch(/<dt[^>]*>Longest title<\/dt><dd[^>]*>Attention Is All You Need<\/dd>/);
  });
});
