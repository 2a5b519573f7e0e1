import { wordsAbsentFromLibrary } from "@/lib/search/search";
import { quotedList } from "@/lib/text/lists";
import { escapeMarkdown } from "@/lib/text/markdown";
import type { QueryAnalysis } from "../analysis";
import { claimOf, dropClaims, type EvidencePassage } from "../citations";
import { absentFromLibrary, absentSubjects, quotable } from "../compose";
import { modelIdOf } from "../deps";
import { markFootnotes } from "../footnotes";
import { pendingCard, type StepDefinition, StepError } from "../lifecycle";
import { errorMessage } from "../step-kit";
import { SYNTHESIS_INSTRUCTIONS, synthesisPrompt, synthesizeExtractive, synthesizeWithLlm } from "../synthesis";
import type { StepOf } from "../types";
import { composeWebSection, WEB_SYNTHESIS_INSTRUCTIONS, type WebEvidence, webEvidenceBlock } from "../web";
import type { GraphFindings } from "./graph-search";

export interface SynthesisInput {
  evidence: EvidencePassage[];
  analysis: QueryAnalysis;
  /** Pages the web search read, cited `[W1]`…; none when it did not run. */
  web?: WebEvidence[];
  /** What the knowledge graph says (a question about how works relate); null or absent when it was not asked. */
  graph?: GraphFindings | null;
}

/**
 * Synthesis: with a model, the answer streamed token by token from the evidence only (abandoned when the model sends
 * nothing for LECTERN_LLM_TIMEOUT_MS, and the extractive answer shown instead); offline, the evidence sentences that
 * best cover the question, quoted under headings, each cited `[PAPER_ID, page N]`.
 */
/** The passages of the evidence, without the graph's edges (offline synthesis quotes those in its own part). */
function passagesOf(evidence: EvidencePassage[]): EvidencePassage[] {
  return evidence.filter((e) => !e.chunkUid.startsWith("graph:"));
}

/** The passages' answer without the sentences the graph's part already quotes (the same sentence, twice): the
 *  same text, or a sentence an edge's quote is the start or a part of (a quote stops at 300 characters: "We compare
 *  primarily to GPT-3, … (omitting F1" of a sentence that goes on). */
export function withoutGraphQuotes(markdown: string, graph: Pick<GraphFindings, "edges">): string {
  // (the passages' sentences are quoted without the paper's markers, the edges' quotes verbatim: both forms count)
  const quoted = new Set(
    graph.edges.flatMap((e) => [claimOf(escapeMarkdown(e.quote)), claimOf(escapeMarkdown(quotable(e.quote, {})))]),
  );
  // (a quote of a few words inside a sentence is no repetition of it)
  const long = [...quoted].filter((q) => q.length >= GRAPH_QUOTE_INSIDE_MIN);
  const repeats = (claim: string) => quoted.has(claim) || long.some((q) => claim.includes(q));
  return quoted.size > 0 ? dropClaims(markdown, repeats) : markdown;
}

/** An edge's quote this long found inside a sentence of the passages' answer makes that sentence a repetition. */
const GRAPH_QUOTE_INSIDE_MIN = 80;

