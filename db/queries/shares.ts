import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import type { Database } from "@/db";
import { shareLinks } from "@/db/schema";

// No `import "server-only"`: the CLI may run these too.

/** A share link as listed on its run: never its token (only the hash is stored). */
export interface ShareLinkRecord {
  id: string;
  runId: string;
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

const recordColumns = {
  id: shareLinks.id,
  runId: shareLinks.runId,
  tokenHash: shareLinks.tokenHash,
  createdAt: shareLinks.createdAt,
  expiresAt: shareLinks.expiresAt,
  revokedAt: shareLinks.revokedAt,
};

export async function insertShareLink(
  db: Database,
  link: {
    id: string;
    runId: string;
    tokenHash: string;
    createdBy: string | null;
    createdAt: Date;
    expiresAt: Date | null;
  },
): Promise<ShareLinkRecord> {
  const [row] = await db.insert(shareLinks).values(link).returning(recordColumns);
  if (!row) throw new Error("The share link was not saved.");
  return row;
}

/** A run's links, newest first (revoked and expired ones too: the author sees what was shared). */
export async function listShareLinks(db: Database, { runId }: { runId: string }): Promise<ShareLinkRecord[]> {
  return db
    .select(recordColumns)
    .from(shareLinks)
    .where(eq(shareLinks.runId, runId))
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
}

/** Marks a run's link revoked; null when the run has no such link. Revoking twice keeps the first time. */
export async function revokeShareLink(
  db: Database,
  { id, runId, now }: { id: string; runId: string; now: Date },
): Promise<ShareLinkRecord | null> {
  await db
    .update(shareLinks)
    .set({ revokedAt: now })
    .where(and(eq(shareLinks.id, id), eq(shareLinks.runId, runId), isNull(shareLinks.revokedAt)));
  const [row] = await db
    .select(recordColumns)
    .from(shareLinks)
    .where(and(eq(shareLinks.id, id), eq(shareLinks.runId, runId)));
  return row ?? null;
}

/** Revokes every live link a person made (they are removed, or may no longer share); how many went. */
export async function revokeShareLinksBy(
  db: Database,
  { userId, now }: { userId: string; now: Date },
): Promise<number> {
  const rows = await db
    .update(shareLinks)
    .set({ revokedAt: now })
    .where(and(eq(shareLinks.createdBy, userId), isNull(shareLinks.revokedAt)))
    .returning({ id: shareLinks.id });
  return rows.length;
}

/** The run of a live link (not revoked, not expired at `now`) by its token's hash; null otherwise. */
export async function getLiveShareLink(
  db: Database,
  { tokenHash, now }: { tokenHash: string; now: Date },
): Promise<{ id: string; runId: string } | null> {
  const [row] = await db
    .select({ id: shareLinks.id, runId: shareLinks.runId })
    .from(shareLinks)
    .where(
      and(
        eq(shareLinks.tokenHash, tokenHash),
        isNull(shareLinks.revokedAt),
        or(isNull(shareLinks.expiresAt), gt(shareLinks.expiresAt, now)),
      ),
    );
  return row ?? null;
}
