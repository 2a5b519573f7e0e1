import { getPapersByIds } from "@/db/queries/papers";
import { pendingCard, type StepDefinition } from "../lifecycle";
import { buildReferences, formatReferences } from "../references";
import type { Citation, Reference, StepOf } from "../types";

/** Formatting: the cited papers as a reference list in arXiv-id order, with authors, date and DOI when known. */
export const formattingStep: StepDefinition<StepOf<"formatting">, Citation[], Reference[]> = {
  card: () =>
    pendingCard<StepOf<"formatting">>({ id: "formatting", type: "formatting", title: "Formatting references" }),
  async run(ctx, citations) {
    const cited = [...new Set(citations.map((c) => c.paperId))];
    const rows = await getPapersByIds(ctx.deps.db, { ids: cited });
    const refs = buildReferences(
      rows.map((p) => ({
        id: p.id,
        title: p.title,
        authors: p.authors,
        arxivId: p.arxivId,
        publishedDate: p.publishedDate,
        year: p.year,
        doi: p.doi,
      })),
    );
    return {
      result: refs,
      patch: {
        title: `Listed ${refs.length} ${refs.length === 1 ? "reference" : "references"}`,
        reasoning: "References sorted by arXiv id, with authors, date and DOI when known.",
        data: { citedPaperIds: refs.map((r) => r.paperId) },
      },
    };
  },
};

/** The answer as saved and shown: the body, then its `## References`. */
export function answerMarkdown(body: string, references: Reference[]): string {
  return [body.trim(), formatReferences(references)].filter(Boolean).join("\n\n");
}
