"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/db";
import { clientAddressFrom } from "@/lib/auth/client-address";
import { acceptInvite, createOwner } from "@/lib/auth/people";
import { signIn, signOut } from "@/lib/auth/session";
import { type Result, toErrorResult } from "@/lib/errors";
import { applySetCookies } from "../access";
import { firstProblem, inviteInputSchema, ownerInputSchema, signInInputSchema } from "./schema";

/** The client's address as the proxy in front reports it (for the sign-in limit per address), else none. */
async function clientAddress(): Promise<string | undefined> {
  const h = await headers();
  return clientAddressFrom(h.get("x-forwarded-for"), h.get("x-real-ip"));
}

async function signInAndSetCookies(email: string, password: string): Promise<void> {
  const { setCookies } = await signIn(
    await getDb(),
    { email, password, client: await clientAddress() },
    await headers(),
  );
  await applySetCookies(setCookies);
}

function invalid(error: Parameters<typeof firstProblem>[0]): Result<never> {
  return { ok: false, error: { code: "bad_request:input", ...firstProblem(error) } };
}

/** Signs in; `next` is where to go then (a path of this site). */
export async function signInAction(input: unknown): Promise<Result<{ next: string }>> {
  const parsed = signInInputSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  try {
    await signInAndSetCookies(parsed.data.email, parsed.data.password);
    return { ok: true, data: { next: parsed.data.next } };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** The first account of a new instance: its owner, signed in at once. Refused once there is an account. */
export async function createOwnerAction(input: unknown): Promise<Result<{ next: string }>> {
  const parsed = ownerInputSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  try {
    await createOwner(await getDb(), parsed.data);
    await signInAndSetCookies(parsed.data.email, parsed.data.password);
    return { ok: true, data: { next: "/" } };
  } catch (e) {
    return toErrorResult(e);
  }
}

/** Joins with an invite link: the account gets the invite's email and role, and is signed in. */
export async function acceptInviteAction(input: unknown): Promise<Result<{ next: string }>> {
  const parsed = inviteInputSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  try {
    const person = await acceptInvite(await getDb(), parsed.data.token, parsed.data);
    await signInAndSetCookies(person.email, parsed.data.password);
    return { ok: true, data: { next: "/" } };
  } catch (e) {
    return toErrorResult(e);
  }
}

export async function signOutAction(): Promise<void> {
  await applySetCookies(await signOut(await getDb(), await headers()));
  redirect("/sign-in");
}
