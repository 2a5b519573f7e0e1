import { LinkIcon } from "lucide-react";
import type { Metadata } from "next";
import { AuthForm } from "@/components/auth/auth-form";
import { NoticePage } from "@/components/layout/notice-page";
import { getDb } from "@/db";
import { readInvite } from "@/lib/auth/people";
import { inviteDescription } from "@/lib/auth/roles";
import { PASSWORD } from "@/lib/auth/server";
import { acceptInviteAction } from "../../actions";

export const metadata: Metadata = { title: "Join Lectern", robots: { index: false, follow: false } };

type Props = { params: Promise<{ token: string }> };

export default async function InvitePage({ params }: Props) {
  const { token } = await params;
  const invite = await readInvite(await getDb(), token);
  if (!invite) {
    return (
      <NoticePage
        icon={LinkIcon}
        title="This invite link is not valid"
        description="It may have been used already, have expired or been revoked. Ask the owner of this Lectern for a new one."
        testId="invite-invalid"
      />
    );
  }
  return (
    <AuthForm
      testId="invite"
      title="Join Lectern"
      description={inviteDescription(invite.role)}
      fields={[
        {
          name: "email",
          label: "Email",
          type: "email",
          autoComplete: "email",
          defaultValue: invite.email,
          readOnly: true,
        },
        { name: "name", label: "Your name", type: "text", autoComplete: "name" },
        {
          name: "password",
          label: "Password",
          type: "password",
          autoComplete: "new-password",
          hint: `At least ${PASSWORD.min} characters.`,
        },
      ]}
      submitLabel="Create my account"
      submit={async (values) => {
        "use server";
        return acceptInviteAction({ ...values, token });
      }}
    />
  );
}
