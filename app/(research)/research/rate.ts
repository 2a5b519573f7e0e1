import "server-only";
import { getDb } from "@/db";
import { consumeRateLimit, RATE_LIMITS } from "@/lib/auth/rate-limit";
import type { SessionUser } from "@/lib/auth/session";

/**
 * Counts a research run against the person's limit (a refusal says when to try again). Not in a "use server" module:
 * every export of one is an action anyone can call with arguments of their choosing, and this one trusts its caller
 * for the person.
 */
export async function countResearchRun(user: SessionUser): Promise<void> {
  await consumeRateLimit(
    await getDb(),
    `research:${user.id}`,
    RATE_LIMITS.research,
    "You have started many research runs in the last few minutes.",
  );
}
