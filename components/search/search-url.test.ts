import { describe, expect, it } from "vitest";
import { ARXIV_CATEGORY, activeFilterCount, formatYears, parseYears, searchHref, splitPaperIds } from "./search-url";
import { emptySearchState } from "./types";

describe("searchHref", () => {
  it("leaves defaults out", () => {
    expect(searchHref(emptySearchState)).toBe("/search");
    expect(searchHref({ ...emptySearchState, q: "rank fusion" })).toBe("/search?q=rank+fusion");
  });

  it("holds every part of the state, encoded", () => {
    const href = searchHref({
      q: 'a & b "c" :* ((',
      index: "summaries",
      papers: ["2401.01234v2", "hep-th/9901001v1"],
      yearFrom: 2019,
      yearTo: 2024,
      category: "cs.CL",
      refs: true,
    });
    const url = new URL(href, "http://x");
    expect(url.pathname).toBe("/search");
    expect(url.searchParams.get("q")).toBe('a & b "c" :* ((');
    expect(url.searchParams.get("index")).toBe("summaries");
    expect(splitPaperIds(url.searchParams.get("papers") ?? undefined)).toEqual(["2401.01234v2", "hep-th/9901001v1"]);
    expect(url.searchParams.get("years")).toBe("2019-2024");
    expect(url.searchParams.get("category")).toBe("cs.CL");
    expect(url.searchParams.get("refs")).toBe("1");
  });

  it("says refs=1 only when the reference lists are included", () => {
    expect(searchHref({ ...emptySearchState, q: "x", refs: true })).toBe("/search?q=x&refs=1");
    expect(searchHref({ ...emptySearchState, q: "x", refs: false })).toBe("/search?q=x");
  });
});

describe("years", () => {
  it("round-trips ranges, open ends and single years", () => {
    for (const [from, to, text] of [
      [2019, 2024, "2019-2024"],
      [2019, null, "2019-"],
      [null, 2024, "-2024"],
      [2020, 2020, "2020"],
    ] as const) {
      expect(formatYears(from, to)).toBe(text);
      expect(parseYears(text)).toEqual({ from, to });
    }
    expect(formatYears(null, null)).toBe("");
  });

  it("accepts an en dash and spaces; rejects anything else", () => {
    expect(parseYears(" 2019 – 2024 ")).toEqual({ from: 2019, to: 2024 });
    for (const bad of ["", "-", "19-24", "abc", "2019-2024-2025", "2019;drop"]) expect(parseYears(bad)).toBeNull();
  });
});

describe("splitPaperIds", () => {
  it("splits, trims and dedupes, from one or repeated parameters", () => {
    expect(splitPaperIds(" a, b ,,a ")).toEqual(["a", "b"]);
    expect(splitPaperIds(["a,b", "c"])).toEqual(["a", "b", "c"]);
    expect(splitPaperIds(undefined)).toEqual([]);
  });
});

describe("activeFilterCount", () => {
  it("counts papers, years and category", () => {
    expect(activeFilterCount(emptySearchState)).toBe(0);
    expect(activeFilterCount({ ...emptySearchState, papers: ["a", "b"], yearTo: 2020, category: "cs.CL" })).toBe(3);
  });

  it("counts the reference lists where they apply: the content index", () => {
    expect(activeFilterCount({ ...emptySearchState, refs: true })).toBe(1);
    expect(activeFilterCount({ ...emptySearchState, refs: true, index: "summaries" })).toBe(0);
  });
});

describe("ARXIV_CATEGORY", () => {
  it("accepts arXiv categories and nothing else", () => {
    for (const ok of ["cs.CL", "hep-th", "astro-ph.CO", "cond-mat.stat-mech", "stat.ML"]) {
      expect(ARXIV_CATEGORY.test(ok)).toBe(true);
    }
    for (const bad of ["", "cs CL", "cs.", ".CL", "cs.CL;drop", "cs.CL.x", "1cs"])
      expect(ARXIV_CATEGORY.test(bad)).toBe(false);
  });
});
