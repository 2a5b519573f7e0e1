"use client";

import { FileUpIcon, UploadIcon } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { formatBytes } from "./format";

export function hasFiles(e: React.DragEvent | DragEvent): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes("Files");
}

/**
 * Where PDFs go in: a file picker and a drop target. `large` is the empty library's version, with the invitation
 * to start.
 */
export function UploadDropZone({
  onFiles,
  maxUploadBytes,
  large = false,
}: {
  onFiles: (files: File[]) => void;
  maxUploadBytes: number;
  large?: boolean;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();
  const [over, setOver] = useState(false);

  return (
    <section
      aria-label="Add papers"
      data-testid="drop-zone"
      data-dragging={over || undefined}
      onDragEnter={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "copy";
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(e) => {
        if (!hasFiles(e)) return;
        // also tells the page-wide drop handler that these files are taken care of
        e.preventDefault();
        setOver(false);
        onFiles(Array.from(e.dataTransfer.files));
      }}
      className={cn(
        "flex flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed text-center transition-colors",
        large ? "px-6 py-16" : "px-4 py-6 sm:flex-row sm:justify-between sm:text-left",
        over ? "border-primary bg-primary/5" : "border-border bg-card/50",
      )}
    >
      <div className={cn("flex items-center gap-3", large && "flex-col")}>
        {large ? (
          <FileUpIcon className="size-10 text-muted-foreground" aria-hidden />
        ) : (
          <UploadIcon className="size-5 shrink-0 text-muted-foreground" aria-hidden />
        )}
        <div>
          <p className={cn("font-medium", large ? "text-lg" : "text-sm")}>
            {large ? "Drop PDFs here to start your library" : "Drop PDFs here, or choose files to add"}
          </p>
          <p id={hintId} className="text-muted-foreground text-sm">
            Research papers as PDF, up to {formatBytes(maxUploadBytes)} each. Several at once is fine.
          </p>
        </div>
      </div>
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        accept="application/pdf,.pdf"
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        data-testid="upload-input"
        onChange={(e) => {
          const files = Array.from(e.currentTarget.files ?? []);
          // reset, so choosing the same file again still fires a change
          e.currentTarget.value = "";
          if (files.length) onFiles(files);
        }}
      />
      <Button
        size={large ? "lg" : "default"}
        onClick={() => inputRef.current?.click()}
        aria-describedby={hintId}
        data-testid="upload-button"
      >
        <UploadIcon />
        Choose PDFs
      </Button>
    </section>
  );
}
