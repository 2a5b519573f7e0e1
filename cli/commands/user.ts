import { parseArgs } from "node:util";
import type { DbHandle } from "@/db";
import { generatePassword } from "@/lib/auth/generate-password";
import {
  addPerson,
  changeRole,
  createOwner,
  emailSchema,
  findPerson,
  invitePerson,
  listPeople,
  needsOwner,
  type OpenInvite,
  type Person,
  removePerson,
  resetPassword,
  revokeInvite,
} from "@/lib/auth/people";
import { ROLES, type Role } from "@/lib/auth/roles";
import { getEnv } from "@/lib/env";
import { LecternError } from "@/lib/errors";
import { info, printJson } from "../output";

/**
 * `cli user …`: people at the command line. The operator has direct access (no account needed); the audit trail
 * records them as "command line". The same lib/auth/people.ts functions as the people page.
 */

const USAGE = `usage: npm run cli -- user add <email> --name "…" --role owner|member|viewer [--password P | --invite] [--json]
       npm run cli -- user list [--json]
       npm run cli -- user revoke-invite <email> [--json]
       npm run cli -- user role <email> owner|member|viewer [--json]
       npm run cli -- user remove <email> [--json]
       npm run cli -- user reset-password <email> [--password P] [--json]
  Without --password (and without --invite), add and reset-password generate a strong password and print it once
  (a password typed on the command line stays in the shell's history). The first account of a new instance is its
  owner, whatever --role says.`;

const options = {
  name: { type: "string" },
  role: { type: "string" },
  password: { type: "string" },
  invite: { type: "boolean" },
  json: { type: "boolean" },
} as const;

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

function usageError(message: string): LecternError {
  return new LecternError("bad_request:input", `${message}\n${USAGE}`);
}

/** An option's text value; an option given without one (`--name` at the end) is an error, not "true". */
function text(values: Values, key: string): string | undefined {
  const v = values[key];
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw usageError(`--${key} needs a value.`);
  return v;
}

function personJson(p: Person) {
  return { id: p.id, email: p.email, name: p.name, role: p.role, created_at: p.createdAt.toISOString() };
}

async function personByEmail(handle: DbHandle, email: string | undefined, command: string): Promise<Person> {
  if (!email) throw usageError(`user ${command} needs the person's email address.`);
  const person = await findPerson(handle.db, { email });
  if (!person) throw new LecternError("not_found:user", `There is no account for ${email.trim().toLowerCase()}.`);
  return person;
}

const out = (lines: string[]) => process.stdout.write(`${lines.join("\n")}\n`);

export async function runUser(handle: DbHandle, args: string[], json: boolean): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, strict: false, options });
  const [sub, ...rest] = positionals;
  switch (sub) {
    case "add":
      return addUser(handle, rest[0], values, json);
    case "list":
      return listUsers(handle, json);
    case "role":
      return changeUserRole(handle, rest[0], rest[1], json);
    case "remove":
      return removeUser(handle, rest[0], json);
    case "reset-password":
      return resetUserPassword(handle, rest[0], values, json);
    case "revoke-invite":
      return revokeUserInvite(handle, rest[0], json);
    default:
      throw usageError(sub ? `Unknown user command "${sub}".` : "Which user command?");
  }
}

async function addUser(handle: DbHandle, email: string | undefined, values: Values, json: boolean): Promise<number> {
  if (!email) throw usageError("user add needs the person's email address.");
  const name = text(values, "name");
  const role = text(values, "role");
  const given = text(values, "password");
  const invite = values.invite === true;
  if (given !== undefined && invite) throw usageError("Give --password or --invite, not both.");
  if (role !== undefined && !(ROLES as readonly string[]).includes(role)) {
    throw new LecternError("bad_request:input", `--role is owner, member or viewer (not "${role}").`);
  }
  const first = await needsOwner(handle.db);

  if (invite) {
    if (first) {
      throw new LecternError(
        "bad_request:input",
        "This Lectern has no account yet: its first account is the owner's and is made with a password (--password, or none to generate one), not an invite link.",
      );
    }
    if (!role) throw usageError("user add needs --role owner, member or viewer.");
    if (name !== undefined) info("--name is not used with --invite: they choose their name when they open the link.");
    const { token, expiresAt, replaced } = await invitePerson(handle.db, null, { email, role: role as Role });
    const path = `/invite/${token}`;
    const base = getEnv().LECTERN_PUBLIC_URL;
    const url = base ? new URL(path, base).toString() : null;
    const inviteEmail = emailSchema.parse(email); // as stored (invitePerson accepted it)
    if (json) {
      printJson({
        person: null,
        invite: { email: inviteEmail, role, path, url, expires_at: expiresAt.toISOString(), replaced },
        generated_password: null,
        first_account: false,
      });
      return 0;
    }
    out([
      `Invite link for ${inviteEmail} (${role}), shown only now; it works once, until ${expiresAt.toISOString()}:`,
      `  ${url ?? path}`,
    ]);
    if (!url) info("Open the path at this Lectern's address (set LECTERN_PUBLIC_URL to print the whole link).");
    if (replaced > 0) info(`The invite link sent to ${inviteEmail} before no longer works: this one replaces it.`);
    return 0;
  }

  if (name === undefined) throw usageError('user add needs --name "…" (with --invite, they choose it themselves).');
  if (!first && !role) throw usageError("user add needs --role owner, member or viewer.");
  const password = given ?? generatePassword();
  const person = first
    ? await createOwner(handle.db, { email, name, password }, { byOperator: true })
    : await addPerson(handle.db, null, { email, name, password, role: role as Role });
  if (json) {
    printJson({
      person: personJson(person),
      invite: null,
      generated_password: given === undefined ? password : null,
      first_account: first,
    });
    return 0;
  }
  const lines = [`Added ${person.name} <${person.email}> as ${person.role}.`];
  if (first) {
    lines.push(
      `This Lectern had no account: the first is always its owner${role && role !== "owner" ? ` (--role ${role} was not used)` : ""}.`,
    );
  }
  if (given === undefined) lines.push(`Password (generated, shown only now): ${password}`);
  out(lines);
  return 0;
}

