import { inArray, sql } from "drizzle-orm";
import type { Database } from "@/db";
import { papers } from "@/db/schema";
import { sqlList } from "@/db/sql";

// No `import "server-only"` here: the CLI runs these same queries outside Next.js.

export interface PaperByArxivId {
  id: string;
  /** As stored, with version when known (`1706.03762v5`). */
  arxivId: string;
  title: string;
}

/** Papers whose arXiv id, version left out, is one of `ids` (ids given without version: `1706.03762`). */
export async function findPapersByArxivIds(db: Database, { ids }: { ids: string[] }): Promise<PaperByArxivId[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: papers.id, arxivId: papers.arxivId, title: papers.title })
    .from(papers)
    .where(sql`regexp_replace(${papers.arxivId}, 'v[0-9]+$', '') in (${sqlList(ids)})`);
  return rows.flatMap((r) => (r.arxivId ? [{ id: r.id, arxivId: r.arxivId, title: r.title }] : []));
}

export interface PaperByDoi {
  id: string;
  doi: string;
  title: string;
}

/** Papers whose DOI is one of `dois` (compared case-insensitively, as DOIs are). */
export async function findPapersByDois(db: Database, { dois }: { dois: string[] }): Promise<PaperByDoi[]> {
  if (dois.length === 0) return [];
  const lower = [...new Set(dois.map((d) => d.toLowerCase()))];
  const rows = await db
    .select({ id: papers.id, doi: papers.doi, title: papers.title })
    .from(papers)
    .where(inArray(sql`lower(${papers.doi})`, lower));
  return rows.flatMap((r) => (r.doi ? [{ id: r.id, doi: r.doi, title: r.title }] : []));
}
