import { joinList } from "@/lib/text/lists";
import type { PaperDetailView } from "./types";

/** The metadata form's fields, as typed (strings: what the inputs hold). */
export interface MetadataFormValues {
  title: string;
  /** One author per line. */
  authors: string;
  year: string;
  /** `YYYY-MM-DD` or blank. */
  publishedDate: string;
  /** Separated by commas or spaces. */
  categories: string;
  doi: string;
  arxivId: string;
}

export const fieldLabels: Record<string, string> = {
  title: "title",
  authors: "authors",
  year: "year",
  publishedDate: "publication date",
  categories: "categories",
  doi: "DOI",
  arxivId: "arXiv id",
};

export function formValuesOf(paper: PaperDetailView): MetadataFormValues {
  return {
    title: paper.title,
    authors: paper.authors.join("\n"),
    year: paper.year === null ? "" : String(paper.year),
    publishedDate: paper.publishedDate ?? "",
    categories: paper.categories.join(", "),
    doi: paper.doi ?? "",
    arxivId: paper.arxivId ?? "",
  };
}

/**
 * The edit the server action receives (lib/library/metadata.ts validates it): every field, lists split, a blank year
 * as none. A year that is not a number is passed on as typed, for the server to name the problem.
 */
export function editOf(values: MetadataFormValues): Record<string, unknown> {
  const year = values.year.trim();
  return {
    title: values.title,
    authors: values.authors.split(/\n|;/).map((a) => a.trim()),
    year: year === "" ? null : /^-?\d+(\.\d+)?$/.test(year) ? Number(year) : year,
    publishedDate: values.publishedDate,
    categories: values.categories.split(/[,\s]+/),
    doi: values.doi,
    arxivId: values.arxivId,
  };
}

/** "title and authors", "title, year and DOI". */
export function describeFields(fields: string[]): string {
  return joinList(fields.map((f) => fieldLabels[f] ?? f));
}
