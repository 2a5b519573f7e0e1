"use client";

import { UserMinusIcon } from "lucide-react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DangerIconButton } from "./danger-icon-button";
import type { PeopleActions, PersonItem } from "./types";

/** Removes an account after a confirmation; the dialog stays open (with the server's message) when it is refused. */
export function RemovePersonDialog({
  person,
  isMe,
  onlyOwner = false,
  remove,
  onDone,
}: {
  person: PersonItem;
  isMe: boolean;
  /** The only owner: the button is disabled and says why (someone must be able to manage people). */
  onlyOwner?: boolean;
  remove: PeopleActions["remove"];
  onDone: (message: string) => void;
}) {
  if (onlyOwner) {
    const why = "The only owner cannot be removed: make someone else an owner first.";
    return (
      <span title={why}>
        <DangerIconButton
          aria-label={`Remove ${person.name} (not possible: ${why.toLowerCase()})`}
          disabled
          data-testid="person-remove"
        >
          <UserMinusIcon />
        </DangerIconButton>
      </span>
    );
  }
  return (
    <ConfirmDialog
      trigger={
        <DangerIconButton aria-label={`Remove ${person.name}`} title="Remove" data-testid="person-remove">
          <UserMinusIcon />
        </DangerIconButton>
      }
      title={`Remove ${isMe ? "your own account" : person.name}?`}
      description={
        <>
          <span className="font-medium text-foreground">{person.email}</span> will no longer be able to sign in and is
          signed out at once. Their research runs stay, without an author, and their share links stop working; the
          papers they added stay in the library.
          {isMe && " You will be signed out."}
        </>
      }
      confirmLabel="Remove"
      pendingLabel="Removing…"
      action={() => remove({ userId: person.id })}
      onConfirmed={() => onDone(`Removed ${person.name} (${person.email}).`)}
      testIds={{ dialog: "remove-person-dialog", error: "remove-person-error", confirm: "remove-person-confirm" }}
    />
  );
}
