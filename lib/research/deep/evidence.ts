import { createHash } from "node:crypto";
import type { EvidencePassage } from "../citations";
import { keywordCoverage, type RerankedResult } from "../rerank";
import { toEvidence } from "../step-kit";
import type { RetrievedRecord } from "../types";
import { mentionsTopic, type TopicTerms, topicTerms } from "./phrases";
import type { KnowledgePoint } from "./types";

/** A point that owns fewer passages than this borrows its best ones from the points that own them. */
export const MIN_POINT_PASSAGES = 1;

/** Dedup key of a passage across points: DOI and page, else title and page, else a hash of its text. */
export function dedupKey(p: { doi?: string | null; title?: string | null; page: number; text: string }): string {
  if (p.doi) return `doi:${p.doi.toLowerCase()}#${p.page}`;
  if (p.title?.trim()) return `title:${p.title.trim().toLowerCase().replace(/\s+/g, " ")}#${p.page}`;
  return `hash:${createHash("sha256").update(p.text.replace(/\s+/g, " ").trim()).digest("hex").slice(0, 16)}`;
}

export interface PointEvidence {
  /** Per point (in the order given): its passages. */
  perPoint: RerankedResult[][];
  /** Per point: the chunk uids it borrowed from other points. */
  borrowed: Set<string>[];
  /** Every passage once, as evidence. */
  all: EvidencePassage[];
  /** What was retrieved, for the run's record (rank: point index × 100 + rank within the point). */
  retrieved: RetrievedRecord[];
}

/**
 * Deduplicates the points' passages: a passage found by several belongs to the point whose topic it mentions
 * (`mentionsTopic`) and whose keywords it covers best (the more important point on a tie — points come most important
 * first). A point left without a passage that mentions its topic (a small library, overlapping topics) shares the
 * passages of others that do mention it; with none, its best ones (its section then says the library has little on it).
 */
export function assignPassages(
  points: KnowledgePoint[],
  found: RerankedResult[][],
  doiOf: (paperId: string) => string | null | undefined,
): PointEvidence {
  const keyOf = (r: RerankedResult) => dedupKey({ doi: doiOf(r.paperId), title: r.title, page: r.page, text: r.text });
  const terms = points.map((p) => topicTerms(p.topic));
  const mentions = (pi: number, r: RerankedResult) => mentionsTopic(terms[pi] as TopicTerms, r.text);
  const owner = new Map<string, { pi: number; score: number }>();
  found.forEach((list, pi) => {
    for (const r of list) {
      const key = keyOf(r);
      const score = (mentions(pi, r) ? 1 : 0) + keywordCoverage((points[pi] as KnowledgePoint).search_keywords, r.text);
      const cur = owner.get(key);
      if (!cur || score > cur.score) owner.set(key, { pi, score });
    }
  });
  const kept = new Set<string>();
  const borrowed = found.map(() => new Set<string>());
  const perPoint = found.map((list, pi) => {
    const own = list.filter((r) => {
      const key = keyOf(r);
      if (owner.get(key)?.pi !== pi || kept.has(key)) return false;
      kept.add(key);
      return true;
    });
    if (own.filter((r) => mentions(pi, r)).length >= MIN_POINT_PASSAGES) return own;
    const others = list.filter((r) => !own.includes(r));
    const about = others.filter((r) => mentions(pi, r)).slice(0, 2);
    const shared = about.length > 0 ? about : own.length >= MIN_POINT_PASSAGES ? [] : others.slice(0, 2);
    for (const r of shared) borrowed[pi]?.add(r.chunkUid);
    return [...own, ...shared];
  });
  const recorded = new Set<string>();
  const retrieved = perPoint.flatMap((list, pi) =>
    list
      .filter((r) => !recorded.has(r.chunkUid) && recorded.add(r.chunkUid))
      .map((r, i) => ({
        chunkUid: r.chunkUid,
        paperId: r.paperId,
        page: r.page,
        stage: "content" as const,
        rank: pi * 100 + i + 1,
        score: r.rerankScore,
      })),
  );
  const all = [...new Map(perPoint.flat().map((r) => [r.chunkUid, toEvidence(r)])).values()];
  return { perPoint, borrowed, all, retrieved };
}

/** Runs `fn` over items with at most `limit` at once, keeping the order of results. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  });
  await Promise.all(workers);
  return out;
}
