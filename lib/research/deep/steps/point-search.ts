import type { Intent } from "@/lib/search/intent";
import { searchContent } from "@/lib/search/search";
import { pendingCard, type StepDefinition } from "../../lifecycle";
import { type RerankedResult, rerank } from "../../rerank";
import { passageSource } from "../../step-kit";
import type { SearchStepOf } from "../../types";
import type { KnowledgePoint } from "../types";

/** Candidates per point before re-ranking, and passages kept per point after it. */
export const POINT_CANDIDATES = 20;
export const POINT_KEEP = 10;

/** The search queries of a point: topic with keywords, keywords alone, the topic alone (deduplicated). */
export function pointQueries(point: KnowledgePoint): string[] {
  const kw = point.search_keywords.join(" ");
  return [
    ...new Set([`${point.topic} ${kw}`.trim(), kw, point.topic].map((q) => q.replace(/\s+/g, " ").trim())),
  ].filter((q) => q.length > 0);
}

export interface PointSearchInput {
  point: KnowledgePoint;
  intent: Intent;
  years: { yearFrom?: number; yearTo?: number };
}

/** One knowledge point's search: its queries fused over the library (within the outline's years), re-ranked. */
export const pointSearchStep: StepDefinition<
  SearchStepOf<"point">,
  PointSearchInput,
  RerankedResult[],
  KnowledgePoint
> = {
  card: (point) =>
    pendingCard<SearchStepOf<"point">>({
      id: `point_${point.id}`,
      type: "rag_search",
      stage: "point",
      title: `Searching: ${point.topic}`,
    }),
  async run(ctx, { point, intent, years }) {
    const queries = pointQueries(point);
    const results = await searchContent(ctx.deps.db, queries, ctx.deps.embedder, {
      k: POINT_CANDIDATES,
      mmrAlpha: 0.6,
      ...years,
    });
    const top = rerank(results, { intent, keywords: point.search_keywords }).slice(0, POINT_KEEP);
    return {
      result: top,
      patch: {
        title: `Searched: ${point.topic} (${top.length} passages)`,
        queries,
        sources: top.map(passageSource),
        reasoning: `${queries.length} queries from the topic and its keywords; ${results.length} candidates, re-ranked by keyword coverage, best ${top.length} kept.`,
        confidence: top.length > 0 ? Math.max(...top.map((r) => r.relevance)) : 0,
        data: { point: point.id, candidates: results.length, kept: top.length },
      },
    };
  },
};
