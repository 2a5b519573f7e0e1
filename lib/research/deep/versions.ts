import { extractKeywords } from "../analysis";
import { LIMITS } from "../limits";
import { keywordCoverage } from "../rerank";
import { cleanKeywords, isFillerWord, isNamedToken, sentenceCase, wordsOf } from "./phrases";
import type { KnowledgePoint, Outline } from "./types";

export interface OutlineDiff {
  titleChanged: { from: string; to: string } | null;
  yearsChanged: { from: string; to: string } | null;
  added: KnowledgePoint[];
  removed: KnowledgePoint[];
  /** Points with the same id whose fields changed, with the changed field names. */
  changed: { id: string; topic: string; fields: (keyof KnowledgePoint)[] }[];
  /** True when the order of the points kept changed. */
  reordered: boolean;
}

function yearsOf(o: Outline): string {
  return o.year_from || o.year_to ? `${o.year_from ?? "…"}–${o.year_to ?? "…"}` : "all years";
}

/** What changed from one version's outline to the next (the run page shows it). */
export function diffOutlines(before: Outline, after: Outline): OutlineDiff {
  const b = new Map(before.knowledge_points.map((p) => [p.id, p]));
  const a = new Map(after.knowledge_points.map((p) => [p.id, p]));
  const changed: OutlineDiff["changed"] = [];
  for (const [id, next] of a) {
    const prev = b.get(id);
    if (!prev) continue;
    const fields = (["topic", "category", "importance", "search_keywords"] as const).filter(
      (f) => JSON.stringify(prev[f]) !== JSON.stringify(next[f]),
    );
    if (fields.length > 0) changed.push({ id, topic: next.topic, fields: [...fields] });
  }
  const keptBefore = before.knowledge_points.filter((p) => a.has(p.id)).map((p) => p.id);
  const keptAfter = after.knowledge_points.filter((p) => b.has(p.id)).map((p) => p.id);
  return {
    titleChanged: before.title !== after.title ? { from: before.title, to: after.title } : null,
    yearsChanged: yearsOf(before) !== yearsOf(after) ? { from: yearsOf(before), to: yearsOf(after) } : null,
    added: after.knowledge_points.filter((p) => !b.has(p.id)),
    removed: before.knowledge_points.filter((p) => !a.has(p.id)),
    changed,
    reordered: keptBefore.join("\u0000") !== keptAfter.join("\u0000"),
  };
}

export function isEmptyDiff(d: OutlineDiff): boolean {
  return (
    !d.titleChanged && !d.yearsChanged && !d.reordered && d.added.length + d.removed.length + d.changed.length === 0
  );
}

/** Verbs that open a request of its own inside feedback ("… and compare STaR with LMSI"). */
const REQUEST_VERB = "(?:add|include|compare|contrast|discuss|cover|explain|describe|mention|expand|elaborate|focus)";
const REQUEST_START = new RegExp(
  String.raw`^(?:(?:please|also|then)\s+)*(?:${REQUEST_VERB}\b|more\s+(?:on|about)\b)`,
  "i",
);
/** Abbreviations whose full stop ends no sentence ("STaR vs. LMSI", "e.g. LoRA", "Huang et al. on …"). */
const ABBREVIATION = /\b(?:vs|e\.g|i\.e|et al|cf|etc|approx|incl|resp|Fig|Sec|Eq|No)\.$/i;

/**
 * The requests feedback makes: its sentences, each cut where a clause opens with a request verb ("Add a section on X
 * and compare STaR with LMSI." → "Add a section on X", "compare STaR with LMSI"). Sentences that ask nothing ("Great
 * work, thanks!", "The review is good.") are left out when another one asks something; when none does, the feedback is
 * one request, as written.
 */
export function feedbackRequests(feedback: string): string[] {
  const text = feedback.replace(/^\s*improve\s*:\s*/i, "").trim();
  const sentences: string[] = [];
  for (const piece of text.split(/(?<=[.!?;])\s+|;\s*/)) {
    const last = sentences[sentences.length - 1];
    // (a full stop after an abbreviation ends no sentence)
    if (last !== undefined && ABBREVIATION.test(last)) sentences[sentences.length - 1] = `${last} ${piece}`;
    else sentences.push(piece);
  }
  const clauses = sentences
    .flatMap((sentence) =>
      sentence.split(new RegExp(String.raw`,?\s+(?:and\s+)?(?:also\s+|then\s+)?(?=${REQUEST_VERB}\b)`, "i")),
    )
    .map((r) => r.trim())
    .filter((r) => r.replace(/[.!?;:,]+$/, "").trim().length > 0);
  const asking = clauses.filter((c) => REQUEST_START.test(c));
  return asking.length > 0 ? asking : text ? [text] : [];
}

