/**
 * Does a cited sentence bear on the question (or on its outline point)? Support (lib/research/citations.ts) checks
 * that the passage states the sentence; relevance checks that the sentence is about what was asked. Offline it is read
 * from the words: the question's key terms in the sentence, else in the passage around it. With a model, the judge
 * gives it beside its support verdict. Off-topic sentences are dropped from the answer before it is shown.
 */
import { respelledTerms, tokenize } from "@/lib/text/terms";
import { namedTerms, questionTerms } from "./compose";
import type { Citation, Relevance } from "./types";

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
  const inClaim = new Set(tokenize(claim));
  let passageTerms: Set<string> | null = null;
  const inPassageOf = () => {
    passageTerms ??= new Set(tokenize(passage));
    return passageTerms;
  };
  // the topic's British spellings as the sentence or its passage writes them ("memorised" → "memorized")
  const respelled = respelledTerms(
    `${topic.text} ${(topic.keywords ?? []).join(" ")}`,
    (t) => inClaim.has(t) || inPassageOf().has(t),
  );
  const terms = [...new Set(questionTerms(topic.text, topic.keywords ?? []).map((t) => respelled.get(t) ?? t))];
  if (terms.length === 0) return { relevance: "relevant", reason: "The question has no key terms to check against." };
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
  const inPassage = inPassageOf();
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

/**
 * A sentence quoted beside the one it leans on or explains ("To counteract this effect, …" after the effect; the reason
 * after a finding) need not repeat the question's words: off-topic by the word check, it is partly relevant when the
 * claim next to it on the same line of the answer (one paragraph or list item) is not off-topic and cites the same
 * page. Pages are compared as the citations resolved them (a marker may name a paper without its version).
 */
export function withCompanions(checked: Citation[], claims: { claim: string; line: number }[]): Citation[] {
  const pagesOf = (claim: string, on: (c: Citation) => boolean) =>
    new Set(checked.filter((c) => c.claim === claim && on(c)).map((c) => `${c.paperId}|${c.page}`));
  const rescued = new Set<string>();
  claims.forEach((c, i) => {
    const own = pagesOf(c.claim, (x) => x.relevance === "off_topic");
    for (const n of [claims[i - 1], claims[i + 1]]) {
      if (!n || n.line !== c.line) continue;
      for (const page of pagesOf(n.claim, (x) => x.relevance !== "off_topic"))
        if (own.has(page)) rescued.add(`${c.claim}\u0000${page}`);
    }
  });
  if (rescued.size === 0) return checked;
  return checked.map((c) =>
    c.relevance === "off_topic" && rescued.has(`${c.claim}\u0000${c.paperId}|${c.page}`)
      ? {
          ...c,
          relevance: "partly",
          relevanceReason: "Quoted with the sentence beside it, from the same page, which bears on the question.",
        }
      : c,
  );
}
