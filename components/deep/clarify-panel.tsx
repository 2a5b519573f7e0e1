"use client";

import { ArrowRightIcon, CheckIcon, LoaderIcon, SkipForwardIcon } from "lucide-react";
import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import type { ClarifyingAnswer, ClarifyingQuestion, ClarifyPurpose } from "@/lib/research/deep/types";
import { LIMITS } from "@/lib/research/limits";
import { answerOf, chosenOptions, toggleOption } from "./clarify-answers";

const purposeLabels: Record<ClarifyPurpose, string> = {
  scope: "Scope",
  focus: "Focus",
  depth: "Depth",
  timerange: "Time range",
};

function QuestionField({
  question,
  position,
  value,
  onChange,
  disabled,
}: {
  question: ClarifyingQuestion;
  position: number;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
}) {
  const id = useId();
  const chosen = chosenOptions(question, value);
  return (
    <li
      className="space-y-2"
      data-testid="clarify-question"
      data-question-id={question.id}
      data-purpose={question.purpose}
      data-multiple={question.multiple ? "true" : undefined}
    >
      <div className="flex items-start gap-2">
        <span className="mt-px font-medium text-muted-foreground text-sm tabular-nums" aria-hidden>
          {position}.
        </span>
        <div className="min-w-0 flex-1 space-y-2">
          <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
            <label htmlFor={id} className="font-medium text-sm leading-snug" data-testid="clarify-question-text">
              {question.question}
            </label>
            <Badge variant="outline" className="font-normal text-muted-foreground">
              {purposeLabels[question.purpose]}
            </Badge>
            {question.multiple && question.options.length > 0 && (
              <span className="text-muted-foreground text-xs" data-testid="clarify-multiple">
                choose one or more
              </span>
            )}
          </div>
          {question.options.length > 0 && (
            <ul
              className="flex flex-wrap gap-1.5"
              aria-label={`Suggested answers to question ${position}${question.multiple ? " (choose one or more)" : ""}`}
            >
              {question.options.map((option) => {
                const on = chosen.includes(option);
                return (
                  <li key={option}>
                    <button
                      type="button"
                      aria-pressed={on}
                      disabled={disabled}
                      onClick={() => onChange(toggleOption(question, value, option))}
                      className={cn(
                        "inline-flex max-w-full items-center gap-1 rounded-full border px-3 py-1 text-left text-sm outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50",
                        on
                          ? "border-primary bg-primary text-primary-foreground"
                          : "bg-background hover:bg-accent hover:text-accent-foreground",
                      )}
                      data-testid="clarify-option"
                    >
                      {on && <CheckIcon className="size-3.5 shrink-0" aria-hidden />}
                      <span className="min-w-0 break-words">{option}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          <Input
            id={id}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            placeholder={
              question.options.length === 0
                ? "Your answer (optional)"
                : question.multiple
                  ? "…or add your own (separate answers with “;”)"
                  : "…or write your own answer"
            }
            maxLength={LIMITS.clarifyingAnswerChars}
            disabled={disabled}
            className="h-8"
            data-testid="clarify-answer"
          />
        </div>
      </div>
    </li>
  );
}

/**
 * The clarifying questions before the outline: each with suggested answers as chips (a chip fills in the answer,
 * which can then be edited; a question that takes several — which approaches to compare — has chips that each add or
 * take out their own option) and a field for a free answer. Unanswered questions are simply left out.
 */
export function ClarifyPanel({
  questions,
  onContinue,
  onSkip,
  busy,
  initialAnswers,
  onAnswersChange,
}: {
  questions: readonly ClarifyingQuestion[];
  onContinue: (answers: ClarifyingAnswer[]) => void;
  onSkip: () => void;
  /** The outline is being made. */
  busy: boolean;
  /** Answers typed before (kept while the researcher was on another page), by question id. */
  initialAnswers?: Readonly<Record<string, string>>;
  /** Told the answers as typed, for the planner to keep them. */
  onAnswersChange?: (answers: Record<string, string>) => void;
}) {
  const [answers, setAnswers] = useState<Record<string, string>>(() => ({ ...initialAnswers }));
  const answered = questions.filter((q) => answerOf(q, answers[q.id] ?? "")).length;
  return (
    <form
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        onContinue(questions.flatMap((q) => answerOf(q, answers[q.id] ?? "") ?? []));
      }}
      data-testid="clarify-panel"
    >
      <ol className="space-y-5">
        {questions.map((q, i) => (
          <QuestionField
            key={q.id}
            question={q}
            position={i + 1}
            value={answers[q.id] ?? ""}
            onChange={(value) => {
              const next = { ...answers, [q.id]: value };
              setAnswers(next);
              onAnswersChange?.(next);
            }}
            disabled={busy}
          />
        ))}
      </ol>
      <div className="flex flex-wrap items-center gap-2 border-t pt-4">
        <Button type="submit" disabled={busy} data-testid="clarify-continue">
          {busy ? <LoaderIcon className="animate-spin motion-reduce:animate-none" /> : <ArrowRightIcon />}
          {busy ? "Making the outline…" : "Continue to the outline"}
        </Button>
        <Button variant="ghost" onClick={onSkip} disabled={busy} data-testid="clarify-skip">
          <SkipForwardIcon />
          Skip
        </Button>
        <p className="text-muted-foreground text-xs" aria-live="polite">
          {answered} of {questions.length} answered · unanswered questions are left to the outline
        </p>
      </div>
    </form>
  );
}
