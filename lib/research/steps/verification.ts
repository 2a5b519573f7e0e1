import {
  citedClaims,
  dropClaims,
  type EvidencePassage,
  judgeCitations,
  malformedCitations,
  parseCitations,
  verifyCitations,
} from "../citations";
import { pendingCard, type StepDefinition, StepError } from "../lifecycle";
import { lexicalRelevance, type RelevanceTopic, withCompanions } from "../relevance";
import { errorMessage } from "../step-kit";
import type { Citation, StepOf } from "../types";
import { hasWebCitations } from "../web";

export interface VerificationInput {
  /** The answer as written, with its `[PAPER_ID, page N]` markers. */
  body: string;
  evidence: EvidencePassage[];
  /** What the claims under a heading should be about (a deep section's outline point); else the question. */
  topics?: ReadonlyMap<string, RelevanceTopic>;
}

export interface VerifiedAnswer {
  /** The answer without its off-topic claims. */
  body: string;
  citations: Citation[];
}

/**
 * Verification: each citation must resolve to a passage of that paper and page the synthesis was given, and it must
 * support the sentence (word overlap offline; the model as a judge when configured); unsupported claims are flagged,
 * never dropped. Each claim also gets a relevance verdict for the question (or its section's outline point): a claim
 * every citation of which is off-topic is dropped from the answer, and counted.
 */
export const verificationStep: StepDefinition<StepOf<"verification">, VerificationInput, VerifiedAnswer> = {
  card: () =>
    pendingCard<StepOf<"verification">>({ id: "verification", type: "verification", title: "Verifying citations" }),
  async run(ctx, { body, evidence, topics }) {
    const malformed = malformedCitations(body);
    if (malformed.length > 0) {
      ctx.warn(`Some citations could not be read and were left as written: ${malformed.slice(0, 5).join(", ")}`);
    }
    const question: RelevanceTopic = { text: ctx.question };
    const claims = citedClaims(body);
    const headingOf = new Map<string, string | null>();
    for (const c of claims) if (!headingOf.has(c.claim)) headingOf.set(c.claim, c.heading);
    const topicOf = (c: Citation): RelevanceTopic => topics?.get(headingOf.get(c.claim) ?? "") ?? question;
    const byUid = new Map(evidence.map((e) => [e.chunkUid, e]));
    let checked: Citation[] = verifyCitations(body, evidence).map((c) => {
      const v = lexicalRelevance(c.claim, byUid.get(c.chunkUid ?? "")?.text ?? "", topicOf(c));
      return { ...c, relevance: v.relevance, relevanceReason: v.reason };
    });
    // (the word check's verdicts only: a model judges each sentence with its passage itself)
    checked = withCompanions(checked, claims);
    let method: "lexical" | "llm" = "lexical";
    if (checked.length === 0 && parseCitations(body).length === 0 && !hasWebCitations(body)) {
      ctx.warn("The answer carries no citations; treat it with care.");
    }
    if (ctx.llm && checked.some((c) => c.chunkUid)) {
      try {
        checked = await judgeCitations(ctx.llm, checked, evidence, {
          signal: ctx.callSignal(),
          topicOf: (c) => {
            const t = topicOf(c);
            return t === question ? t.text : `${ctx.question} — section: ${t.text}`;
          },
        });
        method = "llm";
      } catch (e) {
        if (ctx.stopped()) throw e;
        ctx.warn(`The model could not judge the citations (${errorMessage(e)}); the lexical check stands.`);
      }
    }
    // a claim goes when every citation it carries is off-topic
    const allOff = new Map<string, boolean>();
    for (const c of checked) allOff.set(c.claim, (allOff.get(c.claim) ?? true) && c.relevance === "off_topic");
    const offTopic = new Set([...allOff].filter(([, off]) => off).map(([claim]) => claim));
    const kept = offTopic.size > 0 ? dropClaims(body, (claim) => offTopic.has(claim)) : body;
    if (offTopic.size > 0 && citedClaims(kept).every((c) => c.citations.length === 0) && !hasWebCitations(kept)) {
      // nothing cited is left: the passages found do not answer the question
      throw new StepError({
        code: "no_answer",
        message: `The library does not answer this: every cited sentence the answer had (${offTopic.size}) was off the question.`,
        hint: "Add papers about it to the library, or ask about what the library holds.",
      });
    }
    const citations = checked.filter((c) => !offTopic.has(c.claim)).map((c, i) => ({ ...c, index: i + 1 }));
    const supported = citations.filter((c) => c.supported).length;
    const unsupported = citations.length - supported;
    const relevant = citations.filter((c) => c.relevance === "relevant").length;
    const partly = citations.filter((c) => c.relevance === "partly").length;
    return {
      result: { body: kept, citations },
      patch: {
        title: `Verified ${citations.length} ${citations.length === 1 ? "citation" : "citations"}: ${supported} supported`,
        reasoning:
          (method === "llm"
            ? "Each cited sentence was resolved to its retrieved passage and judged by the model, for support and for relevance to the question."
            : "Each cited sentence was resolved to its passage (retrieved, or of a retrieved page), checked word by word against it, and checked for the question's key terms.") +
          (unsupported > 0
            ? ` ${unsupported} ${unsupported === 1 ? "claim is" : "claims are"} flagged as unsupported.`
            : "") +
          (offTopic.size > 0
            ? ` ${offTopic.size} off-topic ${offTopic.size === 1 ? "sentence was" : "sentences were"} dropped from the answer.`
            : ""),
        confidence: citations.length > 0 ? supported / citations.length : null,
        data: { total: citations.length, supported, unsupported, method, relevant, partly, offTopic: offTopic.size },
      },
    };
  },
};
