import type { Database } from "@/db";
import { getUserById } from "@/db/queries/people";
import { LecternError } from "@/lib/errors";
import { consumeRateLimit } from "./rate-limit";
import type { Role } from "./roles";
import { getAuthFor } from "./server";

/** The signed-in person, as every check reads them: the role is read from the database on each request. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

/** The person whose session cookie came with `headers`, or null (no cookie, expired, revoked, account removed). */
export async function getSessionUser(db: Database, headers: Headers): Promise<SessionUser | null> {
  if (!headers.get("cookie")) return null;
  const auth = await getAuthFor(db);
  const session = await auth.api.getSession({ headers, query: { disableCookieCache: true } });
  if (!session) return null;
  // the role as it is now (a role change or removal applies to the next request, not at the session's renewal)
  const person = await getUserById(db, { id: session.user.id });
  return person ? { id: person.id, email: person.email, name: person.name, role: person.role } : null;
}

/** Failed sign-ins allowed per account from one client address (or per account when the address is unknown) in 15
 *  minutes. */
export const SIGN_IN_LIMIT = { limit: 10, windowMs: 15 * 60_000 } as const;

/** Failed sign-ins allowed per account from all addresses together, and per address for all accounts, in 15 minutes
 *  (when the client's address is known). */
export const SIGN_IN_ACCOUNT_LIMIT = { ...SIGN_IN_LIMIT, limit: 100 } as const;
export const SIGN_IN_ADDRESS_LIMIT = { ...SIGN_IN_LIMIT, limit: 50 } as const;

/**
 * Signs in with email and password; returns the `Set-Cookie` values of the new session for the caller to send. A
 * wrong email and a wrong password get the same answer. Guesses are limited per account from one address, per account
 * from all addresses (a higher ceiling, against guesses spread over many addresses) and per address. So ten wrong
 * guesses from one address lock that address out of the account, not its owner signing in from elsewhere; without a
 * known address (no proxy in front) the ten count for the account as a whole.
 */
export async function signIn(
  db: Database,
  input: { email: string; password: string; client?: string },
  headers: Headers,
): Promise<{ user: SessionUser; setCookies: string[] }> {
  const email = input.email.trim().toLowerCase();
  // every attempt is counted before the password is checked (so parallel guesses cannot overrun the limit); one that
  // succeeds is taken back out: only failed sign-ins count
  const tooMany = "Too many sign-in attempts for this account.";
  const uncount = [
    await consumeRateLimit(db, `sign-in:${email}`, input.client ? SIGN_IN_ACCOUNT_LIMIT : SIGN_IN_LIMIT, tooMany),
  ];
  if (input.client) {
    uncount.push(await consumeRateLimit(db, `sign-in:${email}:${input.client}`, SIGN_IN_LIMIT, tooMany));
    uncount.push(
      await consumeRateLimit(db, `sign-in-ip:${input.client}`, SIGN_IN_ADDRESS_LIMIT, "Too many sign-in attempts."),
    );
  }
  const auth = await getAuthFor(db);
  let signedIn: { user: SessionUser; setCookies: string[] } | null = null;
  try {
    const { headers: out, response } = await auth.api.signInEmail({
      body: { email, password: input.password, rememberMe: true },
      headers,
      returnHeaders: true,
    });
    const person = await getUserById(db, { id: response.user.id });
    if (!person) throw new Error("account vanished");
    signedIn = {
      user: { id: person.id, email: person.email, name: person.name, role: person.role },
      setCookies: out.getSetCookie(),
    };
  } catch (e) {
    if (e instanceof LecternError) throw e;
    throw new LecternError("unauthorized:session", "That email and password do not match an account.", {
      cause: e,
    });
  }
  // (after the sign-in, and best effort: a refund that fails leaves the attempt counted, never fails the sign-in)
  for (const undo of uncount) await undo().catch(() => {});
  return signedIn;
}

/** Ends the session of `headers`; returns the `Set-Cookie` values that clear the cookie. */
export async function signOut(db: Database, headers: Headers): Promise<string[]> {
  const auth = await getAuthFor(db);
  try {
    const { headers: out } = await auth.api.signOut({ headers, returnHeaders: true });
    return out.getSetCookie();
  } catch {
    return [];
  }
}
