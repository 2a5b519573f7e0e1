/** What the library UI shows of a paper. Plain JSON (dates as ISO strings): it crosses the server/client boundary. */
export const paperSorts = ["added", "year", "title"] as const;
export type PaperSort = (typeof paperSorts)[number];

export const sortLabels: Record<PaperSort, string> = {
  added: "Date added",
  year: "Year",
  title: "Title",
};

export type PaperStatus = "processing" | "ready" | "error";

export interface PaperRow {
  id: string;
  title: string;
  authors: string[];
  year: number | null;
  arxivId: string | null;
  pageCount: number;
  status: PaperStatus;
  error: string | null;
  /** ISO 8601. */
  createdAt: string;
  hasSummary: boolean;
}

/** What the app's route handlers and actions answer: the one result type of lib/errors. */
export type { Result as ApiResult } from "@/lib/errors";

/** The path of a paper's page; ids may contain `/` (old-style arXiv ids such as `hep-th/9901001v1`). */
export function paperHref(id: string, params?: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined && v !== "") search.set(k, String(v));
  const qs = search.toString();
  return `/papers/${encodeURIComponent(id)}${qs ? `?${qs}` : ""}`;
}

/**
 * Records a page turn of the paper viewer in the current URL, without a server round trip (the viewer follows the
 * URL's `page`). The highlight (`hl`, or `start`/`end`) belongs to its page: it is dropped unless `keepHighlight`.
 */
export function replacePageInUrl(page: number, keepHighlight: boolean): void {
  const params = new URLSearchParams(window.location.search);
  params.set("page", String(page));
  if (!keepHighlight) for (const k of ["hl", "start", "end"]) params.delete(k);
  window.history.replaceState(null, "", `${window.location.pathname}?${params}`);
}

export function paperPdfUrl(id: string): string {
  return `/api/papers/${encodeURIComponent(id)}/pdf`;
}
