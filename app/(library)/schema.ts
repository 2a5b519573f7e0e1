import { z } from "zod";
import { paperSorts } from "@/components/library/types";

/** Paper ids are arXiv ids (`1706.03762v5`, `hep-th/9901001v1`) or slugs; never trusted beyond a lookup by value. */
export const paperIdSchema = z
  .string()
  .trim()
  .min(1, "A paper id is required.")
  .max(300, "That paper id is too long.")
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  .regex(/^[^\u0000-\u001f\u007f]+$/, "That paper id contains invalid characters.");

/** `?q=&sort=` of the library page and `GET /api/papers`. Bad values fall back to defaults rather than failing. */
export const listPapersQuerySchema = z.object({
  q: z.string().trim().max(200).catch("").default(""),
  sort: z.enum(paperSorts).catch("added").default("added"),
});
export type ListPapersQuery = z.infer<typeof listPapersQuerySchema>;

/**
 * `?page=&hl=&start=&end=` of the paper page. `hl` is a passage to highlight; `start`/`end` are character offsets
 * into the stored text of `page` (resolved to a passage on the server).
 */
export const paperViewQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  hl: z.string().trim().max(5_000).optional().catch(undefined),
  start: z.coerce.number().int().min(0).optional().catch(undefined),
  end: z.coerce.number().int().min(0).optional().catch(undefined),
});
export type PaperViewQuery = z.infer<typeof paperViewQuerySchema>;

export const deletePaperInputSchema = z.object({ id: paperIdSchema });
export type DeletePaperInput = z.infer<typeof deletePaperInputSchema>;

/** Next gives `string | string[] | undefined` per search param; the first value wins. */
export function firstValues(params: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(params)) out[k] = Array.isArray(v) ? v[0] : v;
  return out;
}
