import type { PassageHit } from "./types";

/** The content index's passages of one paper. */
export interface PaperGroup {
  paperId: string;
  title: string;
  year: number | null;
  /** In result order: best first. */
  hits: PassageHit[];
  /** Pages with a passage, in page order, each with its best passage. */
  pages: { page: number; hit: PassageHit }[];
  /** The best passage's relevance. */
  relevance: number;
}

/**
 * Passages grouped by paper. Papers come in the order of their best passage, so the ranking (and the diversity the
 * search chose) is kept.
 */
export function groupByPaper(hits: readonly PassageHit[]): PaperGroup[] {
  const groups = new Map<string, PaperGroup>();
  for (const hit of hits) {
    let group = groups.get(hit.paperId);
    if (!group) {
      group = { paperId: hit.paperId, title: hit.title, year: hit.year, hits: [], pages: [], relevance: 0 };
      groups.set(hit.paperId, group);
    }
    group.hits.push(hit);
    group.relevance = Math.max(group.relevance, hit.relevance);
    if (!group.pages.some((p) => p.page === hit.page)) group.pages.push({ page: hit.page, hit });
  }
  for (const group of groups.values()) group.pages.sort((a, b) => a.page - b.page);
  return [...groups.values()];
}
