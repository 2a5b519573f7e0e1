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
  fileName: string;
  fileSize: number;
  pageCount: number;
  status: PaperStatus;
  error: string | null;
  /** ISO 8601. */
  createdAt: string;
  chunkCount: number;
  summary: { text: string; method: "extractive" | "llm"; model: string | null; createdAt: string } | null;
}
