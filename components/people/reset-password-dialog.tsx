"use client";

import { KeyRoundIcon } from "lucide-react";
import { useId, useState, useTransition } from "react";
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
import { PasswordField } from "./password-field";
import type { PeopleActions, PersonItem } from "./types";

/** Sets a new password for someone (typed or generated); they are signed out everywhere. Stays open on an error. */
export function ResetPasswordDialog({
  person,
  isMe,
  passwordHint,
  resetPassword,
  onDone,
}: {
  person: PersonItem;
  isMe: boolean;
  passwordHint: string;
  resetPassword: PeopleActions["resetPassword"];
  onDone: (message: string) => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [pending, startTransition] = useTransition();

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const password = String(new FormData(form).get("password") ?? "");
    startTransition(async () => {
      const result: Result<{ email: string }> = await resetPassword({ userId: person.id, password }).catch(() => ({
        ok: false,
        error: { code: "unavailable:session", message: "Could not reach the server. Is Lectern still running?" },
      }));
      if (!result.ok) {
        setError({ message: result.error.message, field: result.error.field });
        const field = form.elements.namedItem("password");
        if (field instanceof HTMLInputElement) field.focus();
        return;
      }
      setOpen(false);
      setError(null);
      onDone(`New password set for ${person.email}; they were signed out everywhere.`);
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
          aria-label={`Reset the password of ${person.name}`}
          title="Reset the password"
          className="max-sm:size-10"
          data-testid="person-reset-password"
        >
          <KeyRoundIcon />
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent data-testid="reset-password-dialog">
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <AlertDialogHeader>
            <AlertDialogTitle>Reset the password of {person.name}?</AlertDialogTitle>
            <AlertDialogDescription>
              {isMe
                ? "This is your own account: you will be signed out here and everywhere else, and sign in again with the new password."
                : `${person.email} will be signed out everywhere and sign in with the new password. Give it to them over a channel you trust.`}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <PasswordField
            id={`${id}-password`}
            label="New password"
            hint={passwordHint}
            invalid={error?.field === "password"}
            testId="reset-password-input"
          />
          {error && (
            <p role="alert" className="text-destructive text-sm" data-testid="reset-password-error">
              {error.message}
            </p>
          )}
          <AlertDialogFooter>
            <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
            <Button type="submit" disabled={pending} data-testid="reset-password-confirm">
              {pending ? "Setting…" : "Set the new password"}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
