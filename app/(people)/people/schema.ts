import { z } from "zod";
import { emailSchema, nameSchema, passwordSchema, roleSchema } from "@/lib/auth/people";

/** The people page's inputs (the field rules are lib/auth/people.ts's, so the page and the CLI say the same). */

export const userIdSchema = z
  .string("Choose a person.")
  .trim()
  .min(1, "Choose a person.")
  .max(200, "That is not an account id.");

export const addPersonInputSchema = z.discriminatedUnion(
  "method",
  [
    z.object({
      method: z.literal("password"),
      email: emailSchema,
      name: nameSchema,
      role: roleSchema,
      password: passwordSchema,
    }),
    // an invited person chooses their own name (and password) when they open the link
    z.object({ method: z.literal("invite"), email: emailSchema, role: roleSchema }),
  ],
  "Choose how they sign in: a password or an invite link.",
);
export type AddPersonInput = z.infer<typeof addPersonInputSchema>;

export const changeRoleInputSchema = z.object({ userId: userIdSchema, role: roleSchema });
export type ChangeRoleInput = z.infer<typeof changeRoleInputSchema>;

export const resetPasswordInputSchema = z.object({ userId: userIdSchema, password: passwordSchema });
export type ResetPasswordInput = z.infer<typeof resetPasswordInputSchema>;

export const removePersonInputSchema = z.object({ userId: userIdSchema });
export type RemovePersonInput = z.infer<typeof removePersonInputSchema>;

/** An open invite is named by its address (only its token's hash is kept; every open invite to it is revoked). */
export const revokeInviteInputSchema = z.object({ email: emailSchema });
export type RevokeInviteInput = z.infer<typeof revokeInviteInputSchema>;
