import { describeGraphQuestion } from "@/lib/graph/question";
import { parseQueries } from "@/lib/search/query";
import { analyzeWithLlm, analyzeWithRules, type QueryAnalysis, RULE_CONFIDENCE_THRESHOLD } from "../analysis";
import { pendingCard, type StepDefinition } from "../lifecycle";
import { errorMessage } from "../step-kit";
import type { StepOf } from "../types";

/**
 * Analysis: the question's intent, confidence and keywords, by rules; the model is asked only when one is configured
 * and the rules are unsure. Refuses a question with nothing to search for (a clear bad_request, before any work).
 */
export const analysisStep: StepDefinition<StepOf<"analysis">, void, QueryAnalysis> = {
  card: () => pendingCard<StepOf<"analysis">>({ id: "analysis", type: "analysis", title: "Analyzing the question" }),
  async run(ctx) {
    parseQueries(ctx.question);
    let a = analyzeWithRules(ctx.question);
    let note = "";
    if (ctx.llm && a.confidence < RULE_CONFIDENCE_THRESHOLD) {
      try {
        a = await analyzeWithLlm(ctx.llm, ctx.question, { signal: ctx.callSignal() });
      } catch (e) {
        if (ctx.stopped()) throw e;
        note = ` The model could not classify it (${errorMessage(e)}); the rules' answer stands.`;
        ctx.warn(`Query analysis fell back to rules: ${errorMessage(e)}`);
      }
    }
    const graphQuestion = a.graph ? describeGraphQuestion(a.graph) : null;
    return {
      result: a,
      patch: {
        title: `Analyzed the question: ${a.intent} (${Math.round(a.confidence * 100)}% confidence)`,
        reasoning:
          a.reasoning + note + (graphQuestion ? ` It asks ${graphQuestion}: the knowledge graph is searched too.` : ""),
        confidence: a.confidence,
        data: {
          intent: a.intent,
          keywords: a.keywords,
          method: a.method,
          ...(graphQuestion ? { graphQuestion } : {}),
        },
      },
    };
  },
};
