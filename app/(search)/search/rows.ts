import "server-only";
import type { PassageHit, Ranking, SummaryHit } from "@/components/search/types";
import type { ContentResult, PaperResult } from "@/lib/search/search";

function ranking(r: Ranking): Ranking {
  return {
    score: r.score,
    relevance: r.relevance,
    fts: r.fts,
    proximity: r.proximity ?? null,
    vector: r.vector,
    sentence: r.sentence ?? null,
  };
}

export function toPassageHit(r: ContentResult): PassageHit {
  return {
    ...ranking(r),
    chunkUid: r.chunkUid,
    paperId: r.paperId,
    title: r.title,
    year: r.year,
    page: r.page,
    charStart: r.charStart,
    charEnd: r.charEnd,
    section: r.section,
    bibliography: r.bibliography,
    text: r.text,
  };
}

export function toSummaryHit(r: PaperResult): SummaryHit {
  return {
    paperId: r.paperId,
    title: r.title,
    year: r.year,
    authors: r.authors,
    score: r.score,
    relevance: r.relevance,
    passages: r.passages.map((p) => ({ ...ranking(p), chunkUid: p.chunkUid, text: p.text, pages: p.pages })),
  };
}
