import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthForm } from "@/components/auth/auth-form";
import { getDb } from "@/db";
import { needsOwner } from "@/lib/auth/people";
import { currentUser } from "../../access";
import { signInAction } from "../actions";
import { nextPathSchema } from "../schema";

export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<{ next?: string | string[] }> };

export default async function SignInPage({ searchParams }: Props) {
  const raw = (await searchParams).next;
  const next = nextPathSchema.parse(typeof raw === "string" ? raw : undefined);
  if (await currentUser()) redirect(next);
  if (await needsOwner(await getDb())) redirect("/setup");
  return (
    <AuthForm
      testId="sign-in"
      title="Sign in to Lectern"
      description="Accounts are made by the owner of this Lectern: ask them for one, or for an invite link."
      fields={[
        { name: "email", label: "Email", type: "email", autoComplete: "email" },
        { name: "password", label: "Password", type: "password", autoComplete: "current-password" },
      ]}
      submitLabel="Sign in"
      submit={async (values) => {
        "use server";
        return signInAction({ ...values, next });
      }}
      next={next}
    />
  );
}
