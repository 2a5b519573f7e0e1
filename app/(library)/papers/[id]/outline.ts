import "server-only";
import type { OutlineEntry } from "@/components/paper/types";
import type { Database } from "@/db";
import { getPageTexts } from "@/db/queries/papers";
import { findSectionHeadings } from "@/lib/text/sections";

/** Outlines of recently viewed papers, by paper id and file (a replaced paper has another doc id). */
const cache = new Map<string, OutlineEntry[]>();
const CACHE_SIZE = 100;

/**
 * A paper's table of contents: its top-level sections and their subsections, found in its stored pages
 * (lib/text/sections.ts). Reading the pages of a long paper costs more than finding its headings, so the outline is
 * kept for the papers viewed last.
 */
export async function paperOutline(db: Database, paper: { id: string; docId: string }): Promise<OutlineEntry[]> {
  const key = `${paper.id}\u0000${paper.docId}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const outline = findSectionHeadings(await getPageTexts(db, { paperId: paper.id }))
    .filter((h) => h.path.length > 0 && h.path.length <= 2)
    .map((h) => ({ page: h.page, numbering: h.numbering, title: h.title, depth: h.path.length - 1 }));
  cache.set(key, outline);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return outline;
}
