"use client";

import { LoaderIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { Result } from "@/lib/errors";

export interface AuthField {
  name: string;
  label: string;
  type: "email" | "text" | "password";
  autoComplete: string;
  hint?: string;
  defaultValue?: string;
  readOnly?: boolean;
}

/**
 * The sign-in, owner-setup and invite forms: labelled fields, one submit, the server's message under the form (and
 * the field it names marked invalid and focused). On success the page goes where `next` says and re-renders.
 */
export function AuthForm({
  title,
  description,
  fields,
  submitLabel,
  submit,
  next,
  testId,
}: {
  title: string;
  description?: string;
  fields: AuthField[];
  submitLabel: string;
  submit: (values: Record<string, string>) => Promise<Result<{ next: string }>>;
  next?: string;
  testId: string;
}) {
  const id = useId();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const hydrated = useHydrated();
  const [problem, setProblem] = useState<{ message: string; field?: string } | null>(null);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values = Object.fromEntries(fields.map((f) => [f.name, String(new FormData(form).get(f.name) ?? "")]));
    startTransition(async () => {
      const result: Result<{ next: string }> = await submit(values).catch(() => ({
        ok: false,
        error: { code: "unavailable:session", message: "Could not reach the server. Try again." },
      }));
      if (!result.ok) {
        setProblem({ message: result.error.message, field: result.error.field });
        const bad = result.error.field && form.elements.namedItem(result.error.field);
        if (bad instanceof HTMLInputElement) bad.focus();
        return;
      }
      setProblem(null);
      router.replace(next ?? result.data.next);
      router.refresh();
    });
  };

  return (
    <section className="mx-auto mt-10 w-full max-w-sm space-y-6" data-testid={testId}>
      <header className="space-y-1.5">
        <h1 className="font-semibold text-2xl tracking-tight">{title}</h1>
        {description && <p className="text-muted-foreground text-sm">{description}</p>}
      </header>
      {/* Until React owns the form the button is disabled, and a submit would be a POST: never a GET that puts the
          password in the address bar, the history and the server's logs. */}
      <form className="space-y-4" method="post" onSubmit={onSubmit} noValidate>
        {fields.map((f) => (
          <div key={f.name} className="space-y-1.5">
            <Label htmlFor={`${id}-${f.name}`}>{f.label}</Label>
            <Input
              id={`${id}-${f.name}`}
              name={f.name}
              type={f.type}
              autoComplete={f.autoComplete}
              defaultValue={f.defaultValue}
              readOnly={f.readOnly}
              required
              aria-invalid={problem?.field === f.name || undefined}
              aria-describedby={f.hint ? `${id}-${f.name}-hint` : undefined}
              data-testid={`auth-${f.name}`}
            />
            {f.hint && (
              <p id={`${id}-${f.name}-hint`} className="text-muted-foreground text-xs">
                {f.hint}
              </p>
            )}
          </div>
        ))}
        {problem && (
          <Alert variant="destructive" data-testid="auth-error">
            <AlertDescription role="alert">{problem.message}</AlertDescription>
          </Alert>
        )}
        <Button type="submit" className="w-full" disabled={pending || !hydrated} data-testid="auth-submit">
          {pending && <LoaderIcon className="animate-spin motion-reduce:animate-none" aria-hidden />}
          {submitLabel}
        </Button>
      </form>
    </section>
  );
}
