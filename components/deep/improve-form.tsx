"use client";

import { LoaderIcon, SparklesIcon } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Textarea } from "@/components/ui/textarea";
import { LIMIT_MESSAGES, LIMITS } from "@/lib/research/limits";

/** What is wrong with feedback before it is sent (the server checks the same). */
export function feedbackProblem(text: string): string | null {
  const t = text.trim();
  if (t.length < LIMITS.improveFeedback.minChars) return LIMIT_MESSAGES.improveTooShort;
  if (t.length > LIMITS.improveFeedback.maxChars) return LIMIT_MESSAGES.improveTooLong;
  return null;
}

/**
 * "Improve: add more on …": feedback on a finished run makes a new version, re-written with it (and with a new
 * knowledge point, and so new evidence, when it asks for something the outline does not cover).
 */
export function ImproveForm({
  onImprove,
  deep,
}: {
  /** Starts the improved version; resolves with why it could not start, or null. */
  onImprove: (feedback: string) => Promise<string | null>;
  /** The run has an outline (a quick answer gets one first). */
  deep: boolean;
}) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const id = useId();

  const submit = async () => {
    const p = feedbackProblem(text);
    setProblem(p);
    if (p) return;
    setPending(true);
    const error = await onImprove(text.trim());
    setPending(false);
    if (error) setProblem(error);
    else setText("");
  };

  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="space-y-2.5 rounded-xl border bg-card px-4 py-3"
      data-testid="deep-improve"
    >
      <div className="space-y-0.5">
        <h2 id={`${id}-heading`} className="flex items-center gap-1.5 font-medium text-sm">
          <SparklesIcon className="size-4 text-primary" aria-hidden />
          Improve this {deep ? "review" : "answer"}
        </h2>
        <p className="text-muted-foreground text-xs">
          Makes a new version{deep ? "" : " as a deep research run"}. Feedback that asks for something the outline does
          not cover adds a knowledge point, with new evidence for it.
        </p>
      </div>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        className="flex flex-col gap-2 sm:flex-row sm:items-start"
      >
        <label htmlFor={id} className="sr-only">
          What should be improved
        </label>
        <Textarea
          id={id}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (problem) setProblem(null);
          }}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void submit();
            }
          }}
          rows={1}
          placeholder="improve: add more on the mathematical foundations"
          disabled={pending}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          className={cn("min-h-9 flex-1 resize-none", problem && "border-destructive")}
          data-testid="deep-improve-input"
        />
        <Button type="submit" disabled={pending} data-testid="deep-improve-submit">
          {pending ? <LoaderIcon className="animate-spin motion-reduce:animate-none" /> : <SparklesIcon />}
          {pending ? "Starting…" : "Improve"}
        </Button>
      </form>
      {problem && (
        <p id={`${id}-problem`} role="alert" className="text-destructive text-sm" data-testid="deep-improve-problem">
          {problem}
        </p>
      )}
    </section>
  );
}
