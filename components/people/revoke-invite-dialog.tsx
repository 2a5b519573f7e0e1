"use client";

import { XIcon } from "lucide-react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DangerIconButton } from "./danger-icon-button";
import type { InviteItem, PeopleActions } from "./types";

/**
 * Revokes an open invite after a confirmation (an invite sent to the wrong address would otherwise stay valid until it
 * expires); the dialog stays open, with the server's message, when it is refused.
 */
export function RevokeInviteDialog({
  invite,
  revoke,
  onDone,
}: {
  invite: InviteItem;
  revoke: PeopleActions["revokeInvite"];
  onDone: (message: string) => void;
}) {
  return (
    <ConfirmDialog
      trigger={
        <DangerIconButton
          aria-label={`Revoke the invite for ${invite.email}`}
          title="Revoke"
          data-testid="invite-revoke"
        >
          <XIcon />
        </DangerIconButton>
      }
      title="Revoke the invite?"
      description={
        <>
          The invite link sent to <span className="break-all font-medium text-foreground">{invite.email}</span> stops
          working at once: opening it will say it is no longer valid. You can invite them again afterwards.
        </>
      }
      confirmLabel="Revoke"
      pendingLabel="Revoking…"
      action={() => revoke({ email: invite.email })}
      onConfirmed={(data) =>
        onDone(
          data.revoked > 1
            ? `Revoked ${data.revoked} invites for ${invite.email}; their links no longer work.`
            : `Revoked the invite for ${invite.email}; its link no longer works.`,
        )
      }
      testIds={{ dialog: "revoke-invite-dialog", error: "revoke-invite-error", confirm: "revoke-invite-confirm" }}
    />
  );
}
