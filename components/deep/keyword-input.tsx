"use client";

import { XIcon } from "lucide-react";
import { useId, useRef, useState } from "react";
import { cn } from "@/components/ui/cn";
import { keywordProblem, MAX_KEYWORDS } from "./outline-state";

/**
 * Keywords as chips: Enter (or a comma) adds what was typed, Backspace in the empty field removes the last chip, ×
 * removes one. Text left in the field is added when the field loses focus, so nothing typed is lost.
 */
export function KeywordInput({
  keywords,
  onAdd,
  onRemove,
  invalid,
  describedBy,
  label,
  disabled,
  standIn = false,
}: {
  keywords: readonly string[];
  onAdd: (keyword: string) => void;
  /** Index of the keyword to remove; -1 is the last. */
  onRemove: (index: number) => void;
  invalid?: boolean;
  describedBy?: string;
  /** Accessible name of the text field, e.g. `Keywords of “Dense retrieval”`. */
  label: string;
  disabled?: boolean;
  /** The keywords only stand in for the researcher's own (taken from the topic): the first one added replaces them,
   *  so what is typed is checked against none of them. */
  standIn?: boolean;
}) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();

  const commit = () => {
    if (!text.trim()) return;
    const p = keywordProblem(standIn ? [] : keywords, text);
    if (p) {
      setProblem(p);
      return;
    }
    onAdd(text);
    setText("");
    setProblem(null);
  };

  return (
    <div className="space-y-1">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a click on the chip row focuses its text field (the field itself is the keyboard target) */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: as above */}
      <div
        className={cn(
          "flex min-h-9 w-full flex-wrap items-center gap-1.5 rounded-md border border-input bg-transparent px-2 py-1.5 text-sm shadow-xs transition-[color,box-shadow] focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/50 dark:bg-input/30",
          invalid && "border-destructive",
          disabled && "opacity-50",
        )}
        onClick={(e) => {
          if (e.target === e.currentTarget) input.current?.focus();
        }}
      >
        <ul className="contents" aria-label="Keywords">
          {keywords.map((k, i) => (
            <li
              key={`${i}-${k}`}
              className="inline-flex max-w-full items-center gap-0.5 rounded-md bg-secondary py-0.5 pr-0.5 pl-2 text-secondary-foreground text-xs"
              data-testid="outline-keyword"
            >
              <span className="truncate">{k}</span>
              <button
                type="button"
                onClick={() => {
                  onRemove(i);
                  input.current?.focus();
                }}
                disabled={disabled}
                className="rounded-sm p-0.5 text-muted-foreground outline-none hover:bg-background/60 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring/50"
                aria-label={`Remove the keyword “${k}”`}
                data-testid="outline-keyword-remove"
                data-focus-key={`keyword-remove-${i}`}
              >
                <XIcon className="size-3" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
        <input
          ref={input}
          value={text}
          disabled={disabled}
          onChange={(e) => {
            const value = e.target.value;
            if (problem) setProblem(null);
            // a typed or pasted comma adds what came before it
            if (value.includes(",")) {
              const parts = value.split(",");
              const tail = parts.pop() ?? "";
              const head = parts.join(",");
              if (head.trim()) onAdd(head);
              setText(tail.trimStart());
              return;
            }
            setText(value);
          }}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.nativeEvent.isComposing) {
              e.preventDefault();
              commit();
            } else if (e.key === "Backspace" && text === "" && keywords.length > 0) {
              e.preventDefault();
              onRemove(-1);
            }
          }}
          onBlur={() => {
            if (text.trim()) commit();
          }}
          placeholder={
            keywords.length === 0 ? "Type a keyword, Enter to add" : keywords.length < MAX_KEYWORDS ? "Add…" : ""
          }
          aria-label={label}
          aria-invalid={invalid || problem ? true : undefined}
          aria-describedby={[describedBy, problem ? hintId : null].filter(Boolean).join(" ") || undefined}
          className="min-w-24 flex-1 bg-transparent py-0.5 outline-none placeholder:text-muted-foreground"
          data-testid="outline-keyword-input"
          data-focus-key="keyword-input"
        />
      </div>
      {problem && (
        <p id={hintId} className="text-destructive text-xs" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
