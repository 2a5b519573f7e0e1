"use client";

import { CheckIcon, SplitIcon, XIcon } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useId, useState, useTransition } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { Result } from "@/lib/errors";
import { TIER_B_LINK } from "@/lib/graph/alias-thresholds";
import { EdgeEvidence } from "./edge-evidence";
import { entityHref } from "./filters";
import type { AliasLinkView, AliasSuggestionView, ReviewActions, ReviewEdge } from "./types";

const UNREACHABLE = {
  ok: false,
  error: { code: "unavailable:run", message: "Could not reach the server. Is Lectern still running?" },
} as const;

/** Runs an action; its error message (or null) and whether it is running. Refreshes the page's data on success. */
function useDecision() {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const run = <T,>(action: () => Promise<Result<T>>, onDone?: () => void) => {
    setError(null);
    startTransition(async () => {
      const r = await action().catch(() => UNREACHABLE);
      if (!r.ok) {
        setError(r.error.message);
        return;
      }
      onDone?.();
      router.refresh();
    });
  };
  return { pending, error, run };
}

function ErrorLine({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="text-destructive text-sm" data-testid="review-error">
      {error}
    </p>
  ) : null;
}

function ReviewEdgeItem({
  edge,
  actions,
  maxReasonChars,
}: {
  edge: ReviewEdge;
  actions: ReviewActions | null;
  maxReasonChars: number;
}) {
  const { pending, error, run } = useDecision();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState("");
  const reasonId = useId();
  const reject = (e: FormEvent) => {
    e.preventDefault();
    if (!actions) return;
    run(() => actions.reviewEdge({ id: edge.id, decision: "reject", reason }));
  };
  return (
    <li className="space-y-3 rounded-lg border p-3" data-testid="review-edge" data-edge-id={edge.id}>
      <EdgeEvidence edge={edge} headingLevel={3} />
      {edge.reason && (
        <p className="text-sm">
          <span className="text-muted-foreground">In review because: </span>
          {edge.reason}
        </p>
      )}
      {actions && (
        <div className="space-y-2">
          {!rejecting ? (
            <div className="flex flex-wrap gap-2">
              <Button
                size="sm"
                disabled={pending}
                onClick={() => run(() => actions.reviewEdge({ id: edge.id, decision: "accept" }))}
                data-testid="review-accept"
              >
                <CheckIcon aria-hidden />
                Accept
              </Button>
              <Button
                size="sm"
                variant="outline"
                disabled={pending}
                onClick={() => setRejecting(true)}
                data-testid="review-reject"
              >
                <XIcon aria-hidden />
                Reject…
              </Button>
            </div>
          ) : (
            <form onSubmit={reject} className="flex flex-wrap items-end gap-2" data-testid="review-reject-form">
              <div className="min-w-64 flex-1 space-y-1">
                <label htmlFor={reasonId} className="block text-muted-foreground text-xs">
                  Why is this edge wrong?
                </label>
                <Input
                  id={reasonId}
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                  maxLength={maxReasonChars}
                  placeholder="e.g. the quote says the opposite"
                  autoFocus
                  required
                  data-testid="review-reason"
                />
              </div>
              <Button
                type="submit"
                size="sm"
                variant="destructive"
                disabled={pending || !reason.trim()}
                data-testid="review-reject-confirm"
              >
                Reject
              </Button>
              <Button type="button" size="sm" variant="ghost" disabled={pending} onClick={() => setRejecting(false)}>
                Cancel
              </Button>
            </form>
          )}
          <ErrorLine error={error} />
        </div>
      )}
    </li>
  );
}

/**
 * Whether a proposal is strong enough for "Same entity" to be the filled, first-choice button. Every pair here fell
 * short of being linked on its own (lib/graph/resolve.ts): strong only when its names' vectors are as alike as those
 * of a pair linked without review (≥ TIER_B_LINK) *and* the names are one written two ways — the same letters and
 * digits apart from spaces, hyphens and a plural ending ("ResNet", "ResNets"; "Self-Refine", "Self Refine"). Vectors of
 * short names say little ("G-Eval" and "IF-Eval" come out alike at 1.000). A weaker one shows both answers alike, so
 * that the reviewer is not nudged into merging names the evidence barely ties.
 */
export function isStrongSuggestion(
  s: Pick<AliasSuggestionView, "similarity"> & { entity?: { name: string }; candidate?: { name: string } },
): boolean {
  if (s.similarity === null || s.similarity < TIER_B_LINK) return false;
  if (!s.entity || !s.candidate) return false;
  // (a plural is a lower-case "s" run on to the name: "ResNets", not "Codex-S")
  const bare = (n: string) => n.replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  const [a, b] = [bare(s.entity.name), bare(s.candidate.name)].sort((x, y) => x.length - y.length) as [string, string];
  const joined = (n: string) => n.replace(/ /g, "").toLowerCase();
  return (
    a !== "" &&
    (joined(a) === joined(b) || b === `${a}s` || b === `${a}es` || b.replace(/ /g, "") === `${a.replace(/ /g, "")}s`)
  );
}

