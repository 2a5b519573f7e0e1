"use client";

import { Trash2Icon } from "lucide-react";
import { useRouter } from "next/navigation";
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
import type { RunOwnerActions } from "./types";

/**
 * Deletes the run and the versions made from it, after a confirmation; then back to `/research`. The dialog stays open
 * (showing why) when the delete fails.
 */
export function DeleteRunButton({
  runId,
  question,
  deleteRun,
}: {
  runId: string;
  question: string;
  deleteRun: RunOwnerActions["deleteRun"];
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  const confirm = () => {
    setError(null);
    startTransition(async () => {
      const result = await deleteRun(runId).catch(
        (): Result<never> => ({
          ok: false,
          error: { code: "unavailable:run", message: "Could not reach the server. Is Lectern still running?" },
        }),
      );
      if (!result.ok) {
        setError(result.error.message);
        return;
      }
      setOpen(false);
      router.push("/research");
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
        <Button variant="ghost" size="icon-sm" aria-label="Delete this run" data-testid="research-delete-run">
          <Trash2Icon />
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent data-testid="research-delete-dialog">
        <AlertDialogHeader>
          <AlertDialogTitle>Delete this run?</AlertDialogTitle>
          <AlertDialogDescription>
            <span className="font-medium text-foreground">{question}</span> — its answer, its steps and every version
            made from it are deleted, and its share links stop working. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        {error && (
          <p role="alert" className="text-destructive text-sm" data-testid="research-delete-error">
            {error}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={confirm} disabled={pending} data-testid="research-delete-confirm">
            {pending ? "Deleting…" : "Delete run"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
