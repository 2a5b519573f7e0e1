import type { Intent } from "@/lib/search/intent";
import { escapeMarkdown } from "@/lib/text/markdown";
import { extractKeywords } from "../../analysis";
import type { EvidencePassage } from "../../citations";
import { pendingCard, type StepDefinition } from "../../lifecycle";
import { citeSentence, pickSentences } from "../../synthesis";
import type { StepOf } from "../../types";
import type { Outline } from "../types";

export interface FramingInput {
  outline: Outline;
  /** The topics that found evidence. */
  covered: string[];
  evidence: EvidencePassage[];
  /** Sentences the sections quoted (the conclusion prefers others). */
  quoted: string[];
  intent: Intent;
  feedback?: string;
}

/** The review's title and introduction (what it covers, from what), and a conclusion from the strongest evidence. */
export const framingStep: StepDefinition<StepOf<"framing">, FramingInput, { intro: string; conclusion: string }> = {
  card: () =>
    pendingCard<StepOf<"framing">>({
      id: "framing",
      type: "framing",
      title: "Writing the introduction and conclusion",
    }),
  async run(ctx, { outline, covered, evidence, quoted, intent, feedback }) {
    const papers = new Set(evidence.map((e) => e.paperId)).size;
    // the title, topics and question are a user's or a model's text, shown to whoever opens the review: text only
    const intro =
      `# ${escapeMarkdown(outline.title)}\n\n## Introduction\n\n` +
      `This review answers “${escapeMarkdown(ctx.question.trim())}” from ${evidence.length} passages of ${papers} ${papers === 1 ? "paper" : "papers"} in your library, ` +
      `in ${covered.length} ${covered.length === 1 ? "topic" : "topics"}: ${covered.map(escapeMarkdown).join("; ")}.` +
      (feedback ? ` This version was written again for the feedback “${escapeMarkdown(feedback)}”.` : "");
    const opts = { intent, keywords: extractKeywords(ctx.question), maxSentences: 2 };
    // the strongest evidence not quoted yet; when every good sentence is in a section already, the best one again
    const fresh = pickSentences(ctx.question, evidence, { ...opts, exclude: quoted });
    const closing = fresh.length > 0 ? fresh : pickSentences(ctx.question, evidence, { ...opts, maxSentences: 1 });
    const conclusion =
      closing.length > 0
        ? `## Conclusion\n\n${closing.map(citeSentence).join(" ")}`
        : "## Conclusion\n\n_The passages found say little that bears on the question as a whole; see the sections above._";
    return {
      result: { intro, conclusion },
      patch: { title: "Wrote the introduction and conclusion", data: { topics: covered.length } },
    };
  },
};
