import type { LanguageModel } from "ai";
import { splitSentences } from "@/lib/ingest/chunk";
import type { Intent } from "@/lib/search/intent";
import { escapeMarkdown } from "@/lib/text/markdown";
import type { WebSearchConfig } from "@/lib/web/config";
import type { RobotsCache } from "@/lib/web/robots";
import {
  bestQuote,
  type EvidencePassage,
  judgeCitations,
  LEXICAL_SUPPORT_THRESHOLD,
  lexicalSupport,
} from "./citations";
import { absentSubjects, type PickedSentence, pickSentences, quotedBefore } from "./compose";
import type { Citation } from "./types";

/**
 * Web evidence for a research run: when the plan searches the web (and why), the pages' text as evidence the answer
 * may cite as `[W1]`, `[W2]`…, the offline composer's web sentences, and the check of each web citation against the
 * fetched text — the same word-overlap check (or model judge) paper citations get. The step modules are
 * ./steps/web-search.ts and ./steps/web-citations.ts.
 */

/** Web search as a research run has it: configured (a provider), and when the plan may choose it on its own. */
export interface WebResearch {
  config: WebSearchConfig & { provider: NonNullable<WebSearchConfig["provider"]> };
  robots: RobotsCache;
  /** auto: the plan adds web search for recent work and weak library evidence; on_request: only when asked. */
  mode: "auto" | "on_request";
}

/** A page the answer may cite, as stored with the run (no full text). */
export interface WebSource {
  /** `W1`, `W2`, … in the order the provider ranked them. */
  id: string;
  url: string;
  title: string;
  /** The host, shown on the chip. */
  site: string;
  /** The start of its main text. */
  excerpt: string;
  /** The arXiv id of a paper found on the web (arxiv.org/abs|pdf/…), offered for adding to the library. */
  arxivId: string | null;
  published: string | null;
}

/** A fetched page: the source and its main text (in memory for the run; only quotes are stored). */
export interface WebEvidence extends WebSource {
  text: string;
}

/** One `[Wn]` of the answer, checked against the page's fetched text. */
export interface WebCitation {
  index: number;
  marker: string;
  sourceId: string;
  url: string;
  title: string;
  claim: string;
  /** The page's sentence that best supports the claim. */
  quote: string;
  supported: boolean;
  support: number;
  reason?: string;
}

/** Why the plan searched the web. */
export type WebSearchReason = "asked" | "recent" | "no_papers" | "weak_evidence";

export const WEB_MARKER = /\[(W\d{1,2})\]/g;

export function hasWebCitations(markdown: string): boolean {
  return /\[W\d{1,2}\]/.test(markdown);
}

/** The question asks for recent work: what a library of papers may not have yet. */
export function asksForRecentWork(question: string): boolean {
  return /\b(?:recent(?:ly)?|latest|newest|current(?:ly)?|nowadays|state[- ]of[- ]the[- ]art|sota|this year|last year|up[- ]to[- ]date|new(?:est)? (?:work|papers?|results|models?|methods?))\b|\b20[2-9]\d\b/i.test(
    question,
  );
}

/** Below this calibrated relevance (lib/search `relevance`) the library's best passage is weak evidence. */
export const WEAK_RELEVANCE = 0.35;

/**
 * Why the plan searches the web, before the library is searched: the user asked for it, or the question asks for recent
 * work (only in `auto` mode). Null: decide after the library search (`webReasonAfterSearch`).
 */
export function webReasonBeforeSearch(
  question: string,
  { asked, mode }: { asked: boolean; mode: WebResearch["mode"] },
): WebSearchReason | null {
  if (asked) return "asked";
  if (mode === "auto" && asksForRecentWork(question)) return "recent";
  return null;
}

/**
 * After the library search (auto mode): no papers, or evidence too weak — the best passage's calibrated relevance
 * under WEAK_RELEVANCE, or none of the passages mentions what the question is specifically about (the composer's
 * absent-subject test).
 */
export function webReasonAfterSearch(
  question: string,
  passages: readonly (EvidencePassage & { relevance: number })[],
): WebSearchReason | null {
  if (passages.length === 0) return "no_papers";
  const best = Math.max(...passages.map((p) => p.relevance));
  if (best < WEAK_RELEVANCE) return "weak_evidence";
  if (absentSubjects(question, [...passages])) return "weak_evidence";
  return null;
}

