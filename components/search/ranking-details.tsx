import type * as React from "react";
import { cn } from "@/components/ui/cn";
import type { Ranking } from "./types";

/** Relevance as a whole percentage (the calibrated score the cutoff is compared with). */
export function formatRelevance(relevance: number): string {
  return `${Math.round(Math.max(0, Math.min(1, relevance)) * 100)}%`;
}

function Item({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
  return (
    <div className="flex items-center gap-1" data-testid={testId}>
      <dt>{label}</dt>
      <dd className="flex items-center gap-1 text-foreground/85 tabular-nums">{children}</dd>
    </div>
  );
}

/**
 * Why a result ranked: its calibrated relevance, shown; each retriever's rank and own score and the fused (RRF) score
 * behind a disclosure (a researcher reads the relevance; the raw scores are there for whoever asks why). A retriever
 * that did not return the passage among its candidates shows a dash; the best-sentence ranking, which only questions
 * asking for a fact get, is shown only when it ran.
 */
export function RankingDetails({ ranking, className }: { ranking: Ranking; className?: string }) {
  const { fts, proximity, vector, sentence } = ranking;
  const relevance = Math.max(0, Math.min(1, ranking.relevance));
  return (
    <div
      className={cn("flex flex-wrap items-start gap-x-3.5 gap-y-1 text-muted-foreground text-xs", className)}
      data-testid="ranking"
    >
      <dl className="flex items-center">
        <Item label="Relevance" testId="ranking-relevance">
          <span className="h-1.5 w-10 overflow-hidden rounded-full bg-primary/15" aria-hidden>
            <span className="block h-full rounded-full bg-primary/70" style={{ width: `${relevance * 100}%` }} />
          </span>
          {formatRelevance(relevance)}
        </Item>
      </dl>
      <details className="group" data-testid="ranking-why">
        <summary className="cursor-pointer select-none rounded-sm outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50">
          Why here
        </summary>
        <dl className="mt-1 flex flex-wrap items-center gap-x-3.5 gap-y-1" aria-label="Why this result ranked here">
          <Item label="Full text" testId="ranking-fts">
            {fts ? `#${fts.rank} · BM25 ${fts.score.toFixed(2)}` : "—"}
          </Item>
          <Item label="Proximity" testId="ranking-proximity">
            {proximity ? `#${proximity.rank} · cover ${proximity.score.toFixed(3)}` : "—"}
          </Item>
          <Item label="Vector" testId="ranking-vector">
            {vector ? `#${vector.rank} · cosine ${vector.score.toFixed(3)}` : "—"}
          </Item>
          {/* only questions asking for a fact are ranked by their passages' best sentence */}
          {sentence && (
            <Item label="Best sentence" testId="ranking-sentence">
              {`#${sentence.rank} · BM25 ${sentence.score.toFixed(2)}`}
            </Item>
          )}
          <Item label="Fused" testId="ranking-fused">
            {ranking.score.toFixed(4)}
          </Item>
        </dl>
      </details>
    </div>
  );
}
