import { type LanguageModel, streamText } from "ai";
import { splitSentences } from "@/lib/ingest/chunk";
import { escapeMarkdown } from "@/lib/text/markdown";
import { tokenize } from "@/lib/text/terms";
import { type EvidencePassage, HEADING_LINE } from "./citations";
import type { Intent } from "./types";

export function citationOf(paperId: string, page: number): string {
  return `[${paperId}, page ${page}]`;
}

interface Candidate {
  text: string;
  passage: EvidencePassage;
  rank: number;
  score: number;
  stems: Set<string>;
}

/** Sentences worth quoting: prose of a sensible length, not a table row, a reference entry or a caption fragment. */
function quotable(s: string): boolean {
  if (s.length < 50 || s.length > 420) return false;
  const letters = (s.match(/\p{L}/gu) ?? []).length;
  if (letters / s.length < 0.6) return false; // tables, equations
  if (/^\s*(\[\d+\]|\d+\.\s+[A-Z][a-z]+,)/.test(s)) return false; // reference entries
  if (/\bet al\.,? \d{4}[a-z]?\.\s*$/.test(s) && s.length < 120) return false;
  if (/\b(figure|fig\.|table)\s*\d+\s*:/i.test(s)) return false; // a caption, often run into figure labels
  if (/^(\d+|[A-Z](?=\.\d))(\.\d+)*\.?\s+\p{Lu}/u.test(s)) return false; // a section heading run into its first sentence
  if (!/^[\p{Lu}\p{N}("“]/u.test(s.trim())) return false; // starts mid-sentence (chunk boundary)
  return true;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / Math.max(1, a.size + b.size - inter);
}

export interface ExtractiveOptions {
  intent: Intent;
  keywords: string[];
  /** Sentences in the answer. */
  maxSentences?: number;
  /** Sentences from one paper at most. */
  perPaper?: number;
}

export interface PickedSentence {
  text: string;
  passage: EvidencePassage;
  score: number;
}

/**
 * The evidence sentences that best cover the question: scored by the question's keyword coverage, the passage's
 * rank and, for performance questions, numbers; near-duplicates (and sentences in `exclude`) dropped.
 */
export function pickSentences(
  question: string,
  evidence: EvidencePassage[],
  { intent, keywords, maxSentences = 8, perPaper = 3, exclude = [] }: ExtractiveOptions & { exclude?: string[] },
): PickedSentence[] {
  const wanted = new Set([...tokenize(question), ...keywords.flatMap((k) => tokenize(k))]);
  const excluded = new Set(exclude);
  const candidates: Candidate[] = [];
  evidence.forEach((passage, rank) => {
    for (const s of splitSentences(passage.text)) {
      // a section heading on its own line ("5 Training") run into the sentence that follows it is left out
      const raw = passage.text.slice(s.start, s.end);
      const heading = HEADING_LINE.exec(raw);
      const text = heading ? raw.slice(heading[0].length).replace(/\s+/g, " ").trim() : s.text.trim();
      if (!quotable(text) || excluded.has(text)) continue;
      const stems = new Set(tokenize(text));
      let hit = 0;
      for (const w of wanted) if (stems.has(w)) hit++;
      if (hit === 0) continue;
      const coverage = hit / Math.max(1, wanted.size);
      const numbers = intent === "performance" && /\d/.test(text) ? 0.1 : 0;
      const rankPrior = 1 / (1 + rank * 0.15);
      candidates.push({ text, passage, rank, score: coverage * 0.7 + rankPrior * 0.3 + numbers, stems });
    }
  });
  candidates.sort((a, b) => b.score - a.score);
  const picked: Candidate[] = [];
  const perPaperCount = new Map<string, number>();
  for (const c of candidates) {
    if (picked.length >= maxSentences) break;
    if ((perPaperCount.get(c.passage.paperId) ?? 0) >= perPaper) continue;
    if (picked.some((p) => jaccard(p.stems, c.stems) > 0.6)) continue;
    picked.push(c);
    perPaperCount.set(c.passage.paperId, (perPaperCount.get(c.passage.paperId) ?? 0) + 1);
  }
  return picked.map((c) => ({ text: c.text, passage: c.passage, score: c.score }));
}

/** A quoted sentence with its citation, as markdown: the paper's text stays text (no link, image or HTML of its own). */
export function citeSentence(s: PickedSentence): string {
  return `${escapeMarkdown(s.text)} ${citationOf(s.passage.paperId, s.passage.page)}`;
}

/**
 * The offline answer: the evidence sentences that best cover the question, quoted exactly and each cited with its
 * paper and page, organised under headings (the direct answer first, then the supporting evidence by paper).
 */
export function synthesizeExtractive(question: string, evidence: EvidencePassage[], opts: ExtractiveOptions): string {
  const picked = pickSentences(question, evidence, opts);
  if (picked.length === 0) return "";
  const [lead, ...rest] = picked as [PickedSentence, ...PickedSentence[]];
  const direct = [lead, ...rest.filter((c) => c.score >= lead.score * 0.85).slice(0, 1)];
  const others = picked.filter((c) => !direct.includes(c));
  const sections = [`## Answer\n\n${direct.map(citeSentence).join(" ")}`];
  if (others.length > 0) {
    const byPaper = new Map<string, PickedSentence[]>();
    for (const c of others) byPaper.set(c.passage.paperId, [...(byPaper.get(c.passage.paperId) ?? []), c]);
    const parts = [...byPaper.values()].map((list) => {
      const title = escapeMarkdown((list[0] as PickedSentence).passage.title.trim());
      return `### ${title}\n\n${list.map((c) => `- ${citeSentence(c)}`).join("\n")}`;
    });
    sections.push(`## Supporting evidence\n\n${parts.join("\n\n")}`);
  }
  return sections.join("\n\n");
}

/** Evidence as the model sees it: numbered passages with the exact citation to use for each. */
export function evidenceBlock(evidence: EvidencePassage[], maxChars = 24_000): string {
  const out: string[] = [];
  let used = 0;
  for (const e of evidence) {
    const block = `Source ${citationOf(e.paperId, e.page)} — ${e.title}\n${e.text.trim()}`;
    if (used + block.length > maxChars && out.length > 0) break;
    out.push(block);
    used += block.length;
  }
  return out.join("\n\n---\n\n");
}

export const SYNTHESIS_INSTRUCTIONS =
  "You answer a researcher's question using ONLY the numbered source passages given. Do not use outside knowledge; " +
  "if the passages do not answer something, say so. Write markdown with short headings (##). Cite EVERY factual " +
  "sentence with the exact citation of its source as given, like [1706.03762v5, page 4], placed at the end of the " +
  "sentence; cite several sources as [A, page 1] [B, page 2]. Do not cite anything else and do not add a reference list.";

export function synthesisPrompt(question: string, evidence: EvidencePassage[]): string {
  return `Question: ${question}\n\nSources:\n\n${evidenceBlock(evidence)}\n\nWrite the cited answer.`;
}

/**
 * Streams the model's answer, calling `onDelta` with each piece; resolves to the whole text. Throws on a model error,
 * an empty answer, or when `signal` aborts (the orchestrator's timeout or cancellation).
 */
export async function synthesizeWithLlm(
  model: LanguageModel,
  question: string,
  evidence: EvidencePassage[],
  {
    signal,
    idleTimeoutMs,
    onDelta,
    prompt,
    instructions,
  }: {
    signal?: AbortSignal;
    /** Abandons the call when the model sends nothing for this long (before its first token, or mid-stream). */
    idleTimeoutMs?: number;
    onDelta?: (text: string) => void;
    prompt?: string;
    instructions?: string;
  } = {},
): Promise<string> {
  const idle = new AbortController();
  const result = streamText({
    model,
    instructions: instructions ?? SYNTHESIS_INSTRUCTIONS,
    prompt: prompt ?? synthesisPrompt(question, evidence),
    temperature: 0.2,
    maxOutputTokens: 1500,
    maxRetries: 0,
    abortSignal: signal ? AbortSignal.any([signal, idle.signal]) : idle.signal,
  });
  let text = "";
  const parts = idleTimeoutMs ? withIdleTimeout(result.fullStream, idleTimeoutMs, signal, idle) : result.fullStream;
  for await (const part of parts) {
    if (part.type === "text-delta") {
      text += part.text;
      onDelta?.(part.text);
    } else if (part.type === "error") {
      throw part.error instanceof Error ? part.error : new Error(String(part.error));
    } else if (part.type === "abort") {
      throw signal?.reason instanceof Error ? signal.reason : new Error("The model call was aborted.");
    }
  }
  if (text.trim().length === 0) throw new Error("The model returned an empty answer.");
  return text;
}

/**
 * The items of `source`, failing when none arrives for `ms` (the first one included) or when `signal` aborts — even
 * when the source itself never settles (a model that stops sending mid-stream, a provider that ignores its abort
 * signal). `idle` is aborted on a timeout, so the underlying call is asked to stop too.
 */
export async function* withIdleTimeout<T>(
  source: AsyncIterable<T>,
  ms: number,
  signal: AbortSignal | undefined,
  idle: AbortController = new AbortController(),
): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  try {
    while (true) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let onAbort: (() => void) | undefined;
      const stop = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const e = new Error(
            `The model sent nothing for ${formatSeconds(ms)} and was stopped (LECTERN_LLM_TIMEOUT_MS).`,
          );
          idle.abort(e);
          reject(e);
        }, ms);
        if (signal) {
          onAbort = () =>
            reject(signal.reason instanceof Error ? signal.reason : new Error("The model call was aborted."));
          if (signal.aborted) onAbort();
          else signal.addEventListener("abort", onAbort, { once: true });
        }
      });
      try {
        const next = await Promise.race([iterator.next(), stop]);
        if (next.done) return;
        yield next.value;
      } finally {
        clearTimeout(timer);
        if (onAbort) signal?.removeEventListener("abort", onAbort);
      }
    }
  } finally {
    // not awaited: a source that never settles would hold the caller here
    void iterator.return?.()?.catch(() => {});
  }
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
