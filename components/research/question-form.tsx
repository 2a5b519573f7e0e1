"use client";

import { ArrowUpIcon, SparklesIcon } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Textarea } from "@/components/ui/textarea";
import { LIMIT_MESSAGES, LIMITS } from "@/lib/research/limits";

const MAX_QUESTION_CHARS = LIMITS.questionChars;

/** What is wrong with a question before it is sent (the server checks again, and more). */
export function questionProblem(question: string): string | null {
  const q = question.trim();
  if (!q) return LIMIT_MESSAGES.emptyQuestion;
  if (q.length > MAX_QUESTION_CHARS) return LIMIT_MESSAGES.questionTooLong(q.length);
  return null;
}

/** The question box: Enter asks, Shift+Enter starts a new line; examples from the library ask at a click. */
export function QuestionForm({
  onAsk,
  examples,
  showExamples,
  busy,
  testIdPrefix = "research",
  placeholder = "Ask a question about your papers…",
  submitLabel,
}: {
  onAsk: (question: string) => void;
  examples: readonly string[];
  showExamples: boolean;
  /** A run is in flight: asking replaces it. */
  busy: boolean;
  /** Prefix of the test ids (`research-question`, …): another form on the same page (deep research) has its own. */
  testIdPrefix?: string;
  placeholder?: string;
  /** The submit button's text (default: Ask, or Ask instead while a run is in flight). */
  submitLabel?: string;
}) {
  const [question, setQuestion] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const length = question.trim().length;

  const ask = (text: string) => {
    const p = questionProblem(text);
    setProblem(p);
    if (p) return;
    onAsk(text.trim());
    // the question now heads the run below; the box is ready for the next one
    setQuestion("");
  };

  return (
    <div className="space-y-3">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          ask(question);
        }}
        className={cn(
          "rounded-xl border bg-card shadow-xs transition-[box-shadow,border-color] focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/50",
          problem && "border-destructive",
        )}
        data-testid={`${testIdPrefix}-form`}
      >
        <label htmlFor={id} className="sr-only">
          Your question
        </label>
        <Textarea
          id={id}
          value={question}
          onChange={(e) => {
            setQuestion(e.target.value);
            if (problem) setProblem(null);
          }}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              ask(question);
            }
          }}
          placeholder={placeholder}
          rows={2}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-hint${problem ? ` ${id}-problem` : ""}`}
          className="max-h-64 min-h-16 resize-none border-0 bg-transparent px-4 pt-3 shadow-none focus-visible:ring-0 dark:bg-transparent"
          data-testid={`${testIdPrefix}-question`}
        />
        <div className="flex items-center justify-between gap-3 px-3 pb-2.5">
          <p id={`${id}-hint`} className="text-muted-foreground text-xs">
            <kbd className="font-sans">Enter</kbd> to ask · <kbd className="font-sans">Shift</kbd>+
            <kbd className="font-sans">Enter</kbd> for a new line
            {length > MAX_QUESTION_CHARS * 0.8 && (
              <span className={cn("ml-2 tabular-nums", length > MAX_QUESTION_CHARS && "text-destructive")}>
                {length.toLocaleString("en")} / {MAX_QUESTION_CHARS.toLocaleString("en")}
              </span>
            )}
          </p>
          <Button type="submit" size="sm" data-testid={`${testIdPrefix}-ask`}>
            <ArrowUpIcon />
            {submitLabel ?? (busy ? "Ask instead" : "Ask")}
          </Button>
        </div>
      </form>
      {problem && (
        <p
          id={`${id}-problem`}
          role="alert"
          className="text-destructive text-sm"
          data-testid={`${testIdPrefix}-question-problem`}
        >
          {problem}
        </p>
      )}
      {showExamples && examples.length > 0 && (
        <div className="space-y-1.5" data-testid={`${testIdPrefix}-examples`}>
          <p className="flex items-center gap-1.5 text-muted-foreground text-xs">
            <SparklesIcon className="size-3.5" aria-hidden />
            From your library
          </p>
          <ul className="flex flex-col gap-1.5 sm:flex-row sm:flex-wrap">
            {examples.map((q) => (
              <li key={q}>
                <button
                  type="button"
                  onClick={() => ask(q)}
                  className="w-full rounded-lg border bg-background px-3 py-1.5 text-left text-sm outline-none transition-colors hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:w-auto"
                  data-testid={`${testIdPrefix}-example`}
                >
                  {q}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
