import { generateText, type LanguageModel } from "ai";
import { splitSentences } from "@/lib/ingest/chunk";
import type { PaperMetadata, PaperSummary, SummaryChunk, SummarySentence } from "@/lib/ingest/types";
import { tokenize } from "@/lib/text/terms";

/**
 * Paper summaries: an extractive one that always works offline, an LLM one when a model is configured (the caller
 * falls back to the extractive one when it fails), and the summary's passages for the summary index.
 */

// ---------------------------------------------------------------------------------------------------------------
// The paper's body: pages without the front matter and without the references

const REFERENCES_HEADING = /^(?:\d+\.?\s+|[IVX]+\.\s+)?(references|bibliography|literature cited|works cited)\s*$/i;
const INTRO_HEADING = /^(?:1\.?|I\.)\s+(?:extended\s+)?introduction\b/i;
const ABSTRACT_HEADING = /^(abstract|a b s t r a c t)\b/i;

interface BodyLine {
  text: string;
  page: number;
}

/**
 * The body as segments of consecutive lines, each line with its page: from the introduction (or after the abstract)
 * up to the references heading. Headings, captions, footnotes and lines that are mostly symbols (equations, tables)
 * are left out and end a segment, so no sentence is glued together across them.
 */
function bodySegments(pages: string[], metadata: PaperMetadata): BodyLine[][] {
  const segments: BodyLine[][] = [];
  let current: BodyLine[] = [];
  const cut = () => {
    if (current.length > 0) segments.push(current);
    current = [];
  };
  let started = false;
  let inCaption = false;
  for (let p = 0; p < pages.length; p++) {
    const lines = (pages[p] ?? "").split("\n");
    let from = 0;
    if (!started) {
      const intro = lines.findIndex((l) => INTRO_HEADING.test(l.trim()));
      if (intro >= 0) from = intro + 1;
      else if (p === 0) from = afterAbstract(lines, metadata.abstract);
      started = true;
    }
    for (let i = from; i < lines.length; i++) {
      const line = (lines[i] as string).trim();
      // the references start a third of the way in at the earliest (a "References" line in a table of contents)
      if (REFERENCES_HEADING.test(line) && p >= Math.floor(pages.length / 3)) {
        cut();
        return segments;
      }
      if (CAPTION.test(line)) inCaption = true;
      if (inCaption) {
        // a caption runs to the end of its first sentence
        if (/[.!?]$/.test(line)) inCaption = false;
        cut();
        continue;
      }
      if (isBodyLine(line)) current.push({ text: line, page: p + 1 });
      else cut();
    }
  }
  cut();
  return segments;
}

const CAPTION = /^(figure|fig\.|table|tab\.|algorithm|listing)\s*\d+\s*[:.|]/i;

/** Index of the first line after the abstract on page 1 (0 when there is no abstract heading). */
function afterAbstract(lines: string[], abstract?: string): number {
  const at = lines.findIndex((l) => ABSTRACT_HEADING.test(l.trim()));
  if (at < 0) return 0;
  let chars = 0;
  const wanted = abstract?.length ?? 0;
  for (let i = at; i < lines.length; i++) {
    chars += (lines[i] as string).length + 1;
    if (chars >= wanted) return i + 1;
  }
  return lines.length;
}