export const synthesisStep: StepDefinition<StepOf<"synthesis">, SynthesisInput, string> = {
  card: () => pendingCard<StepOf<"synthesis">>({ id: "synthesis", type: "synthesis", title: "Writing the answer" }),
  async run(ctx, { evidence: passages, analysis, web = [], graph = null }) {
    const graphEvidence = graph?.evidence ?? [];
    // the graph's edges are evidence like the passages: the model sees their quotes first
    const found = [...graphEvidence, ...passages];
    // whether the library answers the question at all is judged on what the searches returned
    const retrieved = found.filter((e) => !e.pageContext);
    // offline, words of the question no paper of the library contains say more than the passages found: nothing
    // there is about it (a model reads the passages itself, and its expansions may have found them in other words)
    const words = ctx.deps.chatModel === null ? await wordsAbsentFromLibrary(ctx.deps.db, ctx.question) : null;
    const unknown = words ? absentFromLibrary(ctx.question, retrieved, words, ctx.deps.vocabularyMinPassages) : null;
    const absent = unknown ?? (retrieved.length > 0 ? absentSubjects(ctx.question, retrieved) : null);
    // with web pages to answer from, passages that never mention the question's subject are left out instead
    const evidence = absent && web.length > 0 ? [] : found;
    if (absent && web.length === 0) {
      // (words the library holds in a passage or three, but not in any passage found, are said as such)
      const inNoPaper = unknown ? absent.filter((t) => words?.absent.includes(t)) : [];
      const unseen = unknown ? absent.filter((t) => !inNoPaper.includes(t)) : [];
      const why = [
        inNoPaper.length > 0 ? `no paper in it mentions ${quotedList(inNoPaper)}` : "",
        unseen.length > 0 ? `none of the passages found for the question mentions ${quotedList(unseen)}` : "",
      ]
        .filter(Boolean)
        .join(", and ");
      throw new StepError({
        code: "no_answer",
        message: unknown
          ? `The library does not answer this: ${why}.`
          : `The library does not answer this: none of the passages found for the question mentions ${quotedList(absent)}.`,
        hint: unknown
          ? "If a word is misspelled, correct it and ask again; if not, add papers about it to the library."
          : "Add papers about it to the library, or ask about what the library holds.",
      });
    }
    const offline = async () => {
      const marked = evidence.length > 0 ? await markFootnotes(ctx.deps.db, passagesOf(evidence), ctx.warn) : [];
      ctx.composed({
        question: ctx.question,
        intent: analysis.intent,
        keywords: analysis.keywords,
        evidence: marked,
        graph: graph?.markdown ?? null,
      });
      const fromPassages = evidence.length > 0 ? synthesizeExtractive(ctx.question, marked, analysis) : "";
      // the graph's relations lead (they answer a lineage question directly); the passages follow under their heading
      // the graph's relations lead when they answer (a lineage question); two names with no edge between them get
      // the passages' answer first, each name's own relations after it
      const library = !graph?.markdown
        ? fromPassages
        : graph.apart && fromPassages
          ? [withoutGraphQuotes(fromPassages, graph), graph.markdown].join("\n\n")
          : [graph.markdown, withoutGraphQuotes(fromPassages, graph).replace(/^## Answer\n/, "## From the passages\n")]
              .filter(Boolean)
              .join("\n\n");
      const fromWeb =
        web.length > 0
          ? composeWebSection(ctx.question, web, { ...analysis, libraryAnswered: library.length > 0 })
          : "";
      return [library, fromWeb].filter(Boolean).join("\n\n");
    };
    const webPrompt =
      web.length > 0
        ? {
            prompt: `${synthesisPrompt(ctx.question, evidence).replace(/\n\nWrite the cited answer\.$/, "")}\n\nWeb sources:\n\n${webEvidenceBlock(web)}\n\nWrite the cited answer.`,
            instructions: SYNTHESIS_INSTRUCTIONS + WEB_SYNTHESIS_INSTRUCTIONS,
          }
        : {};
    const { llm } = ctx;
    if (llm) {
      const model = modelIdOf(llm);
      ctx.progress({ title: `Writing the answer with ${model}` });
      let streamed = "";
      try {
        const text = await synthesizeWithLlm(llm, ctx.question, evidence, {
          ...webPrompt,
          signal: ctx.signal,
          idleTimeoutMs: ctx.deps.llmTimeoutMs,
          onDelta: (t) => {
            streamed += t;
            ctx.delta(t);
          },
        });
        return {
          result: text,
          patch: {
            title: "Wrote the answer",
            reasoning: `${model} wrote the answer from ${evidence.length} passages${web.length > 0 ? ` and ${web.length} web pages` : ""}, told to use nothing else and to cite every sentence.`,
            data: { method: "llm", model, evidence: evidence.length + web.length },
          },
        };
      } catch (e) {
        if (ctx.stopped()) throw e;
        const message = `Failed to synthesize research answer: ${errorMessage(e)}`;
        ctx.warn(`${message}. Showing the offline extractive answer instead.`);
        const text = await offline();
        if (!text) throw new StepError({ code: "synthesis_failed", message });
        // the deltas so far are followed by a rule and the fallback (the final `answer` event replaces them all)
        if (streamed) ctx.delta("\n\n---\n\n");
        ctx.delta(text);
        return {
          result: text,
          patch: {
            title: "Wrote an extractive answer (the model failed)",
            reasoning: `${message}. The answer below quotes the evidence instead.`,
            data: { method: "extractive", fallback: true, modelError: errorMessage(e), evidence: evidence.length },
          },
        };
      }
    }
    const text = await offline();
    if (!text) {
      throw new StepError({
        code: "synthesis_failed",
        message: `Failed to synthesize research answer: no sentence of the retrieved passages${web.length > 0 ? " or web pages" : ""} addresses the question.`,
      });
    }
    // the extractive answer arrives section by section
    for (const part of text.split(/(?=\n\n## )/)) ctx.delta(part);
    const pageContext = evidence.filter((e) => e.pageContext).length;
    return {
      result: text,
      patch: {
        title: "Composed an extractive answer",
        reasoning:
          `Offline mode: the answer quotes the ${text.split(/\[[^\]]+, page \d+\]/).length - 1} evidence sentences that best cover the question, each cited to its paper and page.` +
          (graph?.markdown
            ? ` It ${graph.apart ? "ends" : "leads"} with the ${graph.edges.length} ${graph.edges.length === 1 ? "relation" : "relations"} the knowledge graph holds, each quoting the sentence that states it.`
            : "") +
          (web.length > 0
            ? ` Sentences quoted from web pages are under “From the web”, each cited [W…].${evidence.length === 0 && absent ? " The library's passages never mention the question's subject and were left out." : ""}`
            : ""),
        data: {
          method: "extractive",
          evidence: evidence.length - pageContext + web.length,
          ...(pageContext > 0 ? { pageContext } : {}),
        },
      },
    };
  },
};
