import type { ContentResult, PaperResult } from "@/lib/search/search";
import type { EvidencePassage } from "./citations";
import type { StepSource } from "./types";

/** Pieces shared by the quick and the deep research runs. */

export function clip(s: string, n: number): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length <= n ? t : `${t.slice(0, n - 1)}…`;
}

export function paperSource(p: PaperResult): StepSource {
  const best = p.passages[0];
  return {
    id: p.paperId,
    type: "paper",
    title: p.title,
    paperId: p.paperId,
    page: best?.pages[0] ?? null,
    excerpt: clip(best?.text ?? "", 240),
    similarity: Math.round(p.relevance * 100) / 100,
  };
}

export function passageSource(r: ContentResult): StepSource {
  return {
    id: r.chunkUid,
    type: "passage",
    title: r.title,
    paperId: r.paperId,
    page: r.page,
    excerpt: clip(r.text, 240),
    similarity: Math.round(r.relevance * 100) / 100,
    charStart: r.charStart,
    charEnd: r.charEnd,
    ...(r.section ? { section: r.section } : {}),
  };
}

export function toEvidence(r: ContentResult): EvidencePassage {
  return {
    chunkUid: r.chunkUid,
    paperId: r.paperId,
    title: r.title,
    page: r.page,
    charStart: r.charStart,
    charEnd: r.charEnd,
    text: r.text,
  };
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
