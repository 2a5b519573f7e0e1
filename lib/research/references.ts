import { escapeMarkdown } from "@/lib/text/markdown";
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

/** A DOI as a link destination: percent-encoded, parentheses and spaces too, so it cannot end the link early. */
function doiUrl(doi: string): string {
  return `https://doi.org/${encodeURI(doi).replace(/[()]/g, (c) => (c === "(" ? "%28" : "%29"))}`;
}

/**
 * The `## References` section: `1. ID — Title`, authors, date, DOI link when known. What comes from the paper (the
 * title, the authors, the date, the DOI's text) is escaped: it reads as text, never as a link, an image or HTML.
 */
export function formatReferences(refs: Reference[]): string {
  if (refs.length === 0) return "";
  const lines = refs.map((r) => {
    const parts = [
      `${r.number}. **${escapeMarkdown(r.paperId)}** — ${escapeMarkdown(r.title)}. ${escapeMarkdown(authorLine(r.authors))}`,
    ];
    if (r.published) parts.push(`(${escapeMarkdown(r.published)})`);
    if (r.doi) parts.push(`[doi:${escapeMarkdown(r.doi)}](${doiUrl(r.doi)})`);
    return parts.join(" ");
  });
  return `## References\n\n${lines.join("\n")}`;
}