function isBodyLine(line: string): boolean {
  if (line.length < 2) return false;
  if (/^(\d{1,2}\p{Lu}\p{Ll}|[∗*†‡§¶])/u.test(line)) return false; // footnotes: "3We ignore…", "∗Equal contribution"
  // section headings: "3.1 Encoder and Decoder Stacks", "RELATED WORK"
  if (/^(\d+(\.\d+)*\.?|[A-Z]\.\d*|[IVX]+\.)\s+\S/.test(line) && line.length < 80 && !/[.:]$/.test(line)) return false;
  const letters = line.match(/\p{L}/gu)?.length ?? 0;
  if (letters < line.replace(/\s/g, "").length * 0.6) return false; // equations, table rows
  if (letters >= 6 && line === line.toUpperCase()) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Extractive summary

interface Candidate {
  text: string;
  page: number;
  order: number;
  vector: Map<string, number>;
  score: number;
}

const CUE =
  /\b(we (propose|present|introduce|show|find|demonstrate|achieve|obtain|observe|conclude)|this (paper|work)|our (results|method|approach|model|experiments)|outperforms?|state[- ]of[- ]the[- ]art|significantly)\b/i;

function isGoodSentence(s: string): boolean {
  if (s.length < 60 || s.length > 400) return false;
  if (!/^["“(]?\p{Lu}/u.test(s) || !/[.!?]["”)]?$/.test(s)) return false; // fragments cut by a figure or page
  if (/^(figure|fig\.|table|algorithm|listing|equation)\s*\d/i.test(s)) return false; // captions
  if (/https?:\/\/|www\.|@|arXiv:\s*\d/.test(s)) return false;
  const nonSpace = s.replace(/\s/g, "").length;
  const letters = s.match(/\p{L}/gu)?.length ?? 0;
  const digits = s.match(/\d/g)?.length ?? 0;
  if (letters < nonSpace * 0.75 || digits > nonSpace * 0.1) return false;
  const words = s.split(/\s+/).length;
  if (words < 8 || words > 70) return false;
  // two sentences spliced across a column or figure break: "…pre-trained with ImageNet We introduce BERT…"
  return !/[\p{Ll}\d)\]] (We|Our|The|This|These|In|It|As|To|For|However|Finally|Moreover|Furthermore)\s/u.test(s);
}

