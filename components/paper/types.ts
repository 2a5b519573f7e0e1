import type { PaperStatus } from "@/components/library/types";

/** What the paper page shows. Plain JSON: it crosses the server/client boundary. */
export interface PaperDetailView {
  id: string;
  title: string;
  authors: string[];
  abstract: string | null;
  year: number | null;
  /** `YYYY-MM-DD`. */
  publishedDate: string | null;
  arxivId: string | null;
  categories: string[];
  doi: string | null;
  /** Journal, proceedings or arXiv's journal reference (from arXiv or an imported bibliography). */
  venue: string | null;
  /** Metadata fields the user corrected (lib/library/metadata.ts: `title`, `authors`, …). */
  editedFields: string[];
  fileName: string;
  fileSize: number;
  pageCount: number;
  status: PaperStatus;
  error: string | null;
  /** ISO 8601. */
  createdAt: string;
  chunkCount: number;
  summary: { text: string; method: "extractive" | "llm"; model: string | null; createdAt: string } | null;
  /** The paper's section headings, in reading order (lib/text/sections.ts); empty when none were found. */
  outline: OutlineEntry[];
}

/** A section heading of the paper, for its table of contents. */
export interface OutlineEntry {
  /** 1-based page the heading is on. */
  page: number;
  /** As printed ("3.2", "B", "II"); empty for "Abstract", "References" and the like. */
  numbering: string;
  title: string;
  /** 0 for a top-level section, 1 for its subsections, … */
  depth: number;
}