export function webReasonText(reason: WebSearchReason, detail = ""): string {
  switch (reason) {
    case "asked":
      return "You asked for web search.";
    case "recent":
      return "The question asks for recent work, which the library may not have yet.";
    case "no_papers":
      return "The library has no papers on this question.";
    case "weak_evidence":
      return `The library's evidence is weak${detail ? ` (${detail})` : ""}.`;
  }
}

/** `https://arxiv.org/abs/2106.09685v2` → `2106.09685v2` (new-style ids, and old-style `cs/0112017`). */
export function arxivIdOf(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (!/(^|\.)arxiv\.org$/i.test(u.hostname)) return null;
  const m = /^\/(?:abs|pdf|html)\/((?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?\/\d{7})(?:v\d+)?)(?:\.pdf)?\/?$/i.exec(
    u.pathname,
  );
  return m ? (m[1] as string) : null;
}

// ---- evidence as passages (the composer and the judge read EvidencePassage) ----

/** Characters of a page kept as evidence. */
export const WEB_TEXT_CHARS = 20_000;

/** A page's paragraphs as passages of "paper" `W1`, "page" = paragraph number. */
export function webPassages(sources: readonly WebEvidence[]): EvidencePassage[] {
  const out: EvidencePassage[] = [];
  for (const s of sources) {
    let at = 0;
    s.text.split(/\n\n/).forEach((para, i) => {
      const start = s.text.indexOf(para, at);
      at = start + para.length;
      if (para.trim().length < 40) return;
      out.push({
        chunkUid: `web:${s.id}:${i}`,
        paperId: s.id,
        title: s.title,
        page: i + 1,
        charStart: start,
        charEnd: start + para.length,
        text: para,
      });
    });
  }
  return out;
}

function citeWeb(s: PickedSentence): string {
  const own = `[${s.passage.paperId}]`;
  const before = quotedBefore(s)
    .map((t) => `${escapeMarkdown(t)} ${own} `)
    .join("");
  const after = s.next ? ` ${escapeMarkdown(s.next)} ${own}` : "";
  return `${before}${escapeMarkdown(s.text)} ${own}${after}`;
}

/**
 * The offline answer's web part: the web pages' sentences that best answer the question, quoted exactly and cited
 * `[Wn]`, under a heading that says they come from the web. Empty when none bears on the question.
 */
export function composeWebSection(
  question: string,
  sources: readonly WebEvidence[],
  opts: { intent: Intent; keywords: string[]; libraryAnswered: boolean },
): string {
  const picked = pickSentences(question, webPassages(sources), {
    intent: opts.intent,
    keywords: opts.keywords,
    maxSentences: 6,
    perPaper: 2,
  });
  if (picked.length === 0) return "";
  const note = opts.libraryAnswered
    ? "_From web pages found by web search, not from the library: each sentence is quoted from the page it cites._"
    : "_The library does not answer this. From web pages found by web search: each sentence is quoted from the page it cites._";
  return `## From the web\n\n${note}\n\n${picked.map((p) => `- ${citeWeb(p)}`).join("\n")}`;
}

/** The web sources as the model sees them, after the library's. */
export function webEvidenceBlock(sources: readonly WebEvidence[], maxCharsEach = 4000): string {
  return sources
    .map((s) => `Web source [${s.id}] — ${s.title} (${s.url})\n${s.text.slice(0, maxCharsEach).trim()}`)
    .join("\n\n---\n\n");
}

export const WEB_SYNTHESIS_INSTRUCTIONS =
  " Some sources are web pages, labelled [W1], [W2]…: cite a sentence taken from one with that label alone, like [W1]. " +
  "Prefer the library's papers; use web sources for what the papers do not cover, and say in the text that it comes " +
  "from the web.";

// ---- checking the answer's [Wn] citations ----

