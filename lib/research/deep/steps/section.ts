import type { Intent } from "@/lib/search/intent";
import { escapeMarkdown } from "@/lib/text/markdown";
import { extractKeywords } from "../../analysis";
import type { EvidencePassage } from "../../citations";
import { pendingCard, type StepDefinition } from "../../lifecycle";
import { errorMessage } from "../../step-kit";
import { citeSentence, evidenceBlock, pickSentences, quotedIn, synthesizeWithLlm } from "../../synthesis";
import type { StepOf } from "../../types";
import { isNamedToken, mentionsTopic, topicTerms, wordsOf } from "../phrases";
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

/** A written section, and whether it found anything on its topic (the introduction lists the topics covered). */
export interface SectionResult {
  markdown: string;
  covered: boolean;
}

/** The topic inside a sentence: its first letter small unless it is a name ("multi-agent debate", "LoRA"). */
function topicInSentence(topic: string): string {
  const first = wordsOf(topic)[0] ?? "";
  return isNamedToken(first) ? topic : topic.replace(/^\p{Lu}(?=\p{Ll})/u, (c) => c.toLowerCase());
}

/** What a section says when the library has nothing that mentions its topic. */
export function littleInLibrary(topic: string, found: number, yearsLimited: boolean): string {
  const why =
    found === 0
      ? `no passage was found for it${yearsLimited ? " in the chosen years" : ""}`
      : found === 1
        ? "the one passage found for it does not mention it"
        : `none of the ${found} passages found for it mentions it`;
  return `_There is little in the library on ${escapeMarkdown(topicInSentence(topic))}: ${why}._`;
}

/**
 * One section per knowledge point, streamed as it is written: by the model from the point's passages (the extractive
 * section when it fails), or offline from the point's best sentences not quoted yet. Only the passages that mention
 * the topic (its words, by stem, or its acronym: `mentionsTopic`) are used: when none does, the section says the
 * library has little on it rather than quoting what the search happened to find.
 */
export const sectionStep: StepDefinition<StepOf<"synthesis">, SectionInput, SectionResult, KnowledgePoint> = {
  card: (point) =>
    pendingCard<StepOf<"synthesis">>({
      id: `section_${point.id}`,
      type: "synthesis",
      title: `Writing: ${point.topic}`,
    }),
  async run(ctx, input) {
    const { point, feedback } = input;
    const heading = `## ${escapeMarkdown(point.topic)}`;
    const sep = input.first ? "" : "\n\n";
    const terms = topicTerms(point.topic);
    const evidence = input.evidence.filter((e) => mentionsTopic(terms, e.text));
    if (evidence.length === 0) {
      const md = `${heading}\n\n${littleInLibrary(point.topic, input.evidence.length, input.yearsLimited)}`;
      ctx.delta(`${sep}${md}`);
      return {
        result: { markdown: md, covered: false },
        patch: { title: `Little in the library on: ${point.topic}`, data: { method: "extractive", evidence: 0 } },
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
          result: { markdown: md.trim(), covered: true },
          patch: { title: `Wrote: ${point.topic}`, data: { method: "llm", evidence: evidence.length } },
        };
      } catch (e) {
        if (ctx.stopped()) throw e;
        ctx.warn(
          `Failed to synthesize the section “${point.topic}”: ${errorMessage(e)}. Showing an extractive section.`,
        );
      }
    }
    const max = point.importance === "high" ? 5 : point.importance === "medium" ? 4 : 3;
    const candidates = pickSentences(`${point.topic} ${point.search_keywords.join(" ")}`, evidence, {
      intent: input.intent,
      keywords: [...point.search_keywords, ...(feedback ? extractKeywords(feedback) : [])],
      maxSentences: max * 2,
      exclude: input.quoted,
    });
    // the sentences that name the topic first (in their order), then the rest of the passages that do
    const picked = [
      ...candidates.filter((c) => mentionsTopic(terms, c.text)),
      ...candidates.filter((c) => !mentionsTopic(terms, c.text)),
    ].slice(0, max);
    // sentences quoted from borrowed passages stay free for the section that owns them
    // (every sentence a pick quotes: the one it leans on and its continuation too)
    input.quoted.push(...picked.filter((p) => !input.borrowed.has(p.passage.chunkUid)).flatMap(quotedIn));
    const md =
      picked.length > 0
        ? `${heading}\n\n${picked.map(citeSentence).join(" ")}`
        : `${heading}\n\n${littleInLibrary(point.topic, input.evidence.length, input.yearsLimited)}`;
    ctx.delta(`${sep}${md}`);
    return {
      result: { markdown: md, covered: picked.length > 0 },
      patch: {
        title: picked.length > 0 ? `Wrote: ${point.topic}` : `Little in the library on: ${point.topic}`,
        data: { method: "extractive", evidence: evidence.length },
      },
    };
  },
};
