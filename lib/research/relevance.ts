/**
 * Does a cited sentence bear on the question (or on its outline point)? Support (lib/research/citations.ts) checks
 * that the passage states the sentence; relevance checks that the sentence is about what was asked. Offline it is read
 * from the words: the question's key terms in the sentence, else in the passage around it. With a model, the judge
 * gives it beside its support verdict. Off-topic sentences are dropped from the answer before it is shown.
 */
import { tokenize } from "@/lib/text/terms";
import { namedTerms, questionTerms } from "./compose";
import type { Relevance } from "./types";

export const RELEVANCE = ["relevant", "partly", "off_topic"] as const satisfies readonly Relevance[];

/** What the sentence should be about: the question, or a deep outline point (its topic and search keywords). */
export interface RelevanceTopic {
  text: string;
  keywords?: string[];
}

export interface RelevanceVerdict {
  relevance: Relevance;
  reason: string;
}

function quoteList(terms: string[]): string {
  return terms
    .slice(0, 4)
    .map((t) => `“${t}”`)
    .join(", ");
}

/** The lexical verdict: the topic's key terms in the sentence (relevant, partly), else in its passage (partly). */
export function lexicalRelevance(claim: string, passage: string, topic: RelevanceTopic): RelevanceVerdict {
  const terms = questionTerms(topic.text, topic.keywords ?? []);
  if (terms.length === 0) return { relevance: "relevant", reason: "The question has no key terms to check against." };
  const inClaim = new Set(tokenize(claim));
  const matched = terms.filter((t) => inClaim.has(t));
  const named = namedTerms(`${topic.text} ${(topic.keywords ?? []).join(" ")}`)
    .map((n) => tokenize(n))
    .filter((stems) => stems.length > 0 && stems.every((t) => inClaim.has(t)));
  const share = matched.length / terms.length;
  if (share >= 0.5 || (matched.length >= 2 && share >= 0.25) || named.length > 0) {
    return { relevance: "relevant", reason: `Mentions ${matched.length} of the ${terms.length} key terms.` };
  }
  if (matched.length > 0) {
    return {
      relevance: "partly",
      reason: `Mentions ${matched.length} of the ${terms.length} key terms; the rest of the question is not in it.`,
    };
  }
  const inPassage = new Set(tokenize(passage));
  const around = terms.filter((t) => inPassage.has(t)).length / terms.length;
  if (around >= 0.5) {
    return {
      relevance: "partly",
      reason: "Its own words differ from the question's, but its passage is on the topic.",
    };
  }
  return {
    relevance: "off_topic",
    reason: `Neither the sentence nor its passage mentions the key terms (${quoteList(terms)}).`,
  };
}