function claimOf(sentence: string): string {
  return sentence
    .replace(/\[[^[\]\n]{1,400}\]/g, "")
    .replace(/\s+([.,;:!?])/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/** The answer's sentences that cite web sources, each with the ids it cites. */
export function webCitedClaims(markdown: string): { claim: string; ids: string[]; marker: string }[] {
  const out: { claim: string; ids: string[]; marker: string }[] = [];
  for (const rawLine of markdown.split("\n")) {
    const line = rawLine.replace(/^\s*(?:[-*+]|\d+\.)\s+/, "").replace(/^>\s?/, "");
    if (/^\s*#/.test(line) || line.trim() === "") continue;
    for (const s of splitSentences(line)) {
      // markers that open a span follow the previous sentence's full stop: "… on the test set. [W1] This number …"
      const lead = /^(?:\s*\[W\d+\])+/.exec(s.text)?.[0] ?? "";
      const prevClaim = out[out.length - 1];
      if (lead && prevClaim) {
        prevClaim.ids.push(...[...lead.matchAll(WEB_MARKER)].map((m) => m[1] as string));
        s.text = s.text.slice(lead.length);
      }
      const ids = [...s.text.matchAll(WEB_MARKER)].map((m) => m[1] as string);
      const claim = claimOf(s.text);
      if (claim.length === 0) {
        // a marker after its sentence's full stop belongs to the sentence before
        const prev = out[out.length - 1];
        if (prev) prev.ids.push(...ids);
        continue;
      }
      out.push({ claim, ids, marker: "" });
    }
  }
  return out.filter((c) => c.ids.length > 0).map((c) => ({ ...c, marker: `[${c.ids[0]}]` }));
}

/**
 * Resolves each `[Wn]` to its fetched page and checks the claim against the page's text: supported when
 * LEXICAL_SUPPORT_THRESHOLD of its content words are in the page's best-matching paragraph; the quote is the page's
 * sentence that supports it best.
 */
export function verifyWebCitations(markdown: string, sources: readonly WebEvidence[]): WebCitation[] {
  const out: WebCitation[] = [];
  const passages = webPassages(sources);
  for (const { claim, ids } of webCitedClaims(markdown)) {
    for (const id of new Set(ids)) {
      const source = sources.find((s) => s.id === id);
      const base = { index: out.length + 1, marker: `[${id}]`, sourceId: id, claim };
      if (!source) {
        out.push({
          ...base,
          url: "",
          title: id,
          quote: "",
          supported: false,
          support: 0,
          reason: `${id} is not among the web pages fetched.`,
        });
        continue;
      }
      let best: { whole: number; quote: string } = { whole: 0, quote: "" };
      for (const p of passages.filter((x) => x.paperId === id)) {
        const whole = lexicalSupport(claim, p.text);
        if (whole > best.whole || !best.quote) best = { whole, quote: bestQuote(claim, p).quote };
      }
      const supported = best.whole >= LEXICAL_SUPPORT_THRESHOLD;
      out.push({
        ...base,
        url: source.url,
        title: source.title,
        quote: best.quote,
        supported,
        support: Math.round(best.whole * 100) / 100,
        ...(supported ? {} : { reason: `Only ${Math.round(best.whole * 100)}% of the claim's words are on the page.` }),
      });
    }
  }
  return out;
}

/**
 * The model as judge of the web citations (the paper judge, lib/research/citations.ts `judgeCitations`, reading each
 * page's paragraph that matched best). Throws when the call fails (callers keep the lexical verdicts).
 */
export async function judgeWebCitations(
  model: LanguageModel,
  citations: WebCitation[],
  sources: readonly WebEvidence[],
  { signal }: { signal?: AbortSignal } = {},
): Promise<WebCitation[]> {
  const passages = webPassages(sources);
  const evidence: EvidencePassage[] = [];
  const asPaper: Citation[] = citations.map((c) => {
    const mine = passages.filter((p) => p.paperId === c.sourceId);
    const best = mine.find((p) => c.quote && p.text.includes(c.quote)) ?? mine[0];
    if (best) evidence.push(best);
    return {
      index: c.index,
      marker: c.marker,
      paperId: c.sourceId,
      page: best?.page ?? 0,
      claim: c.claim,
      chunkUid: best ? best.chunkUid : null,
      quote: c.quote,
      charStart: best ? best.charStart : null,
      charEnd: best ? best.charEnd : null,
      supported: c.supported,
      support: c.support,
      ...(c.reason ? { reason: c.reason } : {}),
    };
  });
  const judged = await judgeCitations(model, asPaper, evidence, { signal });
  return citations.map((c, i) => {
    const j = judged[i] as Citation;
    const { reason: _r, ...rest } = c;
    return j.supported ? { ...rest, supported: true } : { ...rest, supported: false, reason: j.reason ?? c.reason };
  });
}

/** The web sources as markdown, after the references (exports and the command line; the page lists them itself). */
export function webSourcesMarkdown(sources: readonly WebSource[]): string {
  if (sources.length === 0) return "";
  const lines = sources.map(
    (s) => `- [${s.id}] ${escapeMarkdown(s.title)} — ${s.url.replace(/[<>\s]/g, encodeURIComponent)}`,
  );
  return `## Web sources\n\n${lines.join("\n")}`;
}
