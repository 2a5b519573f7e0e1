import "server-only";
import type { PaperRow } from "@/components/library/types";
import type { PaperListItem } from "@/db/queries/papers";

export function toPaperRow(p: PaperListItem): PaperRow {
  return {
    id: p.id,
    title: p.title,
    authors: p.authors,
    year: p.year,
    arxivId: p.arxivId,
    pageCount: p.pageCount,
    status: p.status,
    error: p.error,
    createdAt: new Date(p.createdAt).toISOString(),
    hasSummary: Boolean(p.hasSummary),
  };
}
