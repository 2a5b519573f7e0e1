"use client";

import { Trash2Icon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
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
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="icon-sm" aria-label={`Delete “${title}”`} data-testid="delete-paper-button">
          <Trash2Icon />
        </Button>
      }
      title="Delete this paper?"
      description={
        <>
          <span className="font-medium text-foreground">{title}</span> will be removed from the library with its
          summary, its passages and its stored PDF. This cannot be undone.
        </>
      }
      confirmLabel="Delete"
      pendingLabel="Deleting…"
      action={() => deletePaper(id)}
      onConfirmed={() => onDeleted(id, title)}
      testIds={{ dialog: "delete-paper-dialog", error: "delete-paper-error", confirm: "confirm-delete" }}
    />
  );
}
