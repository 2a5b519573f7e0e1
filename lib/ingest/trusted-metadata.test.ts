import { describe, expect, it } from "vitest";
import { applyTrustedMetadata } from "./metadata";
import type { PaperMetadata } from "./types";

const guessed: PaperMetadata = {
  arxivId: "2401.01234v1",
  title: "Draft manuscript",
  authors: ["Affiliation Line"],
  categories: ["cs.CL"],
  abstract: "A guess.",
  year: 2024,
  publishedDate: "2024-01-05",
};

describe("applyTrustedMetadata", () => {
  it("keeps the PDF's guesses without a trusted source", () => {
    expect(applyTrustedMetadata(guessed, undefined)).toBe(guessed);
  });

  it("replaces each field the source gives, and only those", () => {
    const out = applyTrustedMetadata(guessed, {
      title: "  Sparse   Retrieval\nfor Long Documents ",
      authors: ["Ada Lovelace", " ", "Ada Lovelace", "Alan Turing"],
      doi: "10.1000/xyz",
      venue: " Journal of  Tests ",
    });
    expect(out).toEqual({
      ...guessed,
      title: "Sparse Retrieval for Long Documents",
      authors: ["Ada Lovelace", "Alan Turing"],
      doi: "10.1000/xyz",
      venue: "Journal of Tests",
    });
  });

  it("takes the year from the source's year, else its date, else its arXiv id", () => {
    expect(applyTrustedMetadata(guessed, { year: 2019 }).year).toBe(2019);
    expect(applyTrustedMetadata(guessed, { publishedDate: "2017-06-12" })).toMatchObject({
      year: 2017,
      publishedDate: "2017-06-12",
    });
    expect(applyTrustedMetadata(guessed, { arxivId: "1706.03762v5" })).toMatchObject({
      arxivId: "1706.03762v5",
      year: 2017,
    });
  });

  it("an arXiv id without version defers to the PDF's stamp of the same paper", () => {
    expect(applyTrustedMetadata(guessed, { arxivId: "2401.01234" }).arxivId).toBe("2401.01234v1");
    expect(applyTrustedMetadata(guessed, { arxivId: "2401.05555" }).arxivId).toBe("2401.05555");
  });

  it("ignores blank, malformed and control-character values", () => {
    const out = applyTrustedMetadata(guessed, {
      title: " \u0000 ",
      authors: [],
      categories: ["", "  "],
      publishedDate: "2017-02-30",
      year: 99999,
      arxivId: "1706.03762 <script>",
    });
    expect(out).toEqual(guessed);
    expect(applyTrustedMetadata(guessed, { title: "A\u0007Title" }).title).toBe("A Title");
  });
});
