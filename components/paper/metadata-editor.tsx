"use client";

import { CircleAlertIcon } from "lucide-react";
import { useEffect, useId, useRef, useState, useTransition } from "react";
import type { ApiResult } from "@/components/library/types";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { editOf, formValuesOf, type MetadataFormValues } from "./metadata-form";
import type { PaperDetailView } from "./types";

export type SaveMetadata = (id: string, edit: unknown) => Promise<ApiResult<{ changed: string[] }>>;

function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: React.ReactNode }) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-muted-foreground text-xs">
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * Corrects a paper's metadata. Esc cancels, Ctrl/⌘+Enter saves; the server names what is wrong, and the form keeps
 * what was typed until it is saved or cancelled.
 */
export function MetadataEditor({
  paper,
  save,
  onSaved,
  onCancel,
}: {
  paper: PaperDetailView;
  save: SaveMetadata;
  onSaved: (changed: string[]) => void;
  onCancel: () => void;
}) {
  const uid = useId();
  const [values, setValues] = useState<MetadataFormValues>(() => formValuesOf(paper));
  const [error, setError] = useState<{ message: string; field: string | null } | null>(null);
  const [pending, startTransition] = useTransition();
  const titleRef = useRef<HTMLTextAreaElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    titleRef.current?.focus();
  }, []);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!error) return;
    // the field at fault when the server named one (the alert, read with it, says what is wrong), else the alert
    const input = error.field ? formRef.current?.querySelector<HTMLElement>(`[name="${error.field}"]`) : null;
    (input ?? errorRef.current)?.focus();
  }, [error]);

  const set = (key: keyof MetadataFormValues) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const value = e.target.value;
    setValues((v) => {
      const next = { ...v, [key]: value };
      // a date carries its year: keep the two in step
      if (key === "publishedDate" && /^\d{4}-\d{2}-\d{2}$/.test(value)) next.year = value.slice(0, 4);
      return next;
    });
  };

  const submit = (e?: React.FormEvent) => {
    e?.preventDefault();
    if (pending) return;
    setError(null);
    startTransition(async () => {
      const result = await save(paper.id, editOf(values)).catch(
        (): ApiResult<never> => ({
          ok: false,
          error: { code: "unavailable:database", message: "Could not reach the server. Is Lectern still running?" },
        }),
      );
      if (result.ok) onSaved(result.data.changed);
      else setError({ message: result.error.message, field: result.error.field ?? null });
    });
  };

  const id = (name: string) => `${uid}-${name}`;
  const errorId = id("error");
  /** aria props of the input for `field`: invalid and described by the error when the server blamed it. */
  const blame = (field: keyof MetadataFormValues, hint?: string) => {
    const invalid = error?.field === field;
    const describedBy = [invalid ? errorId : null, hint ?? null].filter(Boolean).join(" ");
    return { "aria-invalid": invalid || undefined, "aria-describedby": describedBy || undefined };
  };
  return (
    <form
      ref={formRef}
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key === "Escape" && !pending) {
          e.preventDefault();
          onCancel();
        } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          submit();
        }
      }}
      className="space-y-4 rounded-lg border bg-card p-4 text-sm"
      aria-label="Edit details"
      data-testid="metadata-editor"
    >
      {error && (
        <Alert variant="destructive" ref={errorRef} tabIndex={-1} data-testid="metadata-error">
          <CircleAlertIcon />
          <AlertDescription id={errorId}>{error.message}</AlertDescription>
        </Alert>
      )}
      <Field id={id("title")} label="Title">
        <Textarea
          ref={titleRef}
          id={id("title")}
          name="title"
          rows={2}
          required
          maxLength={500}
          value={values.title}
          onChange={set("title")}
          {...blame("title")}
          onKeyDown={(e) => {
            // a title is one line: Enter saves, as in a text field
            if (e.key === "Enter" && !e.shiftKey && !e.ctrlKey && !e.metaKey) {
              e.preventDefault();
              submit();
            }
          }}
        />
      </Field>
      <Field id={id("authors")} label="Authors" hint="One per line.">
        <Textarea
          id={id("authors")}
          name="authors"
          rows={Math.min(8, Math.max(2, values.authors.split("\n").length))}
          value={values.authors}
          onChange={set("authors")}
          {...blame("authors", `${id("authors")}-hint`)}
        />
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field id={id("date")} label="Published">
          <Input
            id={id("date")}
            name="publishedDate"
            type="date"
            value={values.publishedDate}
            onChange={set("publishedDate")}
            {...blame("publishedDate")}
          />
        </Field>
        <Field id={id("year")} label="Year">
          <Input
            id={id("year")}
            name="year"
            inputMode="numeric"
            placeholder="e.g. 2021"
            value={values.year}
            onChange={set("year")}
            {...blame("year")}
          />
        </Field>
      </div>
      <Field id={id("categories")} label="Categories" hint="arXiv categories, separated by commas: cs.CL, cs.LG.">
        <Input
          id={id("categories")}
          name="categories"
          value={values.categories}
          onChange={set("categories")}
          {...blame("categories", `${id("categories")}-hint`)}
        />
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field id={id("arxiv")} label="arXiv id">
          <Input
            id={id("arxiv")}
            name="arxivId"
            className="font-mono"
            placeholder="1706.03762v5"
            value={values.arxivId}
            onChange={set("arxivId")}
            {...blame("arxivId")}
          />
        </Field>
        <Field id={id("doi")} label="DOI">
          <Input
            id={id("doi")}
            name="doi"
            placeholder="10.18653/v1/N19-1423"
            value={values.doi}
            onChange={set("doi")}
            {...blame("doi")}
          />
        </Field>
      </div>
      <p className="text-muted-foreground text-xs">
        The paper keeps its id ({paper.id}), so answers that cite it stay valid. A new title is searchable as soon as it
        is saved; corrections are kept if a new version of the PDF replaces this one.
      </p>
      <div className="flex items-center justify-end gap-2">
        <Button type="button" variant="ghost" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending} data-testid="metadata-save">
          {pending ? "Saving…" : "Save"}
          <kbd className="hidden font-sans text-[10px] opacity-70 sm:inline">Ctrl+Enter</kbd>
        </Button>
      </div>
    </form>
  );
}
