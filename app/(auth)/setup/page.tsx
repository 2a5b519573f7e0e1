import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthForm } from "@/components/auth/auth-form";
import { getDb } from "@/db";
import { needsOwner } from "@/lib/auth/people";
import { PASSWORD } from "@/lib/auth/server";
import { createOwnerAction } from "../actions";

export const metadata: Metadata = { title: "Create the owner account" };

/** The first visit to a new instance: its first account becomes the owner's. Gone once there is an account. */
export default async function SetupPage() {
  if (!(await needsOwner(await getDb()))) redirect("/sign-in");
  return (
    <AuthForm
      testId="setup"
      title="Create the owner account"
      description="This Lectern has no accounts yet. The first one is its owner: they add the others, choose their roles and can remove them."
      fields={[
        { name: "name", label: "Your name", type: "text", autoComplete: "name" },
        { name: "email", label: "Email", type: "email", autoComplete: "email" },
        {
          name: "password",
          label: "Password",
          type: "password",
          autoComplete: "new-password",
          hint: `At least ${PASSWORD.min} characters.`,
        },
      ]}
      submitLabel="Create the owner account"
      submit={createOwnerAction}
    />
  );
}
