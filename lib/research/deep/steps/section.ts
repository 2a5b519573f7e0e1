import type { Intent } from "@/lib/search/intent";
import { escapeMarkdown } from "@/lib/text/markdown";
import { extractKeywords } from "../../analysis";
import type { EvidencePassage } from "../../citations";
import { pendingCard, type StepDefinition } from "../../lifecycle";
import { errorMessage } from "../../step-kit";
import { citeSentence, evidenceBlock, pickSentences, synthesizeWithLlm } from "../../synthesis";
import type { StepOf } from "../../types";
import type { KnowledgePoint } from "../types";

/** Evidence characters a section's model prompt may hold (the context budget). */
export const SECTION_EVIDENCE_CHARS = 12_000;

const SECTION_INSTRUCTIONS =
  "You write one section of a literature review using ONLY the source passages given. Do not use outside knowledge. " +
  "Start with the section heading given (## ...). Cite EVERY factual sentence with the exact citation of its source " +
  "as given, like [1706.03762v5, page 4], at the end of the sentence. No reference list.";

export interface SectionInput {
  point: KnowledgePoint;
  evidence: EvidencePassage[];
  /** Passages this point borrowed from the points that own them (their sentences stay free for their owners). */
  borrowed: ReadonlySet<string>;
  /** Sentences quoted by the sections before (not quoted again); the step adds its own. */
  quoted: string[];
  /** True for the first section (no separator before it in the streamed answer). */
  first: boolean;
  intent: Intent;
  feedback?: string;
  /** The outline restricts the years searched. */
  yearsLimited: boolean;
}

/**
 * One section per knowledge point, streamed as it is written: by the model from the point's passages (the extractive
 * section when it fails), or offline from the point's best sentences not quoted yet.
 */
export const sectionStep: StepDefinition<StepOf<"synthesis">, SectionInput, string, KnowledgePoint> = {
  card: (point) =>
    pendingCard<StepOf<"synthesis">>({
      id: `section_${point.id}`,
      type: "synthesis",
      title: `Writing: ${point.topic}`,
    }),
  async run(ctx, input) {
    const { point, evidence, feedback } = input;
    const heading = `## ${escapeMarkdown(point.topic)}`;
    const sep = input.first ? "" : "\n\n";
    if (evidence.length === 0) {
      const md = `${heading}\n\n_The library holds no passage on this topic${input.yearsLimited ? " in the chosen years" : ""}._`;
      ctx.delta(`${sep}${md}`);
      return {
        result: md,
        patch: { title: `No evidence for: ${point.topic}`, data: { method: "extractive", evidence: 0 } },
      };
    }
    if (ctx.llm) {
      try {
        ctx.delta(sep);
        const md = await synthesizeWithLlm(ctx.llm, ctx.question, evidence, {
          signal: ctx.signal,
          idleTimeoutMs: ctx.deps.llmTimeoutMs,
          instructions: SECTION_INSTRUCTIONS,
          prompt:
            `Review question: ${ctx.question}\nSection heading: ${heading}\nKeywords: ${point.search_keywords.join(", ")}\n` +
            (feedback ? `The researcher asked: ${feedback}\n` : "") +
            `\nSources:\n\n${evidenceBlock(evidence, SECTION_EVIDENCE_CHARS)}\n\nWrite the section.`,
          onDelta: (t) => ctx.delta(t),
        });
        return {
          result: md.trim(),
          patch: { title: `Wrote: ${point.topic}`, data: { method: "llm", evidence: evidence.length } },
        };
      } catch (e) {
        if (ctx.stopped()) throw e;
        ctx.warn(
          `Failed to synthesize the section “${point.topic}”: ${errorMessage(e)}. Showing an extractive section.`,
        );
      }
    }
    const picked = pickSentences(`${point.topic} ${point.search_keywords.join(" ")}`, evidence, {
      intent: input.intent,
      keywords: [...point.search_keywords, ...(feedback ? extractKeywords(feedback) : [])],
      maxSentences: point.importance === "high" ? 5 : point.importance === "medium" ? 4 : 3,
      exclude: input.quoted,
    });
    // sentences quoted from borrowed passages stay free for the section that owns them
    input.quoted.push(...picked.filter((p) => !input.borrowed.has(p.passage.chunkUid)).map((p) => p.text));
    const md =
      picked.length > 0
        ? `${heading}\n\n${picked.map(citeSentence).join(" ")}`
        : `${heading}\n\n_No sentence of the retrieved passages addresses this topic directly._`;
    ctx.delta(`${sep}${md}`);
    return {
      result: md,
      patch: { title: `Wrote: ${point.topic}`, data: { method: "extractive", evidence: evidence.length } },
    };
  },
};
