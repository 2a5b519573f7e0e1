"use client";

import { ArrowUpIcon, GlobeIcon, SparklesIcon } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { useHydrated } from "@/components/ui/use-hydrated";
import { LIMIT_MESSAGES, LIMITS } from "@/lib/research/limits";
import type { AskOptions, WebSearchAvailability } from "./types";

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
  web,
  initialQuestion = "",
  onQuestionChange,
}: {
  onAsk: (question: string, options?: AskOptions) => void;
  examples: readonly string[];
  showExamples: boolean;
  /** A run is in flight: asking replaces it. */
  busy: boolean;
  /** Prefix of the test ids (`research-question`, …): another form on the same page (deep research) has its own. */
  testIdPrefix?: string;
  placeholder?: string;
  /** The submit button's text (default: Ask, or "Stop the run and ask" while a run is in flight: asking cancels it). */
  submitLabel?: string;
  /** Web search: a "search the web too" switch when a provider is configured, else how to enable it (if given). */
  web?: WebSearchAvailability;
  /** The text the box starts with (a question typed before, kept while the researcher was on another page). */
  initialQuestion?: string;
  /** Told the text as typed (and "" once it is asked), for a draft to be kept. */
  onQuestionChange?: (question: string) => void;
}) {
  const hydrated = useHydrated();
  const [question, setQuestionState] = useState(initialQuestion);
  const setQuestion = (text: string) => {
    setQuestionState(text);
    onQuestionChange?.(text);
  };
  const [searchWeb, setSearchWeb] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const length = question.trim().length;

  const ask = (text: string) => {
    const p = questionProblem(text);
    setProblem(p);
    if (p) return;
    onAsk(text.trim(), web?.available ? { web: searchWeb } : undefined);
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
          data-hydrated={hydrated || undefined}
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
            {submitLabel ?? (busy ? "Stop the run and ask" : "Ask")}
          </Button>
        </div>
      </form>
      {web && <WebSearchToggle web={web} checked={searchWeb} onChange={setSearchWeb} testIdPrefix={testIdPrefix} />}
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

/** "Search the web too": on asks the plan to search the web whatever the library holds; off leaves it to the plan. */
function WebSearchToggle({
  web,
  checked,
  onChange,
  testIdPrefix,
}: {
  web: WebSearchAvailability;
  checked: boolean;
  onChange: (on: boolean) => void;
  testIdPrefix: string;
}) {
  const id = useId();
  if (!web.available) {
    // only the owner is told how to set it up (app/(research)/research/data.ts); the others see nothing
    if (!web.howToEnable) return null;
    return (
      <p className="flex items-start gap-1.5 text-muted-foreground text-xs" data-testid={`${testIdPrefix}-web-off`}>
        <GlobeIcon className="mt-px size-3.5 shrink-0" aria-hidden />
        {web.howToEnable}
      </p>
    );
  }
  return (
    <div className="flex items-center gap-2 text-sm" data-testid={`${testIdPrefix}-web`}>
      <Switch id={id} checked={checked} onCheckedChange={onChange} data-testid={`${testIdPrefix}-web-toggle`} />
      <label htmlFor={id} className="flex items-center gap-1.5">
        <GlobeIcon className="size-3.5 text-muted-foreground" aria-hidden />
        Search the web too
      </label>
      <span className="text-muted-foreground text-xs">
        ({web.provider}
        {web.mode === "auto" ? "; otherwise only when the library falls short or you ask for recent work" : ""}. The
        question is sent to it; pages found are read.)
      </span>
    </div>
  );
}
