import { extractKeywords } from "../analysis";
import { keywordCoverage } from "../rerank";
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

/**
 * The outline of an improved version: when the feedback asks for something no point covers (less than half of its
 * keywords in any point's topic and keywords), a high-importance point for it is added, so the run retrieves new
 * evidence; otherwise the outline is kept and the feedback only steers the writing.
 */
export function outlineForFeedback(
  outline: Outline,
  feedback: string,
): { outline: Outline; addedPoint: KnowledgePoint | null } {
  const text = feedback.replace(/^\s*improve\s*:\s*/i, "").trim();
  // "add more on X", "expand on X", "cover X" ask for X
  const subject = text
    .replace(
      /^(?:please\s+)?(?:add|include|give|write|say|tell me)?\s*(?:(?:a\s+(?:bit|lot)\s+)?more|some(?:thing)?|details?)?\s*(?:on|about|regarding|of)\s+/i,
      "",
    )
    .replace(/^(?:expand|elaborate|focus|go deeper)\s+(?:on|into)\s+/i, "")
    .replace(/^(?:cover|discuss|explain|describe)\s+/i, "")
    .trim();
  const keywords = extractKeywords(subject || text, 6).filter(
    (k) => !/^(add|more|expand|cover|include|details?)$/i.test(k),
  );
  if (keywords.length === 0) return { outline, addedPoint: null };
  const best = Math.max(
    0,
    ...outline.knowledge_points.map((p) => keywordCoverage(keywords, `${p.topic} ${p.search_keywords.join(" ")}`)),
  );
  if (best >= 0.5 || outline.knowledge_points.length >= 12) return { outline, addedPoint: null };
  let n = outline.knowledge_points.length + 1;
  while (outline.knowledge_points.some((p) => p.id === `kp${n}`)) n++;
  const point: KnowledgePoint = {
    id: `kp${n}`,
    category: "Requested",
    topic: (() => {
      const t = subject || text;
      return t.length > 120 ? `${t.slice(0, 119)}…` : t.charAt(0).toUpperCase() + t.slice(1);
    })(),
    search_keywords: keywords,
    importance: "high",
  };
  return { outline: { ...outline, knowledge_points: [...outline.knowledge_points, point] }, addedPoint: point };
}
