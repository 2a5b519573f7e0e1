import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Database } from "@/db";
import { getMeta, insertMetaIfAbsent } from "@/db/queries/meta";
import {
  adoptAuthorlessRuns,
  consumeInvite,
  countUsers,
  deleteOpenInvites,
  deleteUser,
  deleteUserSessions,
  getOpenInvite,
  getUserByEmail,
  getUserById,
  insertInvite,
  listOpenInvites,
  listUsers,
  lockInvitesTo,
  lockOwners,
  type OpenInviteRow,
  type PersonRow,
  setUserRole,
} from "@/db/queries/people";
import { revokeShareLinksBy } from "@/db/queries/shares";
import { LecternError } from "@/lib/errors";
import { recordAudit } from "./audit";
import { can, ROLES, type Role } from "./roles";
import { getAuthFor, PASSWORD } from "./server";

/**
 * People of an instance: the owner made on first use, members and viewers the owner adds (with a password, or an
 * invite link), role changes, removals, password resets. The app's actions and `cli user` both call these.
 */

export type Person = PersonRow;

/** Who is acting (for the checks and the audit trail); null for the operator at the command line. */
export type Actor = { id: string; email: string } | null;

export const emailSchema = z
  .string("The email address must be text.")
  .trim()
  .toLowerCase()
  .max(254, "That email address is too long.")
  .pipe(z.email("That is not an email address."));
export const nameSchema = z
  .string("The name must be text.")
  .trim()
  .min(1, "Give a name.")
  .max(100, "Keep the name under 100 characters.");
export const passwordSchema = z
  .string("The password must be text.")
  .min(PASSWORD.min, `Use at least ${PASSWORD.min} characters for the password.`)
  .max(PASSWORD.max, `Keep the password under ${PASSWORD.max} characters.`);
export const roleSchema = z.enum(ROLES, "The role is owner, member or viewer.");

function parse<T>(schema: z.ZodType<T>, value: unknown, field: string): T {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new LecternError("bad_request:input", r.error.issues[0]?.message ?? "Invalid input.", { field });
  return r.data;
}

/** Better Auth's internals (password hashing, the user and account tables) for this database. */
async function authContext(db: Database) {
  return (await getAuthFor(db)).$context;
}

/** Makes an account with a password (the one way accounts are made: Better Auth's public sign-up is off). */
async function createAccount(
  db: Database,
  input: { email: string; name: string; password: string; role: Role },
): Promise<Person> {
  const email = parse(emailSchema, input.email, "email");
  const name = parse(nameSchema, input.name, "name");
  const password = parse(passwordSchema, input.password, "password");
  if (await getUserByEmail(db, { email })) {
    throw new LecternError("conflict:user", `There is already an account for ${email}.`, { field: "email" });
  }
  const ctx = await authContext(db);
  const hash = await ctx.password.hash(password);
  const user = await ctx.internalAdapter.createUser(
    { email, name, emailVerified: true, role: input.role },
    { method: "admin" },
  );
  await ctx.internalAdapter.linkAccount({
    userId: user.id,
    providerId: "credential",
    accountId: user.id,
    password: hash,
  });
  const person = await getUserById(db, { id: user.id });
  if (!person) throw new Error("The account was not saved.");
  return person;
}

/** True while the instance has no account: the first visit shows "create the owner account". */
export async function needsOwner(db: Database): Promise<boolean> {
  return (await countUsers(db)) === 0;
}

/**
 * The first account of a new instance, its owner. Only while there is no account: two people racing to be first are
 * told apart by one row (the first to write it wins). Runs made before accounts existed become the owner's.
 */
