import "server-only";
import type { Metadata } from "next";
import { cache } from "react";
import { getDb } from "@/db";
import { loadSharedRun, sharedPaperIds, sharedRunSnapshot } from "@/lib/auth/share";
import type { ResearchRunState } from "@/lib/research/types";

/**
 * Share pages need no account and never call `pageUser`: the token is the only key. Each request reads the link
 * afresh (the pages are dynamic), so a revoked or expired link is a 404 at the next request.
 */
export const loadShare = cache(async (token: string): Promise<{ run: ResearchRunState; paperIds: string[] } | null> => {
  const run = await loadSharedRun(await getDb(), token);
  if (!run) return null;
  return { run: sharedRunSnapshot(run), paperIds: [...sharedPaperIds(run)] };
});

/** Not indexed, not followed, and no referrer (the token is in the address) — with the headers proxy.ts sends. */
export const shareMetadata = {
  robots: { index: false, follow: false },
  referrer: "no-referrer",
} satisfies Metadata;
