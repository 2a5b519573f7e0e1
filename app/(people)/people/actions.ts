"use server";

import { revalidatePath } from "next/cache";
import type { AddedPerson, PersonItem } from "@/components/people/types";
import { getDb } from "@/db";
import { getUserById } from "@/db/queries/people";
import { addPerson, changeRole, invitePerson, removePerson, resetPassword, revokeInvite } from "@/lib/auth/people";
import { type Result, toErrorResult } from "@/lib/errors";
import { firstProblem } from "../../(auth)/schema";
import { requireUser } from "../../access";
import { toPersonItem } from "./rows";
import {
  addPersonInputSchema,
  changeRoleInputSchema,
  removePersonInputSchema,
  resetPasswordInputSchema,
  revokeInviteInputSchema,
} from "./schema";

/**
 * The people page's actions, owners only: the role is checked first (a member or viewer learns nothing about the
 * input), then the input, then lib/auth/people.ts does the work and writes the audit trail with the owner as actor.
 */

type Invalid = Parameters<typeof firstProblem>[0];
function invalid(error: Invalid): Result<never> {
  return { ok: false, error: { code: "bad_request:input", ...firstProblem(error) } };
}

/** Adds a person with a password, or makes a one-time invite link (its path returned once; only a hash is kept). */
export async function addPersonAction(input: unknown): Promise<Result<AddedPerson>> {
  try {
    const owner = await requireUser("people:manage");
    const parsed = addPersonInputSchema.safeParse(input);
    if (!parsed.success) return invalid(parsed.error);
    const db = await getDb();
    let data: AddedPerson;
    if (parsed.data.method === "password") {
      const person = await addPerson(db, owner, parsed.data);
      data = { method: "password", person: toPersonItem(person) };
    } else {
      const { email, role } = parsed.data;
      const { token, expiresAt, replaced } = await invitePerson(db, owner, { email, role });
      const invitePath = `/invite/${token}`;
      data = { method: "invite", email, role, invitePath, expiresAt: expiresAt.toISOString(), replaced };
    }
    revalidatePath("/people");
    return { ok: true, data };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** Changes a role; the last owner's is refused (lib/auth/people.ts says why). */
export async function changeRoleAction(input: unknown): Promise<Result<{ person: PersonItem }>> {
  try {
    const owner = await requireUser("people:manage");
    const parsed = changeRoleInputSchema.safeParse(input);
    if (!parsed.success) return invalid(parsed.error);
    const person = await changeRole(await getDb(), owner, parsed.data.userId, parsed.data.role);
    revalidatePath("/people");
    return { ok: true, data: { person: toPersonItem(person) } };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** Sets a new password for someone; every session of theirs ends. */
export async function resetPasswordAction(input: unknown): Promise<Result<{ email: string }>> {
  try {
    const owner = await requireUser("people:manage");
    const parsed = resetPasswordInputSchema.safeParse(input);
    if (!parsed.success) return invalid(parsed.error);
    const db = await getDb();
    const person = await getUserById(db, { id: parsed.data.userId });
    await resetPassword(db, owner, parsed.data.userId, parsed.data.password);
    revalidatePath("/people");
    return { ok: true, data: { email: person?.email ?? "" } };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** Removes an account (signed out at once; their runs stay). Not the last owner. */
export async function removePersonAction(input: unknown): Promise<Result<{ email: string }>> {
  try {
    const owner = await requireUser("people:manage");
    const parsed = removePersonInputSchema.safeParse(input);
    if (!parsed.success) return invalid(parsed.error);
    const db = await getDb();
    const person = await getUserById(db, { id: parsed.data.userId });
    await removePerson(db, owner, parsed.data.userId);
    revalidatePath("/people");
    return { ok: true, data: { email: person?.email ?? "" } };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** Revokes the open invite to an address: its link is dead at once (opening it says it is not valid any more). */
export async function revokeInviteAction(input: unknown): Promise<Result<{ email: string; revoked: number }>> {
  try {
    const owner = await requireUser("people:manage");
    const parsed = revokeInviteInputSchema.safeParse(input);
    if (!parsed.success) return invalid(parsed.error);
    const revoked = await revokeInvite(await getDb(), owner, { email: parsed.data.email });
    revalidatePath("/people");
    return { ok: true, data: { email: parsed.data.email, revoked: revoked.length } };
  } catch (e) {
    return toErrorResult(e);
  }
}
