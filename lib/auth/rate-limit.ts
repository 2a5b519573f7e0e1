import type { Database } from "@/db";
import { countRequest, pruneRateLimits, uncountRequest } from "@/db/queries/people";
import { LecternError } from "@/lib/errors";

export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** Per account, per fixed window: research runs, uploads and searches (kept in the database: all instances count). */
export const RATE_LIMITS = {
  research: { limit: 30, windowMs: 10 * 60_000 },
  upload: { limit: 200, windowMs: 10 * 60_000 },
  search: { limit: 300, windowMs: 60_000 },
} as const satisfies Record<string, RateLimit>;

let lastPrune = 0;

/**
 * Counts one request under `key` and refuses it (`rate_limited`, with the seconds until the window ends) past the
 * limit. A fixed window: simple, exact across instances (one upsert), and at worst twice the limit at a window's edge.
 * Returns what takes the request back out of the count (for limits on failures only: a sign-in that succeeds).
 */
export async function consumeRateLimit(
  db: Database,
  key: string,
  { limit, windowMs }: RateLimit,
  message: string,
  now = Date.now(),
): Promise<() => Promise<void>> {
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const count = await countRequest(db, { key, windowStart: new Date(windowStart) });
  if (now - lastPrune > 10 * 60_000) {
    lastPrune = now;
    await pruneRateLimits(db, { before: new Date(now - 24 * 3600_000) }).catch(() => {});
  }
  if (count > limit) {
    const retryAfter = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
    throw new LecternError("rate_limited:session", `${message} Try again in ${formatWait(retryAfter)}.`, {
      retryAfter,
    });
  }
  return () => uncountRequest(db, { key, windowStart: new Date(windowStart) });
}

function formatWait(s: number): string {
  return s < 90 ? `${s} s` : `${Math.ceil(s / 60)} min`;
}
