"use client";

import { CircleSlashIcon, ContrastIcon, TriangleAlertIcon } from "lucide-react";
import { memo, useMemo } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import type { PluggableList } from "unified";
import { remarkUntrustedLinks, untrustedLinkComponents } from "@/components/markdown/untrusted-links";
import { cn } from "@/components/ui/cn";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import type { Citation, Reference, Relevance } from "@/lib/research/types";
import { type MarkerCitation, resolveCitation, sameId, shortPaperId, stripReferencesSection } from "./citation-markers";
import { CITATION_ATTR, CLAIM_CITES_ATTR, CLAIM_TEXT_ATTR, decodeCites, remarkCitations } from "./remark-citations";
import { remarkWebCitations } from "./remark-web-citations";
import {
  NO_WEB_EVIDENCE,
  type RunWebEvidence,
  WEB_CITATION_ATTR,
  WEB_CLAIM_ATTR,
  WebCitationChip,
} from "./web-sources";

/** What the viewer needs to show a citation: the paper, the page, the passage to highlight. */
export interface CitationTarget {
  paperId: string;
  page: number;
  title: string;
  /** The cited passage's best sentence (highlighted); empty while the answer is streaming. */
  quote: string;
  claim: string;
  /** Null until verification has run. */
  supported: boolean | null;
  reason?: string;
  /** Does the claim bear on the question? Null until verification has judged it, and on runs made before it did. */
  relevance: Relevance | null;
  relevanceReason?: string;
}

/** What a chip adds to its accessible name for a claim that is not plainly relevant (off-topic ones are dropped). */
const RELEVANCE_NOTE: Record<Relevance, string | null> = {
  relevant: null,
  partly: "partly relevant to the question",
  off_topic: "off-topic for the question",
};

export function citationTarget(
  marker: MarkerCitation,
  claim: string,
  citations: readonly Citation[],
  references: readonly Reference[],
): CitationTarget {
  const c = resolveCitation(citations, marker, claim);
  const paperId = c?.paperId ?? marker.paperId;
  const ref = references.find((r) => sameId(r.paperId, paperId));
  return {
    paperId: ref?.paperId ?? paperId,
    page: c?.page ?? marker.page,
    title: ref?.title ?? paperId,
    quote: c?.quote ?? "",
    claim: c?.claim ?? claim,
    supported: c ? c.supported : null,
    ...(c?.reason ? { reason: c.reason } : {}),
    relevance: c?.relevance ?? null,
    ...(c?.relevanceReason ? { relevanceReason: c.relevanceReason } : {}),
  };
}

function CitationChip({
  target,
  onOpen,
}: {
  target: CitationTarget;
  onOpen: (t: CitationTarget, chip: HTMLElement) => void;
}) {
  const unsupported = target.supported === false;
  const relevance = target.relevance;
  // a claim that is not plainly about the question: a dashed outline and a small marker, named for screen readers
  const drifting = relevance === "partly" || relevance === "off_topic";
  const notes = [
    unsupported ? "claim not supported by this passage" : null,
    relevance ? RELEVANCE_NOTE[relevance] : null,
  ].filter((n): n is string => n !== null);
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          onClick={(e) => onOpen(target, e.currentTarget)}
          className={cn(
            "mx-0.5 inline-flex translate-y-[-1px] items-center gap-1 whitespace-nowrap rounded-md border px-1.5 py-px align-baseline font-medium text-[0.75em] leading-normal outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50",
            unsupported
              ? "border-warning/50 bg-warning/10 text-warning hover:bg-warning/20"
              : relevance === "off_topic"
                ? "border-muted-foreground/40 bg-muted text-muted-foreground hover:bg-accent"
                : "border-primary/25 bg-primary/5 text-primary hover:bg-primary/10",
            drifting && "border-dashed",
          )}
          aria-label={`Open ${target.title}, page ${target.page}${notes.length ? ` (${notes.join("; ")})` : ""}`}
          data-testid="citation-chip"
          data-paper-id={target.paperId}
          data-page={target.page}
          data-supported={target.supported === null ? "pending" : String(target.supported)}
          data-relevance={relevance ?? undefined}
        >
          {unsupported && <TriangleAlertIcon className="size-3" aria-hidden />}
          <span className="font-mono">{shortPaperId(target.paperId)}</span>
          <span className="opacity-75">p.&nbsp;{target.page}</span>
          {relevance === "partly" && (
            <ContrastIcon className="size-2.5 opacity-70" aria-hidden data-testid="citation-chip-partly" />
          )}
          {relevance === "off_topic" && <CircleSlashIcon className="size-2.5 opacity-70" aria-hidden />}
        </button>
      </TooltipTrigger>
      <TooltipContent className="max-w-sm text-left">
        <p className="font-medium">{target.title}</p>
        <p className="opacity-80">Page {target.page}</p>
        {unsupported && target.reason && <p className="mt-1">Not supported: {target.reason}</p>}
        {relevance === "partly" && (
          <p className="mt-1">Partly relevant{target.relevanceReason ? `: ${target.relevanceReason}` : ""}</p>
        )}
        {relevance === "off_topic" && (
          <p className="mt-1">Off-topic{target.relevanceReason ? `: ${target.relevanceReason}` : ""}</p>
        )}
      </TooltipContent>
    </Tooltip>
  );
}