function SuggestionItem({ s, actions }: { s: AliasSuggestionView; actions: ReviewActions | null }) {
  const { pending, error, run } = useDecision();
  const strong = isStrongSuggestion(s);
  return (
    <li
      className="space-y-2 rounded-lg border p-3"
      data-testid="review-suggestion"
      data-strength={strong ? "strong" : "weak"}
    >
      <p className="text-sm">
        Is{" "}
        <Link href={entityHref(s.entity.name)} className="font-medium text-primary hover:underline">
          {s.entity.name}
        </Link>{" "}
        <span className="text-muted-foreground">({s.entity.type})</span> the same as{" "}
        <Link href={entityHref(s.candidate.name)} className="font-medium text-primary hover:underline">
          {s.candidate.name}
        </Link>{" "}
        <span className="text-muted-foreground">({s.candidate.type})</span>?
      </p>
      <p className="text-muted-foreground text-xs">{s.reason}</p>
      {actions && (
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant={strong ? "default" : "outline"}
            disabled={pending}
            onClick={() => run(() => actions.decideSuggestion({ id: s.id, decision: "confirm" }))}
            data-testid="suggestion-confirm"
          >
            <CheckIcon aria-hidden />
            Same entity
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={pending}
            onClick={() => run(() => actions.decideSuggestion({ id: s.id, decision: "reject" }))}
            data-testid="suggestion-reject"
          >
            <XIcon aria-hidden />
            Different entities
          </Button>
        </div>
      )}
      <ErrorLine error={error} />
    </li>
  );
}

function LinkItem({ link, actions }: { link: AliasLinkView; actions: ReviewActions | null }) {
  const { pending, error, run } = useDecision();
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2"
      data-testid="review-alias-link"
    >
      <span className="text-sm">
        <span className="font-medium">{link.entity.name}</span>
        <span className="text-muted-foreground"> is an alias of </span>
        <Link href={entityHref(link.root.name)} className="font-medium text-primary hover:underline">
          {link.root.name}
        </Link>
        {link.tier && (
          <Badge variant="outline" className="ml-2" title={link.reason ?? undefined}>
            {link.tier === "manual" ? "confirmed" : `tier ${link.tier}`}
          </Badge>
        )}
        {link.reason && <span className="block text-muted-foreground text-xs">{link.reason}</span>}
      </span>
      {actions && (
        <Button
          size="sm"
          variant="outline"
          disabled={pending}
          onClick={() => run(() => actions.splitAlias({ entityId: link.entity.id }))}
          aria-label={`Split ${link.entity.name} from ${link.root.name}`}
          data-testid="alias-split"
        >
          <SplitIcon aria-hidden />
          Split
        </Button>
      )}
      <ErrorLine error={error} />
    </li>
  );
}

/**
 * /graph/review: edges below the confidence bar (accept, or reject with a reason), alias pairs proposed (confirm or
 * reject) and alias links in force (split). `actions` null: this role may look, not decide.
 */
export function ReviewQueue({
  edges,
  suggestions,
  links,
  actions,
  maxReasonChars,
}: {
  edges: readonly ReviewEdge[];
  suggestions: readonly AliasSuggestionView[];
  links: readonly AliasLinkView[];
  actions: ReviewActions | null;
  maxReasonChars: number;
}) {
  return (
    <div className="space-y-8" data-testid="review-page">
      <header className="space-y-1">
        <Link href="/graph" className="text-muted-foreground text-sm hover:text-foreground">
          ← Knowledge graph
        </Link>
        <h1 className="font-semibold text-2xl tracking-tight">Review queue</h1>
        <p className="text-muted-foreground text-sm">
          Edges the checks were not sure of stay out of the graph until someone accepts them; a rejected edge stays out,
          also when its paper is read again. Alias decisions are kept the same way.
        </p>
        {!actions && (
          <p className="text-sm" data-testid="review-read-only">
            Your role may look at the queue; an owner or member decides.
          </p>
        )}
      </header>

      <section aria-labelledby="review-edges" className="space-y-3">
        <h2 id="review-edges" className="font-medium">
          Edges in review <span className="text-muted-foreground">({edges.length})</span>
        </h2>
        {edges.length === 0 ? (
          <p className="text-muted-foreground text-sm" data-testid="review-edges-empty">
            Nothing waits for review.
          </p>
        ) : (
          <ul className="grid gap-3 lg:grid-cols-2">
            {edges.map((e) => (
              <ReviewEdgeItem key={e.id} edge={e} actions={actions} maxReasonChars={maxReasonChars} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="review-suggestions" className="space-y-3">
        <h2 id="review-suggestions" className="font-medium">
          Proposed aliases <span className="text-muted-foreground">({suggestions.length})</span>
        </h2>
        {suggestions.length === 0 ? (
          <p className="text-muted-foreground text-sm">No alias waits for a decision.</p>
        ) : (
          <ul className="grid gap-3 lg:grid-cols-2">
            {suggestions.map((s) => (
              <SuggestionItem key={s.id} s={s} actions={actions} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="review-links" className="space-y-3">
        <h2 id="review-links" className="font-medium">
          Alias links <span className="text-muted-foreground">({links.length})</span>
        </h2>
        {links.length === 0 ? (
          <p className="text-muted-foreground text-sm">No names are linked.</p>
        ) : (
          <ul className="space-y-2">
            {links.map((l) => (
              <LinkItem key={l.entity.id} link={l} actions={actions} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
