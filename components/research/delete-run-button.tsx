"use client";

import { Trash2Icon } from "lucide-react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
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
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="icon-sm" aria-label="Delete this run" data-testid="research-delete-run">
          <Trash2Icon />
        </Button>
      }
      title="Delete this run?"
      description={
        <>
          <span className="font-medium text-foreground">{question}</span> — its answer, its steps and every version made
          from it are deleted, and its share links stop working. This cannot be undone.
        </>
      }
      confirmLabel="Delete run"
      pendingLabel="Deleting…"
      action={() => deleteRun(runId)}
      onConfirmed={() => router.push("/research")}
      testIds={{ dialog: "research-delete-dialog", error: "research-delete-error", confirm: "research-delete-confirm" }}
    />
  );
}
