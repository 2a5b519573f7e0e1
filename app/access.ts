import "server-only";
import { parseSetCookieHeader, toCookieOptions } from "better-auth/cookies";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db";
import { needsOwner } from "@/lib/auth/people";
import { type Capability, can, ROLE_LABELS } from "@/lib/auth/roles";
import { getSessionUser, type SessionUser } from "@/lib/auth/session";
import { isLecternError, LecternError, toErrorResult, userMessage } from "@/lib/errors";
import { checkSameOrigin } from "./request-guard";

/**
 * The one place where server actions, route handlers and pages check who is asking and what their role allows. An
 * action calls `requireUser(capability)` first (inside its try: a refusal becomes its error result); a page calls
 * `pageUser()` (which sends a visitor to sign in, or to create the owner account on a new instance); a route handler
 * calls `guardRoute` (cross-site check, then session and role).
 */

/** The signed-in person of this request, read once per request. */
export const currentUser = cache(async (): Promise<SessionUser | null> => {
  return getSessionUser(await getDb(), await headers());
});

function refusal(user: SessionUser | null, capability: Capability): LecternError | null {
  if (!user) return new LecternError("unauthorized:session", "Sign in to continue (your session may have ended).");
  if (!can(user.role, capability)) {
    return new LecternError(
      "forbidden:role",
      `Your role (${ROLE_LABELS[user.role].toLowerCase()}) does not allow this. Ask an owner of this Lectern.`,
    );
  }
  return null;
}

/** The signed-in person, if their role allows `capability`; otherwise throws the refusal (401 or 403). */
export async function requireUser(capability: Capability): Promise<SessionUser> {
  const user = await currentUser();
  const refused = refusal(user, capability);
  if (refused) throw refused;
  return user as SessionUser;
}

/**
 * For a page: the signed-in person, or a redirect — to `/setup` on an instance without accounts, else to `/sign-in`
 * (back to `path` afterwards). A role without `capability` sees the page's refusal (`forbidden`).
 */
export async function pageUser(path: string, capability: Capability = "library:read"): Promise<SessionUser> {
  const db = await getDb();
  const user = await currentUser();
  if (!user) {
    if (await needsOwner(db)) redirect("/setup");
    redirect(`/sign-in?next=${encodeURIComponent(path)}`);
  }
  const refused = refusal(user, capability);
  if (refused) throw refused;
  return user;
}

/** For a route handler: refuses a cross-site request (403), no session (401) or a role without `capability` (403). */
export async function guardRoute(request: Request, capability: Capability): Promise<SessionUser | Response> {
  const crossSite = checkSameOrigin(request);
  if (crossSite) return crossSite;
  try {
    const user = await getSessionUser(await getDb(), request.headers);
    const refused = refusal(user, capability);
    if (refused) return errorResponse(refused);
    return user as SessionUser;
  } catch (e) {
    return errorResponse(e);
  }
}

/** A JSON error response: the safe message and code; `Retry-After` when rate-limited; details only in the log. */
export function errorResponse(e: unknown): Response {
  const status = isLecternError(e) ? e.status : 500;
  const body = isLecternError(e) ? toErrorResult(e).error : { code: "internal:input", message: userMessage(e) };
  if (!isLecternError(e)) console.error(e);
  const headers: Record<string, string> = { "Content-Type": "application/json", "Cache-Control": "no-store" };
  if (isLecternError(e) && e.retryAfter !== undefined) headers["Retry-After"] = String(e.retryAfter);
  return new Response(JSON.stringify({ ok: false, error: body }), { status, headers });
}

/** Sends Better Auth's `Set-Cookie` values with the action's response (sign-in, sign-out). */
export async function applySetCookies(setCookies: string[]): Promise<void> {
  const jar = await cookies();
  for (const header of setCookies) {
    for (const [name, attributes] of parseSetCookieHeader(header)) {
      jar.set(name, attributes.value, toCookieOptions(attributes));
    }
  }
}
