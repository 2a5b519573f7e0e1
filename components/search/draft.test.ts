import { describe, expect, it } from "vitest";
import { MAX_QUERY_CHARS } from "@/lib/search/query";
import { type SearchDraft, toDraft, validateDraft } from "./draft";
import { emptySearchState } from "./types";

const draft = (over: Partial<SearchDraft> = {}): SearchDraft => ({
  ...toDraft(emptySearchState),
  q: "rank fusion",
  ...over,
});

describe("validateDraft", () => {
  it("turns a draft into the search state, trimmed", () => {
    expect(
      validateDraft(
        draft({
          q: "  rank fusion ",
          yearFrom: "2019",
          yearTo: " 2024",
          category: " cs.CL ",
          papers: ["a"],
          refs: true,
        }),
      ),
    ).toEqual({
      ok: true,
      state: {
        q: "rank fusion",
        index: "content",
        papers: ["a"],
        yearFrom: 2019,
        yearTo: 2024,
        category: "cs.CL",
        refs: true,
      },
    });
  });

  it("refuses an empty or blank query", () => {
    for (const q of ["", "   ", "\n\t"]) {
      expect(validateDraft(draft({ q }))).toEqual({
        ok: false,
        field: "q",
        message: "Type a question or some keywords to search for.",
      });
    }
  });

  it("refuses a query over the limit, saying how long it is", () => {
    const result = validateDraft(draft({ q: "a".repeat(20_000) }));
    expect(result).toEqual({
      ok: false,
      field: "q",
      message: "The query is too long (20,000 characters); keep it under 2,000.",
    });
    expect(validateDraft(draft({ q: "a".repeat(MAX_QUERY_CHARS) })).ok).toBe(true);
  });

  it("leaves hostile text to the server, which reduces it to words", () => {
    expect(validateDraft(draft({ q: '"); DROP TABLE chunks; -- & | ! :* ((' })).ok).toBe(true);
  });

  it("checks years and the category", () => {
    expect(validateDraft(draft({ yearFrom: "19" }))).toMatchObject({ ok: false, field: "yearFrom" });
    expect(validateDraft(draft({ yearTo: "2024x" }))).toMatchObject({ ok: false, field: "yearTo" });
    expect(validateDraft(draft({ yearFrom: "2024", yearTo: "2019" }))).toMatchObject({
      ok: false,
      field: "yearTo",
      message: "The year range 2024–2019 is empty.",
    });
    expect(validateDraft(draft({ category: "cs CL" }))).toMatchObject({ ok: false, field: "category" });
  });
});

describe("toDraft", () => {
  it("shows a state's numbers as text and missing values as empty fields", () => {
    expect(toDraft({ ...emptySearchState, q: "x", yearFrom: 2019, category: "cs.CL" })).toEqual({
      q: "x",
      index: "content",
      papers: [],
      yearFrom: "2019",
      yearTo: "",
      category: "cs.CL",
      refs: false,
    });
  });
});