function inviteJson(i: OpenInvite) {
  return { email: i.email, role: i.role, expires_at: i.expiresAt.toISOString(), created_at: i.createdAt.toISOString() };
}

async function listUsers(handle: DbHandle, json: boolean): Promise<number> {
  const { people, invites } = await listPeople(handle.db);
  if (json) {
    printJson({ people: people.map(personJson), invites: invites.map(inviteJson) });
    return 0;
  }
  if (people.length === 0) {
    out(["No accounts yet: the first one made (npm run cli -- user add, or the app's first visit) is the owner."]);
    return 0;
  }
  const width = Math.max(...people.map((p) => p.email.length), 5);
  const lines = [
    `${"email".padEnd(width)}  ${"role".padEnd(6)}  ${"added".padEnd(10)}  name`,
    ...people.map(
      (p) => `${p.email.padEnd(width)}  ${p.role.padEnd(6)}  ${p.createdAt.toISOString().slice(0, 10)}  ${p.name}`,
    ),
  ];
  if (invites.length > 0) {
    lines.push("", "Open invites");
    for (const i of invites) lines.push(`  ${i.email} (${i.role}), until ${i.expiresAt.toISOString()}`);
  }
  out(lines);
  return 0;
}

async function changeUserRole(
  handle: DbHandle,
  email: string | undefined,
  role: string | undefined,
  json: boolean,
): Promise<number> {
  const person = await personByEmail(handle, email, "role");
  if (!role) throw usageError("user role needs the new role: owner, member or viewer.");
  const changed = await changeRole(handle.db, null, person.id, role as Role);
  if (json) {
    printJson({ person: personJson(changed), previous_role: person.role });
    return 0;
  }
  out([
    changed.role === person.role
      ? `${changed.email} is already ${changed.role === "owner" ? "an" : "a"} ${changed.role}.`
      : `${changed.email} is now ${changed.role === "owner" ? "an" : "a"} ${changed.role} (was ${person.role}).`,
  ]);
  return 0;
}

async function removeUser(handle: DbHandle, email: string | undefined, json: boolean): Promise<number> {
  const person = await personByEmail(handle, email, "remove");
  await removePerson(handle.db, null, person.id);
  if (json) {
    printJson({ removed: personJson(person) });
    return 0;
  }
  out([
    `Removed ${person.name} <${person.email}> (${person.role}); signed out everywhere. Their runs stay, without an author.`,
  ]);
  return 0;
}

async function resetUserPassword(
  handle: DbHandle,
  email: string | undefined,
  values: Values,
  json: boolean,
): Promise<number> {
  const person = await personByEmail(handle, email, "reset-password");
  const given = text(values, "password");
  const password = given ?? generatePassword();
  await resetPassword(handle.db, null, person.id, password);
  if (json) {
    printJson({ email: person.email, generated_password: given === undefined ? password : null, signed_out: true });
    return 0;
  }
  const lines = [`New password set for ${person.email}; signed out everywhere.`];
  if (given === undefined) lines.push(`Password (generated, shown only now): ${password}`);
  out(lines);
  return 0;
}

async function revokeUserInvite(handle: DbHandle, email: string | undefined, json: boolean): Promise<number> {
  if (!email) throw usageError("user revoke-invite needs the invited email address.");
  const revoked = await revokeInvite(handle.db, null, { email });
  if (json) {
    printJson({ revoked: revoked.map(inviteJson) });
    return 0;
  }
  const [first] = revoked;
  out([
    revoked.length === 1 && first
      ? `Revoked the invite for ${first.email} (${first.role}); its link no longer works.`
      : `Revoked ${revoked.length} invites for ${first?.email}; their links no longer work.`,
  ]);
  return 0;
}
