import "server-only";
import type { QueryWords, Respelled, SearchResponse } from "@/components/search/types";
import { getDb } from "@/db";
import { consumeRateLimit, RATE_LIMITS } from "@/lib/auth/rate-limit";
import type { SessionUser } from "@/lib/auth/session";
import { getEmbeddingProvider } from "@/lib/embeddings";
import { getEnv } from "@/lib/env";
import { type Result, toErrorResult } from "@/lib/errors";
import {
  type SearchOptions,
  searchContent,
  searchedRespelled,
  searchedWords,
  searchSummaries,
  wordsAbsentFromLibrary,
} from "@/lib/search/search";
import { toPassageHit, toSummaryHit } from "./rows";
import { searchInputSchema } from "./schema";

/** Passages the content index returns: enough to fill a few papers' groups. */
const CONTENT_RESULTS = 20;

/**
 * A search on behalf of a signed-in person (the search page's action, `GET /api/search`): the input checked, the
 * per-account search limit counted, then the page passages (`content`) or the summaries (`summaries`) searched.
 */
export async function searchFor(user: SessionUser, input: unknown): Promise<Result<SearchResponse>> {
  const parsed = searchInputSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      error: { code: "bad_request:query", message: parsed.error.issues[0]?.message ?? "Invalid search." },
    };
  }
  const { q, index, papers, yearFrom, yearTo, category, refs } = parsed.data;
  const opts: SearchOptions = {
    paperIds: papers,
    yearFrom: yearFrom ?? undefined,
    yearTo: yearTo ?? undefined,
    category: category ?? undefined,
    // reference lists are left out unless asked for (content only: summaries have none)
    includeBibliography: refs,
    // the page shows each result's proximity rank next to its full-text and vector ranks
    showProximity: true,
  };
  try {
    const db = await getDb();
    await consumeRateLimit(
      db,
      `search:${user.id}`,
      RATE_LIMITS.search,
      "You have searched very often in the last minute.",
    );
    const embedder = getEmbeddingProvider(getEnv());
    const started = performance.now();
    // (the words looked for under the library's spelling, said above the results; its statistics are the search's own,
    // cached, so this costs a lookup only when a word was respelled)
    // (and the query's words no page of the library holds at all, said too: the results then match its other words —
    // the same words a research run declines on; a summaries search respells by the summaries' words, but a word is
    // absent only when no page holds it)
    const said = (respelled: Respelled[], words: { absent: string[]; terms: number }): QueryWords => ({
      ...(respelled.length > 0 ? { respelled } : {}),
      ...(words.absent.length > 0
        ? { absent: words.absent, ...(words.absent.length >= words.terms ? { allAbsent: true } : {}) }
        : {}),
    });
    if (index === "summaries") {
      const results = await searchSummaries(db, q, embedder, opts);
      const respelled = await searchedRespelled(db, q, "summary_chunks");
      const words = await wordsAbsentFromLibrary(db, q);
      return {
        ok: true,
        data: {
          index,
          papers: results.map(toSummaryHit),
          tookMs: Math.round(performance.now() - started),
          ...said(respelled, words),
        },
      };
    }
    const results = await searchContent(db, q, embedder, { ...opts, k: CONTENT_RESULTS });
    const words = await searchedWords(db, q, "chunks");
    return {
      ok: true,
      data: {
        index,
        hits: results.map(toPassageHit),
        tookMs: Math.round(performance.now() - started),
        ...said(words.respelled, words),
      },
    };
  } catch (e) {
    return toErrorResult(e);
  }
}
