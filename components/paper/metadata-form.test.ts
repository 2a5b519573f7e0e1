import { describe, expect, it } from "vitest";
import { paperMetadataEditSchema } from "@/lib/library/metadata";
import { describeFields, editOf, formValuesOf } from "./metadata-form";
import type { PaperDetailView } from "./types";

const paper = {
  title: "Attention Is All You Need",
  authors: ["Ashish Vaswani", "Noam Shazeer"],
  year: 2017,
  publishedDate: "2017-06-12",
  categories: ["cs.CL", "cs.LG"],
  doi: null,
  arxivId: "1706.03762v5",
} as PaperDetailView;

describe("the metadata form", () => {
  it("round-trips a paper's metadata into an edit the server accepts unchanged", () => {
    const edit = editOf(formValuesOf(paper));
    const parsed = paperMetadataEditSchema.parse(edit);
    expect(parsed).toEqual({
      title: paper.title,
      authors: paper.authors,
      year: 2017,
      publishedDate: "2017-06-12",
      categories: ["cs.CL", "cs.LG"],
      doi: null,
      arxivId: "1706.03762v5",
    });
  });

  it("splits authors by line or semicolon and categories by commas or spaces; a blank year is none", () => {
    const edit = editOf({
      ...formValuesOf(paper),
      authors: "Ada Lovelace\n\n Charles Babbage; Mary Somerville ",
      categories: "cs.CL,  stat.ML cs.LG",
      year: " ",
      publishedDate: "",
    });
    expect(paperMetadataEditSchema.parse(edit)).toMatchObject({
      authors: ["Ada Lovelace", "Charles Babbage", "Mary Somerville"],
      categories: ["cs.CL", "stat.ML", "cs.LG"],
      year: null,
      publishedDate: null,
    });
  });

  it("passes a year that is not a number on as typed, for the server to name the problem", () => {
    const edit = editOf({ ...formValuesOf(paper), year: "twenty" });
    expect(edit.year).toBe("twenty");
    expect(paperMetadataEditSchema.safeParse(edit).error?.issues[0]?.message).toBe("The year must be a number.");
  });

  it("names changed fields in prose", () => {
    expect(describeFields(["title"])).toBe("title");
    expect(describeFields(["title", "authors"])).toBe("title and authors");
    expect(describeFields(["title", "year", "doi"])).toBe("title, year and DOI");
  });
});