/**
 * A claim whose citation did not hold up: underlined in amber, with the reason on hover (the chip after it, which
 * is focusable, says the same to keyboard and screen-reader users).
 */
function UnsupportedClaim({ children, reasons }: { children: React.ReactNode; reasons: string[] }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span
          className="underline decoration-2 decoration-warning decoration-wavy underline-offset-4"
          data-testid="unsupported-claim"
        >
          {children}
          <span className="sr-only"> (not supported by the cited passage{reasons[0] ? `: ${reasons[0]}` : ""})</span>
        </span>
      </TooltipTrigger>
      <TooltipContent className="max-w-sm text-left">
        <p className="font-medium">Not supported by the cited passage</p>
        {reasons.map((r, i) => (
          <p key={i} className="opacity-80">
            {r}
          </p>
        ))}
      </TooltipContent>
    </Tooltip>
  );
}

/** GFM, then the links and images of untrusted text, then the citation chips (in text, not in the links kept). */
const ANSWER_PLUGINS: PluggableList = [
  remarkGfm,
  [remarkUntrustedLinks, { policy: "https" }],
  remarkCitations,
  remarkWebCitations,
];

/**
 * The answer as markdown: headings, lists and tables; `[ID, page N]` as chips that open the cited page; unsupported
 * claims marked. The text is a model's (which read the papers) or the papers' own: raw HTML is not rendered, images
 * are never loaded, and only https links the model wrote stay links, showing their host (untrusted-links.tsx).
 */
export const AnswerMarkdown = memo(function AnswerMarkdown({
  markdown,
  citations,
  references,
  onOpenCitation,
  streaming,
  web = NO_WEB_EVIDENCE,
}: {
  markdown: string;
  citations: readonly Citation[];
  references: readonly Reference[];
  /** `chip`: the button clicked, for the sheet to give the focus back to when it closes. */
  onOpenCitation: (target: CitationTarget, chip: HTMLElement) => void;
  streaming: boolean;
  /** The run's web pages and checked `[W1]`… citations (lib/research/web.ts), drawn as web chips. */
  web?: RunWebEvidence;
}) {
  const components = useMemo<Components>(
    () => ({
      ...untrustedLinkComponents,
      span: ({ node: _node, children, ...props }) => {
        const attrs = props as Record<string, unknown>;
        const webId = attrs[WEB_CITATION_ATTR];
        if (typeof webId === "string") {
          const claim = typeof attrs[WEB_CLAIM_ATTR] === "string" ? (attrs[WEB_CLAIM_ATTR] as string) : "";
          return <WebCitationChip id={webId} claim={claim} evidence={web} />;
        }
        const cites = attrs[CITATION_ATTR];
        if (typeof cites === "string") {
          const claim = typeof attrs[CLAIM_TEXT_ATTR] === "string" ? (attrs[CLAIM_TEXT_ATTR] as string) : "";
          return (
            <>
              {decodeCites(cites).map((m, i) => (
                <CitationChip
                  key={i}
                  target={citationTarget(m, claim, citations, references)}
                  onOpen={onOpenCitation}
                />
              ))}
            </>
          );
        }
        const claimCites = attrs[CLAIM_CITES_ATTR];
        if (typeof claimCites === "string") {
          const claim = typeof children === "string" ? children : "";
          const resolved = decodeCites(claimCites).map((m) => resolveCitation(citations, m, claim));
          const failed = resolved.filter((c): c is Citation => c !== null && !c.supported);
          if (failed.length === 0) return <>{children}</>;
          return (
            <UnsupportedClaim
              reasons={[...new Set(failed.map((c) => c.reason ?? "The cited text does not state it."))]}
            >
              {children}
            </UnsupportedClaim>
          );
        }
        return <span {...props}>{children}</span>;
      },
    }),
    [citations, references, onOpenCitation, web],
  );
  return (
    <div
      className={cn(
        "prose-summary text-[0.95rem] [&_h2:first-child]:mt-0 [&_h2]:text-base [&_h3]:text-[0.95rem] [&_h3]:text-muted-foreground",
        // a caret after the last word while the answer is being written
        streaming &&
          "[&>*:last-child]:after:ml-0.5 [&>*:last-child]:after:animate-pulse [&>*:last-child]:after:content-['▍']",
      )}
      data-testid="research-answer-text"
    >
      <ReactMarkdown remarkPlugins={ANSWER_PLUGINS} components={components}>
        {stripReferencesSection(markdown)}
      </ReactMarkdown>
    </div>
  );
});