function tfidfVectors(docs: string[][]): Map<string, number>[] {
  const df = new Map<string, number>();
  for (const terms of docs) for (const t of new Set(terms)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  return docs.map((terms) => {
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    const v = new Map<string, number>();
    let norm = 0;
    for (const [t, c] of tf) {
      const w = (1 + Math.log(c)) * Math.log(1 + n / (df.get(t) ?? 1));
      v.set(t, w);
      norm += w * w;
    }
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (const [t, w] of v) v.set(t, w * inv);
    return v;
  });
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let s = 0;
  for (const [t, w] of small) s += w * (large.get(t) ?? 0);
  return s;
}

/**
 * The abstract (when found) plus the body's most central sentences: TF-IDF sentence vectors scored by similarity to
 * the document centroid, with a small bonus for contribution phrases ("we propose", "outperforms"), picked greedily
 * with a redundancy penalty (MMR) against the abstract and the sentences already chosen, shown in document order.
 * Sentences from the references, captions, equations, tables and fragments are never candidates.
 */
export function summarizeExtractive(input: {
  pages: string[];
  metadata: PaperMetadata;
  maxSentences?: number;
}): PaperSummary {
  const { metadata } = input;
  const maxSentences = Math.max(1, input.maxSentences ?? 8);
  const spans: Array<{ text: string; page: number }> = [];
  for (const segment of bodySegments(input.pages, metadata)) {
    // sentences over the joined segment, each attributed to the page where it starts
    const starts: number[] = [];
    let offset = 0;
    for (const l of segment) {
      starts.push(offset);
      offset += l.text.length + 1;
    }
    const joined = segment.map((l) => l.text).join(" ");
    for (const sentence of splitSentences(joined)) {
      if (!isGoodSentence(sentence.text)) continue;
      let line = 0;
      while (line + 1 < starts.length && (starts[line + 1] as number) <= sentence.start) line++;
      spans.push({ text: sentence.text, page: segment[line]?.page ?? 1 });
    }
  }

  const abstractSentences = metadata.abstract ? splitSentences(metadata.abstract).map((s) => s.text) : [];
  const docs = [...spans.map((s) => tokenize(s.text)), ...abstractSentences.map((s) => tokenize(s))];
  const vectors = tfidfVectors(docs);
  const candidates: Candidate[] = spans.map((s, i) => ({
    text: s.text,
    page: s.page,
    order: i,
    vector: vectors[i] as Map<string, number>,
    score: 0,
  }));
  const abstractVectors = vectors.slice(spans.length);

  const centroid = new Map<string, number>();
  for (const c of candidates) for (const [t, w] of c.vector) centroid.set(t, (centroid.get(t) ?? 0) + w);
  let cn = 0;
  for (const w of centroid.values()) cn += w * w;
  const cinv = cn > 0 ? 1 / Math.sqrt(cn) : 0;
  for (const [t, w] of centroid) centroid.set(t, w * cinv);
  for (const c of candidates) c.score = cosine(c.vector, centroid) + (CUE.test(c.text) ? 0.08 : 0);

  const chosen: Candidate[] = [];
  const pool = [...candidates];
  const lambda = 0.7;
  while (chosen.length < maxSentences && pool.length > 0) {
    let best = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < pool.length; i++) {
      const c = pool[i] as Candidate;
      let redundancy = 0;
      for (const s of chosen) redundancy = Math.max(redundancy, cosine(c.vector, s.vector));
      for (const a of abstractVectors) redundancy = Math.max(redundancy, cosine(c.vector, a));
      if (redundancy > 0.8) continue; // a near-duplicate of something already said
      const value = lambda * c.score - (1 - lambda) * redundancy;
      if (value > bestValue) {
        bestValue = value;
        best = i;
      }
    }
    if (best < 0) break;
    chosen.push(pool.splice(best, 1)[0] as Candidate);
  }
  chosen.sort((a, b) => a.order - b.order);

  const sentences: SummarySentence[] = [
    ...abstractSentences.map((s) => ({ text: s, page: 1 })),
    ...chosen.map((c) => ({ text: c.text, page: c.page })),
  ];
  const parts: string[] = [];
  if (metadata.abstract) parts.push(`**Abstract.** ${metadata.abstract}`);
  if (chosen.length > 0) parts.push(`**Key points**\n${chosen.map((c) => `- ${c.text} (p. ${c.page})`).join("\n")}`);
  if (parts.length === 0) {
    // no abstract and no prose sentences: the opening text (or the title), so the summary index is never empty
    const opening = input.pages.join(" ").replace(/\s+/g, " ").trim().slice(0, 600) || metadata.title;
    parts.push(opening);
    sentences.push({ text: opening, page: 1 });
  }
  return { text: parts.join("\n\n"), method: "extractive", sentences };
}

// ---------------------------------------------------------------------------------------------------------------
// LLM summary

const DEFAULT_MAX_INPUT_CHARS = 24_000;

/**
 * The paper's text for the prompt, within `maxChars`: every body page gets an equal share (short pages give their
 * unused share to the others), cut at a sentence end, with `[p. N]` markers so the model can cite pages.
 */
export function budgetPaperText(pages: string[], maxChars: number): string {
  // the body ends at the references heading (searched from a third of the way in, as in the extractive summary)
  let body = pages;
  for (let p = Math.floor(pages.length / 3); p < pages.length; p++) {
    const lines = (pages[p] ?? "").split("\n");
    const at = lines.findIndex((l) => REFERENCES_HEADING.test(l.trim()));
    if (at >= 0) {
      body = [...pages.slice(0, p), lines.slice(0, at).join("\n")];
      break;
    }
  }
  body = body.map((t) => t.replace(/\s*\n\s*/g, " ").trim());
  const markers = body.map((_, i) => `[p. ${i + 1}] `);
  const fixed = markers.reduce((s, m) => s + m.length + 4, 0); // + the page separator and a possible " …"
  let remaining = Math.max(0, maxChars - fixed);
  // water-filling: pages shorter than an equal share keep their length; the rest share what is left
  const quotas = new Array<number>(body.length).fill(0);
  let open = body.map((_, i) => i).filter((i) => (body[i] as string).length > 0);
  while (open.length > 0) {
    const share = Math.floor(remaining / open.length);
    const small = open.filter((i) => (body[i] as string).length <= share);
    if (small.length === 0) {
      for (const i of open) quotas[i] = share;
      break;
    }
    for (const i of small) {
      quotas[i] = (body[i] as string).length;
      remaining -= (body[i] as string).length;
    }
    open = open.filter((i) => !small.includes(i));
  }
  return body
    .map((t, i) => {
      const quota = quotas[i] as number;
      if (!t || quota <= 0) return "";
      if (t.length <= quota) return `${markers[i]}${t}`;
      const cut = t.slice(0, quota);
      const lastEnd = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf("? "), cut.lastIndexOf("! "));
      return `${markers[i]}${lastEnd > quota * 0.5 ? cut.slice(0, lastEnd + 1) : cut} …`;
    })
    .filter(Boolean)
    .join("\n\n");
}

