import { randomBytes } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import type { Database } from "@/db";
import { getMeta, insertMetaIfAbsent } from "@/db/queries/meta";
import { accounts, sessions, users, verifications } from "@/db/schema";
import { type Env, getEnv } from "@/lib/env";

/**
 * Accounts and sessions with Better Auth (chosen over Auth.js: its email + password sign-in keeps sessions in our
 * database — Auth.js's credentials provider allows only JWT sessions — and its drizzle adapter runs on both drivers).
 * Public sign-up is off: the first account is made by the owner-setup page (lib/auth/people.ts `createOwner`), the
 * rest by the owner. The app never mounts Better Auth's HTTP handler: sign-in, sign-out and session reads go through
 * our server actions and `getSession`, which call `auth.api` directly.
 */

export const PASSWORD = { min: 10, max: 128 } as const;
const SESSION_DAYS = 30;

function createAuth(db: Database, secret: string, env: Env) {
  const secure = env.LECTERN_PUBLIC_URL?.startsWith("https://") ?? false;
  return betterAuth({
    appName: "Lectern",
    secret,
    ...(env.LECTERN_PUBLIC_URL ? { baseURL: env.LECTERN_PUBLIC_URL } : {}),
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: PASSWORD.min,
      maxPasswordLength: PASSWORD.max,
    },
    user: {
      additionalFields: {
        // never settable through Better Auth's own endpoints (input: false): roles change only through people.ts
        role: { type: "string", required: true, defaultValue: "viewer", input: false },
      },
    },
    session: { expiresIn: SESSION_DAYS * 24 * 3600, updateAge: 24 * 3600 },
    advanced: {
      cookiePrefix: "lectern",
      useSecureCookies: secure,
      // Lax: a cross-site POST (a form on another site) carries no session; links from elsewhere still sign in
      defaultCookieAttributes: { sameSite: "lax", httpOnly: true, secure, path: "/" },
    },
    telemetry: { enabled: false },
    // its warnings are about the HTTP handler we do not mount (no base URL) and wrong passwords (answered to the user)
    logger: { level: "error" },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const AUTH_KEY = Symbol.for("lectern.auth");
type Cache = { db: Database; auth: Promise<Auth> };

/** The Better Auth instance of this process's database (made once, on first use). */
export function getAuthFor(db: Database, env: Env = getEnv()): Promise<Auth> {
  const g = globalThis as unknown as Record<symbol, Cache | undefined>;
  const cached = g[AUTH_KEY];
  if (cached && cached.db === db) return cached.auth;
  const auth = authSecret(db, env).then((secret) => createAuth(db, secret, env));
  g[AUTH_KEY] = { db, auth };
  auth.catch(() => {
    if (g[AUTH_KEY]?.auth === auth) g[AUTH_KEY] = undefined;
  });
  return auth;
}

const SECRET_KEY = "auth_secret";

/** LECTERN_AUTH_SECRET, or the instance's own: made once (the first instance to ask writes it) and kept in the database. */
async function authSecret(db: Database, env: Env): Promise<string> {
  if (env.LECTERN_AUTH_SECRET) return env.LECTERN_AUTH_SECRET;
  await insertMetaIfAbsent(db, { key: SECRET_KEY, value: randomBytes(32).toString("base64url") });
  const stored = await getMeta<string>(db, { key: SECRET_KEY });
  if (!stored) throw new Error("The session secret could not be stored.");
  return stored;
}
