"use client";

import { UserMinusIcon } from "lucide-react";
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
import type { PeopleActions, PersonItem } from "./types";

/** Removes an account after a confirmation; the dialog stays open (with the server's message) when it is refused. */
export function RemovePersonDialog({
  person,
  isMe,
  remove,
  onDone,
}: {
  person: PersonItem;
  isMe: boolean;
  remove: PeopleActions["remove"];
  onDone: (message: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  const confirm = () => {
    setError(null);
    startTransition(async () => {
      const result: Result<{ email: string }> = await remove({ userId: person.id }).catch(() => ({
        ok: false,
        error: { code: "unavailable:session", message: "Could not reach the server. Is Lectern still running?" },
      }));
      if (!result.ok) {
        setError(result.error.message);
        return;
      }
      setOpen(false);
      onDone(`Removed ${person.name} (${person.email}).`);
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
          aria-label={`Remove ${person.name}`}
          title="Remove"
          className="text-muted-foreground hover:text-destructive"
          data-testid="person-remove"
        >
          <UserMinusIcon />
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent data-testid="remove-person-dialog">
        <AlertDialogHeader>
          <AlertDialogTitle>Remove {isMe ? "your own account" : person.name}?</AlertDialogTitle>
          <AlertDialogDescription>
            <span className="font-medium text-foreground">{person.email}</span> will no longer be able to sign in and is
            signed out at once. Their research runs stay, without an author; the papers they added stay in the library.
            {isMe && " You will be signed out."}
          </AlertDialogDescription>
        </AlertDialogHeader>
        {error && (
          <p role="alert" className="text-destructive text-sm" data-testid="remove-person-error">
            {error}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          {/* A plain button, not AlertDialogAction: the dialog must stay open until the removal has succeeded. */}
          <Button variant="destructive" onClick={confirm} disabled={pending} data-testid="remove-person-confirm">
            {pending ? "Removing…" : "Remove"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