export async function createOwner(
  db: Database,
  input: { email: string; name: string; password: string },
  /** Who the audit trail names: the new owner (set up in the browser) or the operator at the command line. */
  { byOperator = false }: { byOperator?: boolean } = {},
): Promise<Person> {
  const email = parse(emailSchema, input.email, "email");
  const taken = () => new LecternError("conflict:user", "This Lectern already has an owner. Sign in instead.");
  if (!(await needsOwner(db))) throw taken();
  await insertMetaIfAbsent(db, { key: "owner_setup", value: email });
  if ((await getMeta<string>(db, { key: "owner_setup" })) !== email || !(await needsOwner(db))) throw taken();
  const owner = await createAccount(db, { ...input, email, role: "owner" });
  const adopted = await adoptAuthorlessRuns(db, { ownerId: owner.id });
  await recordAudit(db, byOperator ? null : owner, "person.added", owner.email, {
    role: "owner",
    runsAdopted: adopted,
  });
  return owner;
}

/** A person added by the owner with a password they will use to sign in (and should change). */
export async function addPerson(
  db: Database,
  actor: Actor,
  input: { email: string; name: string; password: string; role: Role },
): Promise<Person> {
  const role = parse(roleSchema, input.role, "role");
  const person = await createAccount(db, { ...input, role });
  await recordAudit(db, actor, "person.added", person.email, { role });
  return person;
}

export const INVITE_DAYS = 7;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * An invite link's token (256 random bits; only its hash is stored) for someone to set their own name and password.
 * Inviting an address that has an open invite sends a new link in its place: the earlier links to it are dead at once
 * (`replaced` counts them), so an address has at most one working invite and one row in the list. One transaction,
 * under a lock on the address, so two invites sent at once leave one.
 */
export async function invitePerson(
  db: Database,
  actor: Actor,
  input: { email: string; role: Role },
  now = new Date(),
): Promise<{ token: string; expiresAt: Date; replaced: number }> {
  const email = parse(emailSchema, input.email, "email");
  const role = parse(roleSchema, input.role, "role");
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + INVITE_DAYS * 24 * 3600 * 1000);
  const replaced = await db.transaction(async (t) => {
    const tx = t as unknown as Database;
    await lockInvitesTo(tx, { email });
    if (await getUserByEmail(tx, { email })) {
      throw new LecternError("conflict:user", `There is already an account for ${email}.`, { field: "email" });
    }
    const earlier = await deleteOpenInvites(tx, { email, now });
    await insertInvite(tx, { tokenHash: hashToken(token), email, role, createdBy: actor?.id ?? null, expiresAt });
    await recordAudit(tx, actor, "person.invited", email, {
      role,
      ...(earlier.length > 0 ? { invites_replaced: earlier.length } : {}),
    });
    return earlier.length;
  });
  return { token, expiresAt, replaced };
}

/** What an invite link offers (null when it is unknown, used or expired). */
export async function readInvite(db: Database, token: string, now = new Date()) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  return getOpenInvite(db, { tokenHash: hashToken(token), now });
}

/** Accepts an invite: the account is made with the invite's email and role; a link works once. */
export async function acceptInvite(
  db: Database,
  token: string,
  input: { name: string; password: string },
  now = new Date(),
): Promise<Person> {
  const invite = await readInvite(db, token, now);
  const dead = () => new LecternError("not_found:invite", "This invite link is not valid any more. Ask for a new one.");
  if (!invite) throw dead();
  parse(nameSchema, input.name, "name");
  parse(passwordSchema, input.password, "password");
  // under the address's invite lock: an invite sent again meanwhile (which kills this link) is either before or after
  const consumed = await db.transaction(async (t) => {
    const tx = t as unknown as Database;
    await lockInvitesTo(tx, { email: invite.email });
    return consumeInvite(tx, { tokenHash: hashToken(token), now });
  });
  if (!consumed) throw dead();
  const person = await createAccount(db, { ...input, email: invite.email, role: invite.role });
  await recordAudit(db, person, "person.joined", person.email, { role: invite.role });
  return person;
}

/** An open invite as listed and revoked. */
export type OpenInvite = OpenInviteRow;

/**
 * Revokes the open invites to an address (one: inviting again replaces; more only from before it did): their links are
 * dead at once — opening or accepting one says it is not valid, as for a used link. Newest first; refused with
 * `not_found:invite` when there is none (used, expired, revoked already, or never sent).
 */