/** What feedback asks for: "add more on multi-agent debate" → "multi-agent debate" (lead-ins and asks left out). */
export function feedbackSubject(feedback: string): string {
  const text = feedback
    .replace(/^\s*improve\s*:\s*/i, "")
    .replace(/^(?:(?:please|also|then)\s+)+/i, "")
    .trim();
  // "compare X with Y" asks for both ("with", "against", "versus" before "and" and "to")
  const compared =
    /^(?:compare|contrast)\s+(.+?)\s+(?:with|against|versus|vs\.?)\s+(.+?)[.!?]*$/i.exec(text) ??
    /^(?:compare|contrast)\s+(.+?)\s+(?:and|to)\s+(.+?)[.!?]*$/i.exec(text);
  if (compared) return `${compared[1]} and ${compared[2]}`;
  // "add more on X", "add a (short) section on X", "expand on X", "cover X", "mention X" ask for X
  return text
    .replace(
      /^(?:add|include|give|write|say|tell me)?\s*(?:(?:a\s+(?:bit|lot)\s+)?more|some(?:thing)?|details?|(?:a|an|one)\s+(?:[\w-]+\s+){0,2}?(?:section|point|part|paragraph|chapter|topic))?\s*(?:on|about|regarding|of|for|covering)\s+/i,
      "",
    )
    .replace(/^(?:expand|elaborate|focus|go deeper)\s+(?:on|into)\s+/i, "")
    .replace(/^(?:cover|discuss|explain|describe|include|mention)\s+/i, "")
    .replace(/[.!?]+$/, "")
    .trim();
}

/**
 * The feedback's own key phrases: the subject when it is short, each of the things it lists ("X and Y"), and its
 * content words — filler left out ("more", "details", "way").
 */
export function feedbackKeywords(subject: string): string[] {
  const parts = subject.split(/\s*(?:,|;|\band\b|\bor\b|\bas well as\b)\s*/i).map((p) => p.trim());
  const phrases = [subject, ...parts].filter((p) => p && wordsOf(p).length <= 4 && wordsOf(p).length > 1);
  const words = extractKeywords(subject, 8).filter((k) => !isFillerWord(k) || isNamedToken(k));
  return cleanKeywords([...phrases, ...words]).slice(0, 6);
}

/**
 * The outline of an improved version. When the feedback asks for something no point covers (less than half of its
 * keywords in any point's topic and keywords), a high-importance point named by the feedback's own phrase is added
 * ("add more on multi-agent debate" → "Multi-agent debate"), so the run retrieves new evidence; when a point covers
 * it, that point takes the feedback's phrase among its keywords (its search leans towards it); feedback that names no
 * topic of its own only steers the writing.
 */
export function outlineForFeedback(
  outline: Outline,
  feedback: string,
): { outline: Outline; addedPoint: KnowledgePoint | null; added: KnowledgePoint[]; reshaped: KnowledgePoint[] } {
  // each request of the feedback on its own: "add a section on X and compare A with B" can add two points
  let current = outline;
  const added: KnowledgePoint[] = [];
  const reshaped: KnowledgePoint[] = [];
  for (const request of feedbackRequests(feedback)) {
    const next = outlineForRequest(current, request);
    if (next.addedPoint) added.push(next.addedPoint);
    if (next.reshapedPoint && !reshaped.some((p) => p.id === next.reshapedPoint?.id)) reshaped.push(next.reshapedPoint);
    current = next.outline;
  }
  // a point added for one request and reshaped by a later one was added: it is said once, as added (as it now is)
  const addedIds = new Set(added.map((p) => p.id));
  const final = new Map(current.knowledge_points.map((p) => [p.id, p]));
  return {
    outline: current,
    addedPoint: added[0] ? (final.get(added[0].id) ?? added[0]) : null,
    added: added.map((p) => final.get(p.id) ?? p),
    reshaped: reshaped.filter((p) => !addedIds.has(p.id)),
  };
}

function outlineForRequest(
  outline: Outline,
  feedback: string,
): { outline: Outline; addedPoint: KnowledgePoint | null; reshapedPoint?: KnowledgePoint } {
  const subject = feedbackSubject(feedback);
  const keywords = feedbackKeywords(subject);
  // feedback of filler only ("add more details", "better please") names no topic: it steers the writing only
  if (keywords.length === 0) return { outline, addedPoint: null };
  const scored = outline.knowledge_points.map((p) => ({
    p,
    coverage: keywordCoverage(keywords, `${p.topic} ${p.search_keywords.join(" ")}`),
  }));
  const best = scored.sort((a, b) => b.coverage - a.coverage)[0];
  if (best && best.coverage >= 0.5) {
    // reshape the point that covers it: its search takes the feedback's phrase
    const phrase = keywords[0] as string;
    if (best.p.search_keywords.some((k) => k.toLowerCase() === phrase.toLowerCase())) {
      return { outline, addedPoint: null };
    }
    const reshaped = {
      ...best.p,
      search_keywords: [phrase, ...best.p.search_keywords].slice(0, LIMITS.pointKeywords),
    };
    const knowledge_points = outline.knowledge_points.map((p) => (p.id === reshaped.id ? reshaped : p));
    return { outline: { ...outline, knowledge_points }, addedPoint: null, reshapedPoint: reshaped };
  }
  if (outline.knowledge_points.length >= LIMITS.outlinePoints.max) return { outline, addedPoint: null };
  let n = outline.knowledge_points.length + 1;
  while (outline.knowledge_points.some((p) => p.id === `kp${n}`)) n++;
  const topic = sentenceCase(subject);
  const point: KnowledgePoint = {
    id: `kp${n}`,
    category: "Requested",
    topic: topic.length > 120 ? `${topic.slice(0, 119)}…` : topic,
    search_keywords: keywords.map((k) => k.slice(0, LIMITS.keywordChars)),
    importance: "high",
  };
  return { outline: { ...outline, knowledge_points: [...outline.knowledge_points, point] }, addedPoint: point };
}
