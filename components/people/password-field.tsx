"use client";

import { EyeIcon, EyeOffIcon, WandSparklesIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { generatePassword } from "@/lib/auth/generate-password";

/**
 * A password the owner chooses for someone else (to give them): typed, or generated — a generated one is shown, as
 * the owner has to pass it on. Show/Hide is a button beside the field, so the field stays a plain input for the form.
 */
export function PasswordField({
  id,
  label,
  hint,
  invalid,
  testId,
}: {
  id: string;
  label: string;
  hint: string;
  invalid: boolean;
  /** The input's data-testid; the buttons get `<testId>-generate` and `<testId>-show`. */
  testId: string;
}) {
  const [value, setValue] = useState("");
  const [shown, setShown] = useState(false);
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        <Button
          variant="ghost"
          size="sm"
          className="-my-1 h-7"
          onClick={() => {
            setValue(generatePassword());
            setShown(true);
          }}
          data-testid={`${testId}-generate`}
        >
          <WandSparklesIcon aria-hidden />
          Generate one
        </Button>
      </div>
      <div className="relative">
        <Input
          id={id}
          name="password"
          type={shown ? "text" : "password"}
          autoComplete="new-password"
          spellCheck={false}
          required
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-invalid={invalid || undefined}
          aria-describedby={`${id}-hint`}
          className="pr-10 font-mono"
          data-testid={testId}
        />
        <Button
          variant="ghost"
          size="icon-sm"
          className="absolute top-0.5 right-0.5"
          onClick={() => setShown((s) => !s)}
          aria-label={shown ? "Hide the password" : "Show the password"}
          aria-pressed={shown}
          data-testid={`${testId}-show`}
        >
          {shown ? <EyeOffIcon /> : <EyeIcon />}
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-muted-foreground text-xs">
        {hint}
      </p>
    </div>
  );
}
