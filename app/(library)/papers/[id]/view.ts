import "server-only";
import type { PaperDetailView } from "@/components/paper/types";
import type { Database } from "@/db";
import { getPageText, type getPaperDetail } from "@/db/queries/papers";
import type { PaperViewQuery } from "../../schema";
import { paperOutline } from "./outline";

type PaperDetail = NonNullable<Awaited<ReturnType<typeof getPaperDetail>>>;

/**
 * What a paper page shows (the library's `/papers/<id>`, and a share link's `/s/<token>/papers/<id>`): the paper's
 * view, and the viewer's page and passage from the URL — `?hl=` is the passage itself; `?start=&end=` point into the
 * page's stored text.
 */
export async function loadPaperView(
  db: Database,
  detail: PaperDetail,
  query: PaperViewQuery,
): Promise<{ view: PaperDetailView; page: number; passage: string | null }> {
  const { paper, summary, chunkCount } = detail;
  const page = Math.min(query.page, Math.max(paper.pageCount, 1));

  let passage = query.hl || null;
  if (!passage && query.start !== undefined && query.end !== undefined && query.end > query.start) {
    const text = await getPageText(db, { paperId: paper.id, pageNumber: page });
    passage = text?.slice(query.start, Math.min(query.end, query.start + 5_000)).trim() || null;
  }

  const outline = await paperOutline(db, paper);

  const view: PaperDetailView = {
    id: paper.id,
    title: paper.title,
    authors: paper.authors,
    abstract: paper.abstract,
    year: paper.year,
    publishedDate: paper.publishedDate,
    arxivId: paper.arxivId,
    categories: paper.categories,
    doi: paper.doi,
    venue: paper.venue,
    editedFields: paper.editedFields,
    fileName: paper.fileName,
    fileSize: paper.fileSize,
    pageCount: paper.pageCount,
    status: paper.status,
    error: paper.error,
    createdAt: new Date(paper.createdAt).toISOString(),
    chunkCount,
    summary: summary
      ? {
          text: summary.text,
          method: summary.method,
          model: summary.model,
          createdAt: new Date(summary.createdAt).toISOString(),
        }
      : null,
    outline,
  };
  return { view, page, passage };
}
