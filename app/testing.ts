import type { Database } from "@/db";
import { listUsers } from "@/db/queries/people";
import { addPerson, createOwner } from "@/lib/auth/people";
import type { Role } from "@/lib/auth/roles";
import { signIn } from "@/lib/auth/session";
import { request } from "./next-stand-in";

/**
 * Tests of server actions and route handlers, signed in as a real account on the test database. vitest gives the
 * app's code app/next-stand-in.ts for `next/headers` (vitest.config.ts): an action reads the request's headers from
 * it, and `signInAs` puts the account's session cookie there. A route handler is given the cookie directly
 * (`sessionCookie`), in its Request. The database the app's code opens (getDb) is the test's: `createAppTestDatabase`
 * (db/testing.ts).
 */

const PASSWORD = "test password, long enough";
let counter = 0;

/** A new account with `role` (the first one made on a database is its owner, as on a new instance). */
export async function makeAccount(db: Database, role: Role): Promise<{ id: string; email: string }> {
  counter++;
  const email = `${role}${counter}-${Date.now()}@test.example`;
  const owners = (await listUsers(db)).filter((u) => u.role === "owner");
  if (owners.length === 0) {
    const owner = await createOwner(db, {
      email: `owner-${Date.now()}@test.example`,
      name: "Owner",
      password: PASSWORD,
    });
    if (role === "owner") return owner;
    return addPerson(db, owner, { email, name: role, password: PASSWORD, role });
  }
  return addPerson(db, owners[0] ?? null, { email, name: role, password: PASSWORD, role });
}

/** The Cookie header of a new session of `account`. */
export async function sessionCookieOf(db: Database, account: { email: string }): Promise<string> {
  const { setCookies } = await signIn(db, { email: account.email, password: PASSWORD }, new Headers());
  return setCookies.map((c) => c.split(";")[0]).join("; ");
}

/** The Cookie header of a new account with `role`. */
export async function sessionCookie(db: Database, role: Role): Promise<string> {
  return sessionCookieOf(db, await makeAccount(db, role));
}

/** Makes the next actions run as a new account with `role` (or signed out, with null); returns the account. */
export async function signInAs(db: Database, role: Role | null): Promise<{ id: string; email: string } | null> {
  if (role === null) {
    request.headers = new Headers();
    return null;
  }
  const account = await makeAccount(db, role);
  request.headers = new Headers({ cookie: await sessionCookieOf(db, account) });
  return account;
}
