import { z } from "zod";
import { emailSchema, nameSchema, passwordSchema } from "@/lib/auth/people";

/** Where to go after signing in: a path of this site only (never another origin: an open redirect). */
export const nextPathSchema = z
  .string()
  .max(2000)
  .optional()
  .transform((p) => (p && /^\/(?![/\\])/.test(p) ? p : "/"));

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
