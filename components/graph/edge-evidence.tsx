import { ExternalLinkIcon } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { evidenceHref, formatConfidence } from "./filters";
import { type GraphEdgeResult, RELATION_LABELS } from "./types";

/** One sentence of an edge: "DPR improves on BM25". */
export function EdgeClaim({ edge }: { edge: GraphEdgeResult }) {
  return (
    <span>
      <span className="font-medium">{edge.source.name}</span>{" "}
      <span className="text-muted-foreground">{RELATION_LABELS[edge.relation]}</span>{" "}
      <span className="font-medium">{edge.target.name}</span>
    </span>
  );
}

/**
 * An edge's evidence: the verbatim quote, the paper, page, confidence and extractor, and "Open", which shows the PDF at
 * that page with the quote highlighted.
 */
export function EdgeEvidence({
  edge,
  others = [],
  headingLevel = 2,
}: {
  edge: GraphEdgeResult;
  /** The same claim on the paper's other pages: each quote with its page and its own "Open". */
  others?: readonly GraphEdgeResult[];
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section aria-labelledby={`edge-${edge.id}-claim`} className="space-y-3" data-testid="edge-evidence">
      <Heading id={`edge-${edge.id}-claim`} className="text-sm leading-snug">
        <EdgeClaim edge={edge} />
      </Heading>
      <blockquote className="border-l-2 border-primary/60 pl-3 font-serif text-sm italic" data-testid="edge-quote">
        “{edge.quote}”
      </blockquote>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        <dt className="text-muted-foreground">Paper</dt>
        <dd data-testid="edge-paper">
          {edge.paper_title}
          {edge.year !== null && <span className="text-muted-foreground"> ({edge.year})</span>}
        </dd>
        <dt className="text-muted-foreground">Page</dt>
        <dd data-testid="edge-page">{edge.page}</dd>
        <dt className="text-muted-foreground">Confidence</dt>
        <dd>{formatConfidence(edge.confidence)}</dd>
        <dt className="text-muted-foreground">Extractor</dt>
        <dd>{edge.extractor === "rules" ? "rules (offline)" : edge.extractor}</dd>
        {(edge.source.as_written || edge.target.as_written) && (
          <>
            <dt className="text-muted-foreground">As written</dt>
            <dd>
              {edge.source.as_written ?? edge.source.name} → {edge.target.as_written ?? edge.target.name}
            </dd>
          </>
        )}
        {edge.status !== "accepted" && (
          <>
            <dt className="text-muted-foreground">Status</dt>
            <dd>
              <Badge variant="warning">{edge.status}</Badge>
            </dd>
          </>
        )}
      </dl>
      <Button asChild size="sm" variant="outline">
        <Link
          href={evidenceHref(edge)}
          data-testid="edge-open"
          aria-label={`Open page ${edge.page} of “${edge.paper_title}” with the quote highlighted`}
        >
          <ExternalLinkIcon aria-hidden />
          Open
        </Link>
      </Button>
      {others.length > 0 && (
        <div className="space-y-2 border-t pt-3" data-testid="edge-more">
          <p className="text-muted-foreground text-xs">
            The paper states it {others.length === 1 ? "once more" : `${others.length} more times`}:
          </p>
          <ul className="space-y-2">
            {others.map((o) => (
              <li key={o.id} className="space-y-1 text-xs" data-testid="edge-more-item">
                <blockquote className="border-l-2 border-muted pl-2 font-serif italic">“{o.quote}”</blockquote>
                <Link
                  href={evidenceHref(o)}
                  className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline"
                  aria-label={`Open page ${o.page} of “${o.paper_title}” with the quote highlighted`}
                >
                  <ExternalLinkIcon className="size-3" aria-hidden />
                  Page {o.page}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
