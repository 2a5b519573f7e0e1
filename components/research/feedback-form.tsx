"use client";

import { CheckIcon, ThumbsDownIcon, ThumbsUpIcon } from "lucide-react";
import { useId, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Textarea } from "@/components/ui/textarea";
import type { Result } from "@/lib/errors";
import { LIMITS } from "@/lib/research/limits";
import type { FeedbackRating, RunFeedback } from "@/lib/research/types";
import type { ResearchActions } from "./types";

const labels: Record<FeedbackRating, string> = { helpful: "Helpful", not_helpful: "Not helpful" };

/**
 * Was the answer helpful? A click stores the rating at once; a comment can follow. The stored feedback is shown as
 * such and can be changed.
 */
export function FeedbackForm({
  runId,
  initial,
  send,
}: {
  runId: string;
  initial: RunFeedback | null;
  send: ResearchActions["feedback"];
}) {
  const [saved, setSaved] = useState<RunFeedback | null>(initial);
  const [rating, setRating] = useState<FeedbackRating | null>(initial?.rating ?? null);
  const [comment, setComment] = useState(initial?.comment ?? "");
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const commentId = useId();

  const submit = (next: FeedbackRating, text: string) => {
    setRating(next);
    setError(null);
    startTransition(async () => {
      const result = await send(runId, next, text.trim() || undefined).catch(
        (): Result<never> => ({
          ok: false,
          error: { code: "unavailable:run", message: "Could not reach the server. Is Lectern still running?" },
        }),
      );
      if (result.ok) setSaved(result.data);
      else setError(result.error.message);
    });
  };

  const commentChanged = (saved?.comment ?? "") !== comment.trim();

  return (
    <section
      aria-labelledby={`${commentId}-heading`}
      className="space-y-3 rounded-xl border bg-card px-4 py-3"
      data-testid="research-feedback"
      data-rating={saved?.rating ?? ""}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={`${commentId}-heading`} className="mr-1 font-medium text-sm">
          Was this answer helpful?
        </h2>
        {(["helpful", "not_helpful"] as const).map((r) => {
          const Icon = r === "helpful" ? ThumbsUpIcon : ThumbsDownIcon;
          const active = rating === r;
          return (
            <Button
              key={r}
              variant={active ? "secondary" : "outline"}
              size="sm"
              aria-pressed={active}
              disabled={pending}
              onClick={() => submit(r, comment)}
              className={cn(active && "ring-1 ring-ring/40")}
              data-testid={`feedback-${r}`}
            >
              <Icon />
              {labels[r]}
            </Button>
          );
        })}
        <p className="text-muted-foreground text-xs" role="status" data-testid="feedback-status">
          {pending ? (
            "Saving…"
          ) : saved ? (
            <span className="inline-flex items-center gap-1">
              <CheckIcon className="size-3.5 text-success" aria-hidden />
              Feedback saved: {labels[saved.rating].toLowerCase()}
              {saved.comment ? ", with a comment" : ""}.
            </span>
          ) : null}
        </p>
      </div>
      {rating && (
        <form
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            submit(rating, comment);
          }}
        >
          <label htmlFor={commentId} className="font-medium text-muted-foreground text-xs">
            Comment (optional)
          </label>
          <Textarea
            id={commentId}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            maxLength={LIMITS.feedbackCommentChars}
            rows={2}
            placeholder={rating === "helpful" ? "What was useful?" : "What was wrong or missing?"}
            className="min-h-14"
            data-testid="feedback-comment"
          />
          <Button
            type="submit"
            size="sm"
            variant="outline"
            disabled={pending || !commentChanged}
            data-testid="feedback-submit"
          >
            Save comment
          </Button>
        </form>
      )}
      {error && (
        <p role="alert" className="text-destructive text-sm" data-testid="feedback-error">
          {error}
        </p>
      )}
    </section>
  );
}
