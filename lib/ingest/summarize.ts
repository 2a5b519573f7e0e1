import { generateText, type LanguageModel } from "ai";
import { tokenize } from "@/lib/embeddings/hashing";
import type { PaperMetadata, PaperSummary, SummaryChunk, SummarySentence } from "./types";

/**
 * Summaries, offline by default. The extractive summary is the abstract plus the body's most central sentences:
 * each sentence is a TF-IDF vector, scored by cosine similarity to the document's centroid, near-duplicates of an
 * already chosen sentence are skipped, and the picks are shown in document order with their pages.
 */

const REFERENCES_HEADING = /^\s*(\d+\.?\s*)?(references|bibliography|acknowledge?ments?)\s*$/i;

interface Candidate extends SummarySentence {
  order: number;
}

/** Splits page text into sentences; lines are re-joined first since extracted text keeps layout line breaks. */
export function splitSentences(text: string): string[] {
  const flat = text
    .replace(/\s*\n\s*/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!flat) return [];
  // a sentence ends at . ! ? followed by space and an upper-case letter, digit or bracket; common abbreviations kept
  const parts = flat.split(/(?<=[.!?])\s+(?=[A-Z0-9[(“"])/);
  const out: string[] = [];
  for (const p of parts) {
    const prev = out[out.length - 1];
    if (prev && /\b(e\.g|i\.e|et al|Fig|Eq|Sec|Tab|vs|cf|resp|approx|No)\.$/i.test(prev))
      out[out.length - 1] = `${prev} ${p}`;
    else out.push(p);
  }
  return out;
}

function looksLikeProse(s: string): boolean {
  const words = s.split(/\s+/);
  if (words.length < 8 || words.length > 60) return false;
  const letters = (s.match(/\p{L}/gu) ?? []).length;
  if (letters / s.length < 0.7) return false; // equations, tables, numbers
  if (/^(figure|fig\.|table|algorithm)\s*\d/i.test(s)) return false; // captions
  if (/https?:\/\/|@\w+\.\w+/.test(s)) return false;
  if (/arXiv:\d{4}\.\d{4,5}/.test(s)) return false;
  return true;
}

function bodyCandidates(pages: string[], abstract: string | undefined): Candidate[] {
  const out: Candidate[] = [];
  const abstractKey = abstract ? abstract.replace(/\s+/g, " ").slice(0, 80) : null;
  let order = 0;
  for (const [i, page] of pages.entries()) {
    const lines = page.split("\n");
    const cut = lines.findIndex((l) => REFERENCES_HEADING.test(l));
    const text = (cut >= 0 ? lines.slice(0, cut) : lines).join("\n");
    for (const s of splitSentences(text)) {
      if (!looksLikeProse(s)) continue;
      if (abstractKey && abstractKey.includes(s.slice(0, 60))) continue; // already in the abstract
      out.push({ text: s, page: i + 1, order: order++ });
    }
    if (cut >= 0) break; // nothing after the references counts
  }
  return out;
}

type SparseVector = Map<string, number>;

function tfidfVectors(sentences: string[]): SparseVector[] {
  const tokenized = sentences.map((s) => tokenize(s));
  const df = new Map<string, number>();
  for (const toks of tokenized) for (const t of new Set(toks)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = sentences.length;
  return tokenized.map((toks) => {
    const tf = new Map<string, number>();
    for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
    const v: SparseVector = new Map();
    let norm = 0;
    for (const [t, f] of tf) {
      const w = (1 + Math.log(f)) * Math.log(1 + n / (df.get(t) ?? 1));
      v.set(t, w);
      norm += w * w;
    }
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (const [t, w] of v) v.set(t, w * inv);
    return v;
  });
}

function dot(a: SparseVector, b: SparseVector): number {
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  let s = 0;
  for (const [t, w] of small) s += w * (large.get(t) ?? 0);
  return s;
}

/** The `maxSentences` most central sentences of the body (centroid similarity, near-duplicates skipped). */
export function centralSentences(pages: string[], abstract: string | undefined, maxSentences = 6): SummarySentence[] {
  const candidates = bodyCandidates(pages, abstract);
  if (candidates.length === 0) return [];
  const vectors = tfidfVectors(candidates.map((c) => c.text));
  const centroid: SparseVector = new Map();
  for (const v of vectors) for (const [t, w] of v) centroid.set(t, (centroid.get(t) ?? 0) + w / vectors.length);
  const scored = candidates
    .map((c, i) => ({ c, v: vectors[i] as SparseVector, score: dot(vectors[i] as SparseVector, centroid) }))
    .sort((a, b) => b.score - a.score);
  const chosen: typeof scored = [];
  for (const s of scored) {
    if (chosen.length >= maxSentences) break;
    if (chosen.some((c) => dot(c.v, s.v) > 0.5)) continue;
    chosen.push(s);
  }
  return chosen.sort((a, b) => a.c.order - b.c.order).map(({ c }) => ({ text: c.text, page: c.page }));
}

export function summarizeExtractive(input: {
  pages: string[];
  metadata: PaperMetadata;
  maxSentences?: number;
}): PaperSummary {
  const abstract = input.metadata.abstract?.replace(/\s+/g, " ").trim();
  const points = centralSentences(input.pages, abstract, input.maxSentences ?? 6);
  const parts: string[] = [];
  const sentences: SummarySentence[] = [];
  if (abstract) {
    parts.push(`**Abstract.** ${abstract}`);
    for (const s of splitSentences(abstract)) sentences.push({ text: s, page: 1 });
  }
  if (points.length > 0) {
    parts.push(["**Key points**", ...points.map((p) => `- ${p.text} (p. ${p.page})`)].join("\n"));
    sentences.push(...points);
  }
  if (parts.length === 0) {
    // no abstract and no prose sentences: fall back to the opening text, so the summary index is never empty
    const opening = input.pages.join("\n").replace(/\s+/g, " ").trim().slice(0, 600);
    parts.push(opening || input.metadata.title);
    sentences.push({ text: opening || input.metadata.title, page: 1 });
  }
  return { text: parts.join("\n\n"), method: "extractive", sentences };
}

/** A budgeted excerpt of the paper for the model: the first pages whole, then the start of each later page. */
function budgetedText(pages: string[], maxChars: number): string {
  const out: string[] = [];
  let used = 0;
  for (const [i, page] of pages.entries()) {
    const remaining = maxChars - used;
    if (remaining <= 200) break;
    const share = i < 3 ? remaining : Math.min(remaining, Math.floor(maxChars / Math.max(pages.length, 1)));
    const piece = `[page ${i + 1}]\n${page.slice(0, share)}`;
    out.push(piece);
    used += piece.length;
  }
  return out.join("\n\n");
}

export async function summarizeWithLlm(input: {
  model: LanguageModel;
  pages: string[];
  metadata: PaperMetadata;
  signal?: AbortSignal;
  maxInputChars?: number;
}): Promise<PaperSummary> {
  const text = budgetedText(input.pages, input.maxInputChars ?? 24_000);
  const { text: out } = await generateText({
    model: input.model,
    abortSignal: input.signal,
    maxRetries: 1,
    system:
      "You summarise research papers for scientists. Use only the paper text you are given; never add outside " +
      "knowledge. Write markdown: one paragraph on the problem and contribution, then 3-6 bullet points with the key " +
      "methods and findings (numbers where the text gives them), each ending with its page as (p. N).",
    prompt: `Title: ${input.metadata.title}\n\n${text}`,
  });
  const summary = out.trim();
  if (!summary) throw new Error("the model returned an empty summary");
  const sentences: SummarySentence[] = [];
  for (const line of summary.split("\n")) {
    const m = line.match(/\(p\.\s*(\d+)\)\s*$/);
    if (m) sentences.push({ text: line.replace(/^[-*]\s*/, "").trim(), page: Number(m[1]) });
  }
  const modelId = typeof input.model === "string" ? input.model : input.model.modelId;
  return { text: summary, method: "llm", model: modelId, sentences };
}

/**
 * Passages of the summary index: paragraphs, with long ones (and runs of bullets) grouped up to about
 * `targetChars`. Offsets are exact into `summary.text`; `pages` are those cited in the passage as `(p. N)`, plus
 * page 1 for the abstract.
 */
export function chunkSummary(summary: PaperSummary, opts: { targetChars?: number } = {}): SummaryChunk[] {
  const target = opts.targetChars ?? 700;
  const text = summary.text;
  const units: { start: number; end: number }[] = [];
  const re = /[^\n]+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index + (m[0].length - m[0].trimStart().length);
    const end = m.index + m[0].trimEnd().length;
    if (end > start) units.push({ start, end });
  }
  const chunks: SummaryChunk[] = [];
  let cur: { start: number; end: number } | null = null;
  const flush = () => {
    if (!cur) return;
    const passage = text.slice(cur.start, cur.end);
    const pages = new Set<number>();
    for (const m of passage.matchAll(/\(p\.\s*(\d+)\)/g)) pages.add(Number(m[1]));
    if (passage.startsWith("**Abstract.**")) pages.add(1);
    chunks.push({
      chunkIndex: chunks.length,
      text: passage,
      charStart: cur.start,
      charEnd: cur.end,
      pages: [...pages].sort((a, b) => a - b),
    });
    cur = null;
  };
  for (const u of units) {
    // a bold lead-in (`**Abstract.**`, `**Key points**`) starts a new passage
    const startsSection = text.startsWith("**", u.start);
    if (cur && (startsSection || u.end - cur.start > target)) flush();
    if (cur) cur.end = u.end;
    else cur = { ...u };
  }
  flush();
  return chunks;
}
