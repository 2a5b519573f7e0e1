import { z } from "zod";

/** `POST /api/sources/arxiv`: ids or URLs (a list, or text with one or more), and whether to replace older versions. */
export const addFromArxivSchema = z.object({
  ids: z
    .union([z.string().max(20_000, "That list is too long."), z.array(z.string().max(300)).max(200)])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .refine((v) => v.join(" ").trim().length > 0, "Give at least one arXiv id or URL."),
  replace: z.boolean().default(false),
});
export type AddFromArxivInput = z.infer<typeof addFromArxivSchema>;

/** At most this many ids per request (a few requests of 50 ids to arXiv, and one PDF a second). */
export const MAX_ARXIV_IDS = 100;