const INSTRUCTIONS =
  "You summarise research papers for researchers. Use only the paper text you are given: do not add facts, numbers " +
  "or claims from memory, and do not speculate. Keep the paper's own terminology. Write plain Markdown.";

/** Page references the model put in its text: "(p. 3)", "(pp. 3-4)", "[p. 5]". */
function pagesIn(text: string): number[] {
  const pages = new Set<number>();
  for (const m of text.matchAll(/\b(?:pp?\.)\s*(\d{1,4})(?:\s*[-–]\s*(\d{1,4}))?/g)) {
    const a = Number(m[1]);
    const b = m[2] ? Number(m[2]) : a;
    for (let p = a; p <= Math.min(b, a + 20); p++) pages.add(p);
  }
  return [...pages].sort((x, y) => x - y);
}

function modelIdOf(model: LanguageModel): string {
  return typeof model === "string" ? model : model.modelId;
}

/**
 * A summary written by the model from the paper's own text (budgeted to `maxInputChars`, default 24,000). Errors
 * (network, timeout, an empty answer) propagate: the caller falls back to `summarizeExtractive`.
 */
export async function summarizeWithLlm(input: {
  model: LanguageModel;
  pages: string[];
  metadata: PaperMetadata;
  signal?: AbortSignal;
  maxInputChars?: number;
}): Promise<PaperSummary> {
  const { metadata } = input;
  input.signal?.throwIfAborted();
  const paperText = budgetPaperText(input.pages, input.maxInputChars ?? DEFAULT_MAX_INPUT_CHARS);
  const header = [
    `Title: ${metadata.title}`,
    metadata.authors.length > 0 ? `Authors: ${metadata.authors.join(", ")}` : "",
    metadata.abstract ? `Abstract (as printed): ${metadata.abstract}` : "",
  ]
    .filter(Boolean)
    .join("\n");
  const prompt =
    `${header}\n\nPaper text, with page markers [p. N]:\n\n${paperText}\n\n---\n` +
    "Summarise this paper using only the text above. Format:\n" +
    "**Summary.** One paragraph of 3-5 sentences: the problem, the approach, the main results.\n\n" +
    "**Key points**\n" +
    "- 4 to 8 bullet points with the most important contributions, methods, results and limitations, " +
    "each ending with the page it comes from, like (p. 3).";
  const result = await generateText({
    model: input.model,
    instructions: INSTRUCTIONS,
    prompt,
    temperature: 0.2,
    maxOutputTokens: 900,
    maxRetries: 1,
    abortSignal: input.signal,
  });
  const text = result.text.trim();
  if (text.length < 40) throw new Error("The model returned an empty summary.");
  // sentences with their pages, from the bullets' page references
  const sentences: SummarySentence[] = [];
  for (const line of text.split("\n")) {
    const bullet = /^\s*[-*•]\s+(.*)$/.exec(line);
    if (!bullet) continue;
    const page = pagesIn(bullet[1] as string)[0];
    if (page && page <= input.pages.length) sentences.push({ text: (bullet[1] as string).trim(), page });
  }
  return { text, method: "llm", model: modelIdOf(input.model), sentences };
}

