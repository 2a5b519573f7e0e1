import { z } from "zod";
import { tooLongMessage } from "@/components/search/draft";
import { ARXIV_CATEGORY, parseYears, splitPaperIds } from "@/components/search/search-url";
import { type SearchState, searchIndexes } from "@/components/search/types";
import { MAX_QUERY_CHARS } from "@/lib/search/query";
import { paperIdSchema } from "../../(library)/schema";

const yearSchema = z
  .number()
  .int("A year is a whole number.")
  .min(1000, "A year has four digits.")
  .max(3000, "A year has four digits.");

const categorySchema = z.string().trim().max(43).regex(ARXIV_CATEGORY, "An arXiv category looks like cs.CL or hep-th.");

/**
 * The input of `searchAction`. Beyond its length, the query is checked by lib/search (empty, nothing but symbols),
 * which words its messages for the user.
 */
export const searchInputSchema = z.object({
  q: z
    .string("The query must be text.")
    .trim()
    .max(MAX_QUERY_CHARS, { error: (issue) => tooLongMessage(String(issue.input ?? "").length) }),
  index: z.enum(searchIndexes, "The index is content or summaries.").default("content"),
  papers: z.array(paperIdSchema).max(1000, "Too many papers to search within (at most 1000).").default([]),
  yearFrom: yearSchema.nullable().default(null),
  yearTo: yearSchema.nullable().default(null),
  category: categorySchema.nullable().default(null),
  refs: z.boolean("Whether to include reference lists is true or false.").default(false),
});
export type SearchInput = z.input<typeof searchInputSchema>;

type Params = Record<string, string | string[] | undefined>;
const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);

/**
 * `?q=&index=&papers=&years=&category=&refs=` of the search page (also `from=`/`to=`, which a plain form submits). Bad
 * values fall back to defaults rather than failing: the page's own links never make them.
 */
const searchUrlSchema = z
  .object({
    q: z.preprocess(first, z.string().trim().catch("").default("")),
    index: z.preprocess(
      (v) => (first(v) === "summary" ? "summaries" : first(v)),
      z.enum(searchIndexes).catch("content").default("content"),
    ),
    papers: z.preprocess(
      (v) => splitPaperIds(v as string | string[] | undefined).filter((id) => paperIdSchema.safeParse(id).success),
      z.array(z.string()).max(1000).catch([]),
    ),
    years: z.preprocess(first, z.string().optional().catch(undefined)),
    from: z.preprocess(first, z.string().optional().catch(undefined)),
    to: z.preprocess(first, z.string().optional().catch(undefined)),
    category: z.preprocess(first, categorySchema.optional().catch(undefined)),
    // `refs=1` from the page's links, `refs=true` typed by hand; anything else is the default
    refs: z.preprocess((v) => ["1", "true"].includes(String(first(v)).trim().toLowerCase()), z.boolean()),
  })
  .transform((u): SearchState => {
    const years = parseYears(u.years ?? `${u.from ?? ""}-${u.to ?? ""}`);
    const year = (y: number | null | undefined) => (yearSchema.safeParse(y).success ? (y as number) : null);
    return {
      q: u.q,
      index: u.index,
      papers: u.papers,
      yearFrom: year(years?.from),
      yearTo: year(years?.to),
      category: u.category || null,
      refs: u.refs,
    };
  });

export function parseSearchUrl(params: Params): SearchState {
  return searchUrlSchema.parse(params);
}