export async function revokeInvite(
  db: Database,
  actor: Actor,
  input: { email: string },
  now = new Date(),
): Promise<OpenInvite[]> {
  const email = parse(emailSchema, input.email, "email");
  const revoked = await db.transaction(async (t) => {
    const tx = t as unknown as Database;
    // (after an invite being sent again at this moment: its new link is revoked too, not left open)
    await lockInvitesTo(tx, { email });
    const rows = await deleteOpenInvites(tx, { email, now });
    if (rows.length === 0) return rows;
    const roles = [...new Set(rows.map((r) => r.role))];
    await recordAudit(tx, actor, "person.invite_revoked", email, {
      role: roles.join(", "),
      ...(rows.length > 1 ? { invites_revoked: rows.length } : {}),
    });
    return rows;
  });
  if (revoked.length === 0) {
    throw new LecternError("not_found:invite", `There is no open invite for ${email}.`, { field: "email" });
  }
  return revoked.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

export async function listPeople(db: Database, now = new Date()) {
  const [people, invites] = await Promise.all([listUsers(db), listOpenInvites(db, { now })]);
  return { people, invites };
}

async function personOrThrow(db: Database, id: string): Promise<Person> {
  const person = await getUserById(db, { id });
  if (!person) throw new LecternError("not_found:user", "That person has no account here (any more).");
  return person;
}

/**
 * Changes a role. The last owner cannot stop being one (someone must be able to manage people): the owners are locked
 * while it is checked and changed, so two owners demoting each other at once leave one. Someone who may no longer
 * share (now a viewer) loses their live share links.
 */
export async function changeRole(db: Database, actor: Actor, userId: string, roleInput: Role): Promise<Person> {
  const role = parse(roleSchema, roleInput, "role");
  return db.transaction(async (t) => {
    const tx = t as unknown as Database;
    const owners = await lockOwners(tx);
    const person = await personOrThrow(tx, userId);
    if (person.role === role) return person;
    if (person.role === "owner" && owners.length <= 1) {
      throw new LecternError("conflict:role", "This is the only owner: make someone else an owner first.");
    }
    await setUserRole(tx, { id: userId, role });
    const revoked = can(role, "research:run") ? 0 : await revokeShareLinksBy(tx, { userId, now: new Date() });
    await recordAudit(tx, actor, "person.role_changed", person.email, {
      from: person.role,
      to: role,
      ...(revoked > 0 ? { share_links_revoked: revoked } : {}),
    });
    return { ...person, role };
  });
}

/** Removes an account (signed out at once; their runs stay, without an author; their share links are revoked). Not
 *  the last owner (checked with the owners locked, as for a role change). */
export async function removePerson(db: Database, actor: Actor, userId: string): Promise<void> {
  await db.transaction(async (t) => {
    const tx = t as unknown as Database;
    const owners = await lockOwners(tx);
    const person = await personOrThrow(tx, userId);
    if (person.role === "owner" && owners.length <= 1) {
      throw new LecternError("conflict:role", "This is the only owner: make someone else an owner first.");
    }
    const revoked = await revokeShareLinksBy(tx, { userId, now: new Date() });
    await deleteUser(tx, { id: userId });
    await recordAudit(tx, actor, "person.removed", person.email, {
      role: person.role,
      ...(revoked > 0 ? { share_links_revoked: revoked } : {}),
    });
  });
}

/** Sets a new password; every session of the account ends (signed out everywhere). */
export async function resetPassword(db: Database, actor: Actor, userId: string, password: string): Promise<void> {
  const person = await personOrThrow(db, userId);
  const ctx = await authContext(db);
  const hash = await ctx.password.hash(parse(passwordSchema, password, "password"));
  await ctx.internalAdapter.updatePassword(userId, hash);
  await deleteUserSessions(db, { userId });
  await recordAudit(db, actor, "person.password_reset", person.email, {});
}

export async function findPerson(db: Database, { email }: { email: string }): Promise<Person | null> {
  return getUserByEmail(db, { email: parse(emailSchema, email, "email") });
}
