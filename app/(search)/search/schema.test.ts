import { describe, expect, it } from "vitest";
import { searchHref } from "@/components/search/search-url";
import { emptySearchState, type SearchState } from "@/components/search/types";
import { parseSearchUrl } from "./schema";

/** The query parameters of one of the page's own links, as Next.js hands them to the page. */
function paramsOf(href: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [key, value] of new URL(href, "http://x").searchParams) {
    const seen = params[key];
    params[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return params;
}

describe("parseSearchUrl", () => {
  it("reads back what searchHref wrote", () => {
    const states: SearchState[] = [
      emptySearchState,
      { ...emptySearchState, q: "rank fusion", refs: true },
      {
        q: 'a & b "c"',
        index: "summaries",
        papers: ["2401.01234v2", "hep-th/9901001v1"],
        yearFrom: 2019,
        yearTo: 2024,
        category: "cs.CL",
        refs: true,
      },
    ];
    for (const state of states) expect(parseSearchUrl(paramsOf(searchHref(state)))).toEqual(state);
  });

  it("reads refs=1 and refs=true as including the reference lists, anything else as leaving them out", () => {
    for (const refs of ["1", "true", "TRUE", " 1 ", ["1", "0"]])
      expect(parseSearchUrl({ q: "x", refs }).refs).toBe(true);
    for (const refs of [undefined, "", "0", "false", "yes", "on", "2", ["0", "1"]]) {
      expect(parseSearchUrl({ q: "x", refs }).refs).toBe(false);
    }
  });
});
