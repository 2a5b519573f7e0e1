"use client";

import { XIcon } from "lucide-react";
import { useState, useTransition } from "react";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import type { Result } from "@/lib/errors";
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
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  const confirm = () => {
    setError(null);
    startTransition(async () => {
      const result: Result<{ email: string; revoked: number }> = await revoke({ email: invite.email }).catch(() => ({
        ok: false,
        error: { code: "unavailable:session", message: "Could not reach the server. Is Lectern still running?" },
      }));
      if (!result.ok) {
        setError(result.error.message);
        return;
      }
      setOpen(false);
      onDone(
        result.data.revoked > 1
          ? `Revoked ${result.data.revoked} invites for ${invite.email}; their links no longer work.`
          : `Revoked the invite for ${invite.email}; its link no longer works.`,
      );
    });
  };

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (pending) return;
        setOpen(next);
        if (!next) setError(null);
      }}
    >
      <AlertDialogTrigger asChild>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={`Revoke the invite for ${invite.email}`}
          title="Revoke"
          className="text-muted-foreground hover:text-destructive"
          data-testid="invite-revoke"
        >
          <XIcon />
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent data-testid="revoke-invite-dialog">
        <AlertDialogHeader>
          <AlertDialogTitle>Revoke the invite?</AlertDialogTitle>
          <AlertDialogDescription>
            The invite link sent to <span className="break-all font-medium text-foreground">{invite.email}</span> stops
            working at once: opening it will say it is no longer valid. You can invite them again afterwards.
          </AlertDialogDescription>
        </AlertDialogHeader>
        {error && (
          <p role="alert" className="text-destructive text-sm" data-testid="revoke-invite-error">
            {error}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          {/* A plain button, not AlertDialogAction: the dialog must stay open until the revocation has succeeded. */}
          <Button variant="destructive" onClick={confirm} disabled={pending} data-testid="revoke-invite-confirm">
            {pending ? "Revoking…" : "Revoke"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
