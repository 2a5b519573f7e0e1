import { MAX_QUERY_CHARS } from "@/lib/search/query";
import { ARXIV_CATEGORY } from "./search-url";
import type { SearchIndex, SearchState } from "./types";

/** The form's fields as typed, before they become a search. */
export interface SearchDraft {
  q: string;
  index: SearchIndex;
  papers: string[];
  yearFrom: string;
  yearTo: string;
  category: string;
  refs: boolean;
}

export type DraftField = "q" | "yearFrom" | "yearTo" | "category";

export function toDraft(state: SearchState): SearchDraft {
  return {
    q: state.q,
    index: state.index,
    papers: state.papers,
    yearFrom: state.yearFrom === null ? "" : String(state.yearFrom),
    yearTo: state.yearTo === null ? "" : String(state.yearTo),
    category: state.category ?? "",
    refs: state.refs,
  };
}

export function tooLongMessage(length: number): string {
  return `The query is too long (${length.toLocaleString("en")} characters); keep it under ${MAX_QUERY_CHARS.toLocaleString("en")}.`;
}

/**
 * The search a draft asks for, or what is wrong with it (in the words lib/search uses for the same problems). Checked
 * in the browser so an empty or oversized query never leaves it: a 20,000-character query would not even fit in a URL.
 */
export function validateDraft(
  draft: SearchDraft,
): { ok: true; state: SearchState } | { ok: false; field: DraftField; message: string } {
  const q = draft.q.trim();
  if (!q) return { ok: false, field: "q", message: "Type a question or some keywords to search for." };
  if (q.length > MAX_QUERY_CHARS) return { ok: false, field: "q", message: tooLongMessage(q.length) };
  const year = (field: "yearFrom" | "yearTo") => {
    const v = draft[field].trim();
    if (!v) return null;
    return /^\d{4}$/.test(v) ? Number(v) : undefined;
  };
  const yearFrom = year("yearFrom");
  if (yearFrom === undefined) return { ok: false, field: "yearFrom", message: "A year has four digits, e.g. 2019." };
  const yearTo = year("yearTo");
  if (yearTo === undefined) return { ok: false, field: "yearTo", message: "A year has four digits, e.g. 2024." };
  if (yearFrom !== null && yearTo !== null && yearFrom > yearTo) {
    return { ok: false, field: "yearTo", message: `The year range ${yearFrom}–${yearTo} is empty.` };
  }
  const category = draft.category.trim();
  if (category && !ARXIV_CATEGORY.test(category)) {
    return { ok: false, field: "category", message: "An arXiv category looks like cs.CL or hep-th." };
  }
  return {
    ok: true,
    state: {
      q,
      index: draft.index,
      papers: draft.papers,
      yearFrom,
      yearTo,
      category: category || null,
      refs: draft.refs,
    },
  };
}
