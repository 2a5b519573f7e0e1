import { z } from "zod";
import { MAX_REJECT_REASON_CHARS } from "@/lib/graph/review";

/** The knowledge graph pages' inputs: the review decisions (server actions) and the /graph URL (search, filters). */

const idSchema = z
  .number("That is not an id.")
  .int("That is not an id.")
  .positive("That is not an id.")
  .max(2_147_483_647, "That is not an id.");

export const reviewEdgeInputSchema = z.discriminatedUnion(
  "decision",
  [
    z.object({ id: idSchema, decision: z.literal("accept") }),
    z.object({
      id: idSchema,
      decision: z.literal("reject"),
      // one line of text: control characters (a NUL the database refuses) and line breaks become spaces
      reason: z
        .string("Say why the edge is wrong.")
        .transform((r) => r.replace(/[\p{Cc}\s]+/gu, " ").trim())
        .pipe(
          z
            .string()
            .min(1, "Say why the edge is wrong.")
            .max(MAX_REJECT_REASON_CHARS, `Keep the reason under ${MAX_REJECT_REASON_CHARS} characters.`),
        ),
    }),
  ],
  "Choose accept or reject.",
);
export type ReviewEdgeInput = z.infer<typeof reviewEdgeInputSchema>;

export const aliasSuggestionInputSchema = z.object({
  id: idSchema,
  decision: z.enum(["confirm", "reject"], "Choose confirm or reject."),
});
export type AliasSuggestionInput = z.infer<typeof aliasSuggestionInputSchema>;

export const splitAliasInputSchema = z.object({ entityId: idSchema });
export type SplitAliasInput = z.infer<typeof splitAliasInputSchema>;

/** Longest entity name the search box sends (entity names are at most 100 characters). */
export const MAX_ENTITY_QUERY_CHARS = 200;

/** Control characters: never in a name, and a NUL makes the database refuse the query (a 500, not "no entity"). */
const CONTROL = /\p{Cc}+/gu;

/** An entity name as typed in an address: control characters as spaces, trimmed, bounded. */
function typedName(raw: string): string {
  return raw.replace(CONTROL, " ").trim().slice(0, MAX_ENTITY_QUERY_CHARS).trim();
}

/** `/graph?q=<entity>`: the first value of `q`, as typed (see `typedName`). */
export function graphQuery(params: Record<string, string | string[] | undefined>): string {
  const raw = params.q;
  return typedName((Array.isArray(raw) ? raw[0] : raw) ?? "");
}

/**
 * `/graph/entity/<name>`: the segment as typed. Next.js hands dynamic segments over percent-encoded, so it is decoded
 * once here (a malformed escape such as a lone "%" stays as written).
 */
export function entityPageName(segment: string): string {
  let name = segment;
  try {
    name = decodeURIComponent(segment);
  } catch {}
  return typedName(name);
}
