"use client";

import { CheckIcon, PencilIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { MetadataEditor, type SaveMetadata } from "./metadata-editor";
import { describeFields } from "./metadata-form";
import { PaperMetadata } from "./paper-metadata";
import type { PaperDetailView } from "./types";

/** The paper's details, with a way to correct what was read from the PDF. */
/** `saveMetadata` null: the person's role may not edit (no Edit button). */
export function PaperDetails({ paper, saveMetadata }: { paper: PaperDetailView; saveMetadata: SaveMetadata | null }) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [refreshing, startRefresh] = useTransition();
  const editButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (!editing && returnFocus.current) {
      returnFocus.current = false;
      editButton.current?.focus();
    }
  }, [editing]);

  const close = (message: string | null) => {
    returnFocus.current = true;
    setEditing(false);
    setStatus(message);
  };

  return (
    <section aria-labelledby="details-heading" className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <h2 id="details-heading" className="font-semibold text-sm">
          Details
        </h2>
        {!editing && saveMetadata && (
          <Button
            ref={editButton}
            variant="ghost"
            size="sm"
            onClick={() => {
              setStatus(null);
              setEditing(true);
            }}
            data-testid="metadata-edit"
          >
            <PencilIcon aria-hidden />
            Edit
          </Button>
        )}
      </div>
      <p role="status" className="text-muted-foreground text-xs empty:hidden" data-testid="metadata-status">
        {status && (
          <span className="inline-flex items-center gap-1">
            <CheckIcon className="size-3" aria-hidden />
            {status}
            {refreshing && " Updating…"}
          </span>
        )}
      </p>
      {editing && saveMetadata ? (
        <MetadataEditor
          paper={paper}
          save={saveMetadata}
          onCancel={() => close(null)}
          onSaved={(changed) => {
            close(changed.length ? `Saved: ${describeFields(changed)}.` : "Nothing was changed.");
            if (changed.length) startRefresh(() => router.refresh());
          }}
        />
      ) : (
        <PaperMetadata paper={paper} />
      )}
    </section>
  );
}
