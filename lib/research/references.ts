import type { Reference } from "./types";

export interface ReferencePaper {
  id: string;
  title: string;
  authors: string[];
  arxivId: string | null;
  publishedDate: string | null;
  year: number | null;
  doi: string | null;
}

/** arXiv ids in id order (`1706.03762` < `2005.11401`), papers without one after them, by id. */
function compareIds(a: ReferencePaper, b: ReferencePaper): number {
  if (a.arxivId && !b.arxivId) return -1;
  if (!a.arxivId && b.arxivId) return 1;
  return (a.arxivId ?? a.id).localeCompare(b.arxivId ?? b.id, "en", { numeric: true });
}

export function buildReferences(papers: ReferencePaper[]): Reference[] {
  return [...papers].sort(compareIds).map((p, i) => ({
    number: i + 1,
    paperId: p.id,
    title: p.title,
    authors: p.authors,
    published: p.publishedDate ?? (p.year ? String(p.year) : null),
    doi: p.doi,
    arxivId: p.arxivId,
  }));
}

function authorLine(authors: string[]): string {
  if (authors.length === 0) return "Unknown authors";
  if (authors.length <= 3) return authors.join(", ");
  return `${authors.slice(0, 3).join(", ")} et al.`;
}

/** The `## References` section: `1. ID — Title`, authors, date, DOI link when known. */
export function formatReferences(refs: Reference[]): string {
  if (refs.length === 0) return "";
  const lines = refs.map((r) => {
    const parts = [`${r.number}. **${r.paperId}** — ${r.title}. ${authorLine(r.authors)}`];
    if (r.published) parts.push(`(${r.published})`);
    if (r.doi) parts.push(`[doi:${r.doi}](https://doi.org/${encodeURI(r.doi)})`);
    return parts.join(" ");
  });
  return `## References\n\n${lines.join("\n")}`;
}
