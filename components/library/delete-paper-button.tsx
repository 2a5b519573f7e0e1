"use client";

import { Trash2Icon } from "lucide-react";
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
import type { ApiResult } from "./types";

export type DeletePaper = (id: string) => Promise<ApiResult<{ id: string }>>;

/** Delete with a confirmation dialog; the dialog stays open (showing the error) when the delete fails. */
export function DeletePaperButton({
  id,
  title,
  deletePaper,
  onDeleted,
}: {
  id: string;
  title: string;
  deletePaper: DeletePaper;
  onDeleted: (id: string, title: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  const confirm = () => {
    setError(null);
    startTransition(async () => {
      const result = await deletePaper(id).catch(
        (): ApiResult<never> => ({
          ok: false,
          error: { code: "unavailable:run", message: "Could not reach the server. Is Lectern still running?" },
        }),
      );
      if (result.ok) {
        setOpen(false);
        onDeleted(id, title);
      } else {
        setError(result.error.message);
      }
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
        <Button variant="ghost" size="icon-sm" aria-label={`Delete “${title}”`} data-testid="delete-paper-button">
          <Trash2Icon />
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent data-testid="delete-paper-dialog">
        <AlertDialogHeader>
          <AlertDialogTitle>Delete this paper?</AlertDialogTitle>
          <AlertDialogDescription>
            <span className="font-medium text-foreground">{title}</span> will be removed from the library with its
            summary, its passages and its stored PDF. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        {error && (
          <p role="alert" className="text-destructive text-sm" data-testid="delete-paper-error">
            {error}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          {/* A plain button, not AlertDialogAction: the dialog must stay open until the delete has succeeded. */}
          <Button variant="destructive" onClick={confirm} disabled={pending} data-testid="confirm-delete">
            {pending ? "Deleting…" : "Delete"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
