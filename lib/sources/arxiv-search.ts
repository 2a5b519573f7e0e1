import type { Database } from "@/db";
import { findPapersByArxivIds } from "@/db/queries/sources";
import type { ArxivClient, ArxivSearchQuery } from "./arxiv";
import { splitVersion } from "./arxiv-ids";

/** One arXiv search result, with what the library has of it. Field names are the CLI's `--json` contract. */
export interface ArxivSearchHit {
  arxiv_id: string;
  title: string;
  authors: string[];
  abstract: string;
  categories: string[];
  published: string | null;
  updated: string | null;
  journal_ref: string | null;
  doi: string | null;
  /** The library's paper of this arXiv id (any version), or null. */
  in_library: { paper_id: string; arxiv_id: string } | null;
}

/** Searches arXiv and marks the results the library already has. */
export async function searchArxiv(
  db: Database,
  arxiv: ArxivClient,
  query: ArxivSearchQuery,
  signal?: AbortSignal,
): Promise<{ total: number; results: ArxivSearchHit[] }> {
  const { total, entries } = await arxiv.search(query, signal);
  const held = await findPapersByArxivIds(db, { ids: entries.map((e) => e.id) });
  return {
    total,
    results: entries.map((e) => {
      const mine = held.find((p) => splitVersion(p.arxivId).id === e.id);
      return {
        arxiv_id: e.versionedId,
        title: e.title,
        authors: e.authors,
        abstract: e.abstract,
        categories: e.categories,
        published: e.published,
        updated: e.updated,
        journal_ref: e.journalRef,
        doi: e.doi,
        in_library: mine ? { paper_id: mine.id, arxiv_id: mine.arxivId } : null,
      };
    }),
  };
}
