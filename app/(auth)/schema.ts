import { z } from "zod";
import { emailSchema, nameSchema, passwordSchema } from "@/lib/auth/people";

/**
 * Where to go after signing in: a path of this site only (never another origin: an open redirect), else "/". No
 * control character and no backslash anywhere (browsers drop tabs and line breaks from a URL, so "/\t/evil.example"
 * is "//evil.example", another site; a backslash reads as a slash); the path must resolve against this site to this
 * site, and it comes back as the URL parser writes it (spaces and other characters percent-encoded, so the redirect's
 * Location header can carry it).
 */
export function safeNextPath(p: string | undefined): string {
  if (!p || !p.startsWith("/") || p.includes("\\") || hasControlCharacter(p)) return "/";
  const base = "http://lectern.invalid";
  try {
    const url = new URL(p, base);
    return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : "/";
  } catch {
    return "/";
  }
}

function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

export const nextPathSchema = z.string().max(2000).optional().transform(safeNextPath);

export const signInInputSchema = z.object({
  email: z.string("The email address must be text.").trim().min(1, "Type your email address.").max(254),
  password: z.string("The password must be text.").min(1, "Type your password.").max(1000),
  next: nextPathSchema,
});

export const ownerInputSchema = z.object({ email: emailSchema, name: nameSchema, password: passwordSchema });

export const inviteInputSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, "This invite link is not valid."),
  name: nameSchema,
  password: passwordSchema,
});

/** The first problem of a failed parse, with the field it is about. */
export function firstProblem(error: z.ZodError): { message: string; field?: string } {
  const issue = error.issues[0];
  return { message: issue?.message ?? "Invalid input.", ...(issue?.path[0] ? { field: String(issue.path[0]) } : {}) };
}
