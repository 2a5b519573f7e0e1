import { parseQueries } from "@/lib/search/query";
import { pendingCard, type StepDefinition } from "../../lifecycle";
import type { StepOf } from "../../types";
import type { KnowledgePoint, Outline } from "../types";

export interface OutlineInput {
  outline: Outline;
  /** The points in the order the run takes them (most important first). */
  points: KnowledgePoint[];
  feedback?: string;
}

/** The outline the run follows, shown as its first card (the page reads the outline from it while the run streams). */
export const outlineStep: StepDefinition<StepOf<"outline">, OutlineInput, void, Outline> = {
  card: (outline) =>
    pendingCard<StepOf<"outline">>({
      id: "outline",
      type: "outline",
      title: `Outline: ${outline.knowledge_points.length} knowledge points`,
    }),
  async run(ctx, { outline, points, feedback }) {
    parseQueries(ctx.question);
    return {
      result: undefined,
      patch: {
        reasoning:
          `${outline.title}. ${outline.search_strategy}`.trim() +
          (outline.year_from || outline.year_to
            ? ` Years ${outline.year_from ?? "…"}–${outline.year_to ?? "…"} only.`
            : "") +
          (feedback ? ` Improving with feedback: “${feedback}”.` : ""),
        queries: points.map((p) => p.topic),
        data: { outline, feedback: feedback ?? null },
      },
    };
  },
};
