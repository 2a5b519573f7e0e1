import { and, asc, count, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";
import { type AuditRow, auditLog, invites, type Role, researchRuns, sessions, users } from "@/db/schema";

// No `import "server-only"`: the CLI runs these too.

export interface PersonRow {
  id: string;
  name: string;
  email: string;
  role: Role;
  createdAt: Date;
}

const personColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: users.role,
  createdAt: users.createdAt,
};

export async function countUsers(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return Number(row?.n ?? 0);
}

/**
 * The owners' ids, their rows locked until the transaction `db` is in ends: a role change or removal that checks
 * "not the last owner" holds them, so two owners demoting each other at once cannot both succeed (the second waits,
 * then sees one owner).
 */
export async function lockOwners(db: Database): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.role, "owner")).for("update");
  return rows.map((r) => r.id);
}

export async function listUsers(db: Database): Promise<PersonRow[]> {
  return db.select(personColumns).from(users).orderBy(asc(users.createdAt), asc(users.email));
}

export async function getUserById(db: Database, { id }: { id: string }): Promise<PersonRow | null> {
  const [row] = await db.select(personColumns).from(users).where(eq(users.id, id));
  return row ?? null;
}

export async function getUserByEmail(db: Database, { email }: { email: string }): Promise<PersonRow | null> {
  const [row] = await db.select(personColumns).from(users).where(eq(users.email, email));
  return row ?? null;
}

export async function setUserRole(db: Database, { id, role }: { id: string; role: Role }): Promise<void> {
  await db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, id));
}

/** Deletes an account (its sessions and sign-in go with it; its runs stay, without an author). */
export async function deleteUser(db: Database, { id }: { id: string }): Promise<boolean> {
  const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length > 0;
}

export async function deleteUserSessions(db: Database, { userId }: { userId: string }): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Runs made before accounts existed (no author) become the first owner's. */
export async function adoptAuthorlessRuns(db: Database, { ownerId }: { ownerId: string }): Promise<number> {
  const rows = await db
    .update(researchRuns)
    .set({ ownerId })
    .where(isNull(researchRuns.ownerId))
    .returning({ id: researchRuns.id });
  return rows.length;
}

export async function insertInvite(
  db: Database,
  invite: { tokenHash: string; email: string; role: Role; createdBy: string | null; expiresAt: Date },
): Promise<void> {
  await db.insert(invites).values(invite);
}

/** Holds the invites to `email` until the end of the calling transaction (an advisory lock: there may be no row yet). */
export async function lockInvitesTo(tx: Pick<Database, "execute">, { email }: { email: string }): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`lectern:invite:${email}`}))`);
}

/** An unused, unexpired invite by its token's hash. */
export async function getOpenInvite(
  db: Database,
  { tokenHash, now }: { tokenHash: string; now: Date },
): Promise<{ email: string; role: Role; expiresAt: Date } | null> {
  const [row] = await db
    .select({ email: invites.email, role: invites.role, expiresAt: invites.expiresAt })
    .from(invites)
    .where(and(eq(invites.tokenHash, tokenHash), isNull(invites.usedAt), gt(invites.expiresAt, now)));
  return row ?? null;
}

/** Marks an invite used; false when it was used (or expired) meanwhile — the first acceptance wins. */
export async function consumeInvite(
  db: Database,
  { tokenHash, now }: { tokenHash: string; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(invites)
    .set({ usedAt: now })
    .where(and(eq(invites.tokenHash, tokenHash), isNull(invites.usedAt), gt(invites.expiresAt, now)))
    .returning({ email: invites.email });
  return rows.length > 0;
}

/** An open invite as listed and revoked (its token is never kept, only its hash, which is not listed). */
export interface OpenInviteRow {
  email: string;
  role: Role;
  expiresAt: Date;
  createdAt: Date;
}

const openInviteColumns = {
  email: invites.email,
  role: invites.role,
  expiresAt: invites.expiresAt,
  createdAt: invites.createdAt,
};

/**
 * Deletes the open (unused, unexpired) invites to `email` and returns them: their links are dead at once, as an unknown
 * one (an acceptance racing this finds no row to mark used). Used and expired invites stay, as they were.
 */
export async function deleteOpenInvites(
  db: Database,
  { email, now }: { email: string; now: Date },
): Promise<OpenInviteRow[]> {
  return db
    .delete(invites)
    .where(and(eq(invites.email, email), isNull(invites.usedAt), gt(invites.expiresAt, now)))
    .returning(openInviteColumns);
}

export async function listOpenInvites(db: Database, { now }: { now: Date }): Promise<OpenInviteRow[]> {
  return db
    .select(openInviteColumns)
    .from(invites)
    .where(and(isNull(invites.usedAt), gt(invites.expiresAt, now)))
    .orderBy(desc(invites.createdAt));
}

export async function insertAudit(
  db: Database,
  entry: {
    actorId: string | null;
    actorEmail: string | null;
    action: string;
    subject: string;
    detail?: AuditRow["detail"];
  },
): Promise<void> {
  await db.insert(auditLog).values({ ...entry, detail: entry.detail ?? {} });
}

export async function listAudit(db: Database, { limit = 200 }: { limit?: number } = {}): Promise<AuditRow[]> {
  return db.select().from(auditLog).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit);
}

/** Counts a request in its key's current window and returns the window's count (one statement: safe across instances). */
export async function countRequest(
  db: Database,
  { key, windowStart }: { key: string; windowStart: Date },
): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`insert into rate_limits (key, window_start, count) values (${key}, ${windowStart}, 1)
        on conflict (key, window_start) do update set count = rate_limits.count + 1
        returning count`,
  );
  return Number(row?.count ?? 0);
}

/** Takes back one request counted under `key` in its window (one that turned out not to count: a sign-in that succeeded). */
export async function uncountRequest(
  db: Database,
  { key, windowStart }: { key: string; windowStart: Date },
): Promise<void> {
  await db.execute(
    sql`update rate_limits set count = greatest(count - 1, 0) where key = ${key} and window_start = ${windowStart}`,
  );
}

/** Drops the windows that ended before `before`. */
export async function pruneRateLimits(db: Database, { before }: { before: Date }): Promise<void> {
  await db.execute(sql`delete from rate_limits where window_start < ${before}`);
}
