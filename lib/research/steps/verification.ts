import {
  type EvidencePassage,
  judgeCitations,
  malformedCitations,
  parseCitations,
  verifyCitations,
} from "../citations";
import { pendingCard, type StepDefinition } from "../lifecycle";
import { errorMessage } from "../step-kit";
import type { Citation, StepOf } from "../types";

export interface VerificationInput {
  /** The answer as written, with its `[PAPER_ID, page N]` markers. */
  body: string;
  evidence: EvidencePassage[];
}

/**
 * Verification: each citation must resolve to a retrieved passage of that paper and page, and the cited passage must
 * support the sentence (word overlap offline; the model as a judge when configured). Unsupported claims are flagged,
 * never dropped.
 */
export const verificationStep: StepDefinition<StepOf<"verification">, VerificationInput, Citation[]> = {
  card: () =>
    pendingCard<StepOf<"verification">>({ id: "verification", type: "verification", title: "Verifying citations" }),
  async run(ctx, { body, evidence }) {
    const malformed = malformedCitations(body);
    if (malformed.length > 0) {
      ctx.warn(`Some citations could not be read and were left as written: ${malformed.slice(0, 5).join(", ")}`);
    }
    let checked = verifyCitations(body, evidence);
    let method: "lexical" | "llm" = "lexical";
    if (checked.length === 0 && parseCitations(body).length === 0) {
      ctx.warn("The answer carries no citations; treat it with care.");
    }
    if (ctx.llm && checked.some((c) => c.chunkUid)) {
      try {
        checked = await judgeCitations(ctx.llm, checked, evidence, { signal: ctx.callSignal() });
        method = "llm";
      } catch (e) {
        if (ctx.stopped()) throw e;
        ctx.warn(`The model could not judge the citations (${errorMessage(e)}); the lexical check stands.`);
      }
    }
    const supported = checked.filter((c) => c.supported).length;
    const unsupported = checked.length - supported;
    return {
      result: checked,
      patch: {
        title: `Verified ${checked.length} ${checked.length === 1 ? "citation" : "citations"}: ${supported} supported`,
        reasoning:
          (method === "llm"
            ? "Each cited sentence was resolved to its retrieved passage and judged by the model."
            : "Each cited sentence was resolved to its retrieved passage and checked word by word against it.") +
          (unsupported > 0
            ? ` ${unsupported} ${unsupported === 1 ? "claim is" : "claims are"} flagged as unsupported.`
            : ""),
        confidence: checked.length > 0 ? supported / checked.length : null,
        data: { total: checked.length, supported, unsupported, method },
      },
    };
  },
};
