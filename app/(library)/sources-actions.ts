"use server";

import { z } from "zod";
import { getDb } from "@/db";
import { consumeRateLimit, RATE_LIMITS } from "@/lib/auth/rate-limit";
import { getEnv } from "@/lib/env";
import { type Result, toErrorResult } from "@/lib/errors";
import { getArxivClient } from "@/lib/sources/arxiv";
import { type ArxivSearchHit, searchArxiv } from "@/lib/sources/arxiv-search";
import { requireUser } from "../access";

const searchArxivSchema = z
  .object({
    query: z.string().trim().max(300, "Use fewer words (at most 300 characters).").default(""),
    author: z.string().trim().max(200, "That author name is too long.").default(""),
    category: z
      .string()
      .trim()
      .max(40)
      .refine((c) => c === "" || /^[a-z-]+(\.[A-Za-z-]+)?$/.test(c), "A category is written like cs.CL.")
      .default(""),
    start: z.number().int().min(0).max(10_000).default(0),
  })
  .refine((v) => v.query || v.author || v.category, "Give words, an author or a category to search arXiv.");
export type SearchArxivInput = z.input<typeof searchArxivSchema>;

/** Searches arXiv (words, author, category) for papers to add; marks those the library has. */
export async function searchArxivAction(
  input: SearchArxivInput,
): Promise<Result<{ total: number; results: ArxivSearchHit[] }>> {
  try {
    const user = await requireUser("library:write");
    const parsed = searchArxivSchema.safeParse(input);
    if (!parsed.success) {
      return {
        ok: false,
        error: { code: "bad_request:input", message: parsed.error.issues[0]?.message ?? "Invalid search." },
      };
    }
    const db = await getDb();
    await consumeRateLimit(db, `search:${user.id}`, RATE_LIMITS.search, "You have searched a lot in the last minute.");
    const { query, author, category, start } = parsed.data;
    const data = await searchArxiv(db, getArxivClient(getEnv()), {
      query,
      author,
      category,
      start,
      maxResults: 20,
    });
    return { ok: true, data };
  } catch (e) {
    return toErrorResult(e);
  }
}