// ---------------------------------------------------------------------------------------------------------------
// Summary passages

interface Block {
  start: number;
  end: number;
  bullet: boolean;
}

/** Paragraphs and bullet items of a Markdown text, with exact offsets (bold labels and bullet marks excluded). */
function blocksOf(text: string): Block[] {
  const blocks: Block[] = [];
  let pos = 0;
  let paragraph: Block | null = null;
  const flush = () => {
    if (paragraph && paragraph.end > paragraph.start) blocks.push(paragraph);
    paragraph = null;
  };
  for (const line of text.split("\n")) {
    const lineStart = pos;
    pos += line.length + 1;
    const trimmed = line.trim();
    if (!trimmed) {
      flush();
      continue;
    }
    const bullet = /^(\s*(?:[-*•]|\d+[.)])\s+)/.exec(line);
    if (bullet) {
      flush();
      const start = lineStart + (bullet[1] as string).length;
      const end = lineStart + line.trimEnd().length;
      if (end > start) blocks.push({ start, end, bullet: true });
      continue;
    }
    // a line that is only a bold label ("**Key points**") is not content
    const label = /^\s*\*\*[^*]+\*\*[.:]?\s*/.exec(line);
    if (label && label[0].length === line.length) {
      flush();
      continue;
    }
    const contentStart = lineStart + (label ? label[0].length : line.length - line.trimStart().length);
    const contentEnd = lineStart + line.trimEnd().length;
    if (paragraph) (paragraph as Block).end = contentEnd;
    else paragraph = { start: contentStart, end: contentEnd, bullet: false };
  }
  flush();
  return blocks;
}

const fold = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * The summary's passages for the summary index: the overview/abstract paragraph (split at sentence ends when longer
 * than `targetChars`, default 700) and groups of consecutive key points up to `targetChars`. Offsets are exact into
 * `summary.text`; `pages` are the pages of the summary sentences a passage contains and the pages it cites "(p. N)".
 */
export function chunkSummary(summary: PaperSummary, opts: { targetChars?: number } = {}): SummaryChunk[] {
  const target = Math.max(80, opts.targetChars ?? 700);
  const text = summary.text;
  const ranges: Array<{ start: number; end: number }> = [];
  let group: { start: number; end: number } | null = null;
  for (const b of blocksOf(text)) {
    if (b.bullet) {
      if (group && b.end - group.start <= target) group.end = b.end;
      else {
        if (group) ranges.push(group);
        group = { start: b.start, end: b.end };
      }
      continue;
    }
    if (group) ranges.push(group);
    group = null;
    if (b.end - b.start <= target) {
      ranges.push({ start: b.start, end: b.end });
      continue;
    }
    // a long paragraph: sentences packed up to the target
    let piece: { start: number; end: number } | null = null;
    for (const s of splitSentences(text.slice(b.start, b.end))) {
      const start = b.start + s.start;
      const end = b.start + s.end;
      if (piece && end - piece.start <= target) piece.end = end;
      else {
        if (piece) ranges.push(piece);
        piece = { start, end };
      }
    }
    if (piece) ranges.push(piece);
  }
  if (group) ranges.push(group);

  const sentences = summary.sentences.map((s) => ({ text: fold(s.text), page: s.page }));
  return ranges.map((r, i) => {
    const passage = text.slice(r.start, r.end);
    const folded = fold(passage);
    const pages = new Set<number>(pagesIn(passage));
    for (const s of sentences) if (s.text && folded.includes(s.text)) pages.add(s.page);
    return {
      chunkIndex: i,
      text: passage,
      charStart: r.start,
      charEnd: r.end,
      pages: [...pages].sort((a, b) => a - b),
    };
  });
}
