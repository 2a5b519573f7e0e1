import type { SearchState } from "./types";

/**
 * The search page's URL is its state: `/search?q=…&index=summaries&papers=a,b&years=2019-2024&category=cs.CL&refs=1`.
 * Defaults are left out, so a plain query reads `/search?q=…`.
 */
export function searchHref(state: SearchState): string {
  const params = new URLSearchParams();
  if (state.q) params.set("q", state.q);
  if (state.index !== "content") params.set("index", state.index);
  if (state.papers.length > 0) params.set("papers", state.papers.join(","));
  const years = formatYears(state.yearFrom, state.yearTo);
  if (years) params.set("years", years);
  if (state.category) params.set("category", state.category);
  if (state.refs) params.set("refs", "1");
  const qs = params.toString();
  return `/search${qs ? `?${qs}` : ""}`;
}

/** `2019-2024`, `2019-` (from), `-2024` (until) or `2019` (that year); empty when neither end is set. */
export function formatYears(from: number | null, to: number | null): string {
  if (from === null && to === null) return "";
  if (from !== null && to !== null) return from === to ? String(from) : `${from}-${to}`;
  return from !== null ? `${from}-` : `-${to}`;
}

/** The inverse of `formatYears` (en dash accepted too); null when `s` is not such a range. */
export function parseYears(s: string): { from: number | null; to: number | null } | null {
  const m = /^\s*(\d{4})?\s*([-–])?\s*(\d{4})?\s*$/.exec(s);
  if (!m || (!m[1] && !m[3])) return null;
  const from = m[1] ? Number(m[1]) : null;
  const to = m[3] ? Number(m[3]) : m[2] ? null : from;
  return { from, to };
}

/** Paper ids from `papers=a,b` (or repeated `papers=` parameters), trimmed, without duplicates. */
export function splitPaperIds(value: string | string[] | undefined): string[] {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  const ids = list.flatMap((v) => v.split(",")).map((id) => id.trim());
  return [...new Set(ids.filter(Boolean))];
}

/**
 * How many filters are set (for the filters' summary). Including the reference lists widens the content search
 * rather than narrowing it; the summaries have none, so there it counts for nothing.
 */
export function activeFilterCount(state: SearchState): number {
  return (
    (state.papers.length > 0 ? 1 : 0) +
    (state.yearFrom !== null || state.yearTo !== null ? 1 : 0) +
    (state.category ? 1 : 0) +
    (state.refs && state.index === "content" ? 1 : 0)
  );
}

/** An arXiv category: `cs.CL`, `hep-th`, `astro-ph.CO`, `cond-mat.stat-mech`. */
export const ARXIV_CATEGORY = /^[A-Za-z][A-Za-z-]{0,20}(\.[A-Za-z][A-Za-z-]{0,20})?$/;
