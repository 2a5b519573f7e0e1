"use client";

import { type ReactNode, useState, useTransition } from "react";
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

const UNREACHABLE = "Could not reach the server. Is Lectern still running?";

/**
 * A destructive action behind a confirmation (delete a paper or a run, remove a person, revoke an invite). The dialog
 * stays open until the action has succeeded — a refusal shows the server's message in it, and it cannot be closed
 * while the action runs — then closes and hands over the result. `trigger` is the button that opens it.
 */
export function ConfirmDialog<T>({
  trigger,
  title,
  description,
  confirmLabel,
  pendingLabel,
  action,
  onConfirmed,
  testIds,
}: {
  trigger: ReactNode;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  action: () => Promise<Result<T>>;
  onConfirmed: (data: T) => void;
  testIds: { dialog: string; error: string; confirm: string };
}) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  const confirm = () => {
    setError(null);
    startTransition(async () => {
      const result = await action().catch(
        (): Result<never> => ({ ok: false, error: { code: "unavailable:session", message: UNREACHABLE } }),
      );
      if (!result.ok) {
        setError(result.error.message);
        return;
      }
      setOpen(false);
      onConfirmed(result.data);
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
      <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>
      <AlertDialogContent data-testid={testIds.dialog}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {error && (
          <p role="alert" className="text-destructive text-sm" data-testid={testIds.error}>
            {error}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          {/* A plain button, not AlertDialogAction: the dialog must stay open until the action has succeeded. */}
          <Button variant="destructive" onClick={confirm} disabled={pending} data-testid={testIds.confirm}>
            {pending ? pendingLabel : confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
