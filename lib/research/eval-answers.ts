/**
 * Answer-quality measures for the research benchmark (`npm run bench:research`), pure and dependency-free apart from
 * the citation syntax:
 * - is an evidence quote in the answer: some sentence of the answer (citation markers and markdown removed) holds
 *   ≥ 80 % of the quote's distinct words (NFKC, lines broken at a hyphen joined, lowercased runs of letters/digits);
 * - did a run decline a question the library cannot answer (no cited answer);
 * - Wilson score intervals for the shares.
 */
import { BRACKET, parseCitations } from "./citation-format";

/** Share of the quote's distinct words a sentence must hold for the quote to count as in the answer. */
export const QUOTE_COVERAGE = 0.8;

/** NFKC, and a word broken across lines at a hyphen ("gradi-\nents", letters either side) joined. */
export function normalizeText(text: string): string {
  return text.normalize("NFKC").replace(/(?<=\p{L})-[ \t]*\r?\n[ \t]*(?=\p{L})/gu, "");
}

/** The distinct lowercased words (runs of letters and digits) of a text. */
export function wordSet(text: string): Set<string> {
  return new Set(
    normalizeText(text)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [],
  );
}

/** A bracket with the spaces before it (removed with it: "gradients [ID, page 4]." → "gradients."). */
const MARKER = new RegExp(`[ \\t]*${BRACKET.source}`, "g");

/** Removes the citation markers (`[ID, page N]`, `[arXiv:ID p.N]`, several separated by `;`); other brackets stay. */
export function stripCitations(text: string): string {
  return text.replace(MARKER, (m) => (parseCitations(m).length > 0 ? "" : m));
}

/** Markdown to plain text, line by line: headings, list and quote markers, emphasis, code, links, images, tables,
 * backslash escapes. */
function plainLine(line: string): string {
  return line
    .replace(/^\s{0,3}#{1,6}\s+/, "")
    .replace(/^\s*(?:>\s*)+/, "")
    .replace(/^\s*(?:[-*+]|\d{1,3}[.)])\s+/, "")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`+/g, "")
    .replace(/(\*{1,3}|_{2,3}|~~)(?=\S)([^\n]*?\S)\1/g, "$2")
    .replace(/(?<![\p{L}\p{N}])_(?=\S)([^\n]*?\S)_(?![\p{L}\p{N}])/gu, "$1")
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, "$1")
    .replace(/\|/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Sentence boundaries: `.`, `!` or `?` (closing quotes/brackets allowed) before whitespace and a capital letter. */
const SENTENCE_END = /(?<=[.!?]["'”’)\]]*)\s+(?=["“(]?\p{Lu})/u;

/** Splits plain text into sentences (lines are boundaries too). */
export function splitPlainSentences(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(SENTENCE_END))
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/**
 * The sentences of an answer's markdown, without citation markers and markdown syntax: each line (heading, list
 * item, paragraph line) is split at sentence ends; horizontal rules, fences and table separators are dropped.
 */
export function answerSentences(markdown: string): string[] {
  const lines = normalizeText(stripCitations(markdown))
    .split(/\r?\n/)
    .filter(
      (l) => !/^\s*(?:[-*_]\s*){3,}$/.test(l) && !/^\s*(?:```|~~~)/.test(l) && !/^\s*\|?[\s:|-]+\|[\s:|-]*$/.test(l),
    )
    .map(plainLine)
    .filter((l) => l !== "");
  return splitPlainSentences(lines.join("\n"));
}

/** Share of the quote's distinct words that occur in `text` (1 for a quote without words). */
export function quoteCoverage(quote: string, text: string): number {
  const want = wordSet(quote);
  if (want.size === 0) return 1;
  const have = wordSet(text);
  let n = 0;
  for (const w of want) if (have.has(w)) n++;
  return n / want.size;
}

export interface QuoteMatch {
  met: boolean;
  /** Best coverage of the quote's words by one sentence (or run of sentences, see quoteInAnswer). */
  coverage: number;
  /** The sentence(s) with the best coverage. */
  sentence: string | null;
}

/**
 * Is the quote in the answer: does a sentence of the answer hold ≥ `threshold` of the quote's distinct words? A quote
 * of k sentences (evidence may span two) is compared with every run of up to k consecutive sentences of the answer.
 */
export function quoteInAnswer(quote: string, markdown: string, threshold = QUOTE_COVERAGE): QuoteMatch {
  const sentences = answerSentences(markdown);
  const k = Math.max(1, splitPlainSentences(normalizeText(quote)).length);
  let best: QuoteMatch = { met: false, coverage: 0, sentence: null };
  for (let i = 0; i < sentences.length; i++) {
    for (let j = i + 1; j <= Math.min(sentences.length, i + k); j++) {
      const text = sentences.slice(i, j).join(" ");
      const coverage = quoteCoverage(quote, text);
      if (coverage > best.coverage) best = { met: false, coverage, sentence: text };
    }
  }
  // integer comparison so that 4 of 5 words is exactly 80 %
  const size = wordSet(quote).size;
  const needed = Math.ceil(threshold * size - 1e-9);
  best.met = best.sentence !== null && Math.round(best.coverage * size) >= needed;
  return best;
}

/** Is any of a question's evidence quotes in the answer (the best match over the quotes). */
export function evidenceInAnswer(
  quotes: string[],
  markdown: string,
  threshold = QUOTE_COVERAGE,
): QuoteMatch & { quote: number } {
  let best: QuoteMatch & { quote: number } = { met: false, coverage: 0, sentence: null, quote: -1 };
  quotes.forEach((q, i) => {
    const m = quoteInAnswer(q, markdown, threshold);
    if ((m.met && !best.met) || (m.met === best.met && m.coverage > best.coverage)) best = { ...m, quote: i };
  });
  return best;
}

/** Run outcomes that decline a question: no papers or no passages found, or passages that never mention its subject. */
export const DECLINING_ERRORS = ["no_papers", "no_content", "no_answer"] as const;

export interface RunOutcome {
  status: string;
  errorCode?: string | null;
  citations: number;
  /** Set when the orchestrator itself marks the answer as declining the question. */
  declined?: boolean;
}

/**
 * Did the run decline (no cited answer)? A failure because nothing was found, an answer without citations, or an
 * answer marked as declining. Other failures (timeout, internal error, …) are not a decline.
 */
export function declinedRun(run: RunOutcome): "no_sources" | "no_citations" | "marked" | null {
  if (run.status === "completed") {
    if (run.declined) return "marked";
    return run.citations === 0 ? "no_citations" : null;
  }
  if (run.status === "failed" && (DECLINING_ERRORS as readonly string[]).includes(run.errorCode ?? "")) {
    return "no_sources";
  }
  return null;
}

/** z for a two-sided 95 % interval. */
export const Z95 = 1.959963984540054;

/** Wilson score interval of k successes in n; null when n is 0. */
export function wilson(k: number, n: number, z = Z95): { low: number; high: number } | null {
  if (n <= 0) return null;
  if (k < 0 || k > n) throw new RangeError(`wilson: ${k} of ${n}`);
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { low: k === 0 ? 0 : Math.max(0, center - half), high: k === n ? 1 : Math.min(1, center + half) };
}

export interface Share {
  k: number;
  n: number;
  /** k / n, or null when n is 0. */
  share: number | null;
  /** The 95 % Wilson interval. */
  low: number | null;
  high: number | null;
}

export function shareOf(k: number, n: number): Share {
  const ci = wilson(k, n);
  return { k, n, share: n === 0 ? null : k / n, low: ci?.low ?? null, high: ci?.high ?? null };
}

/** `7/18 39% [20–61]`, or `—` for an empty share. */
export function formatShare(s: Share): string {
  if (s.n === 0 || s.share === null || s.low === null || s.high === null) return "—";
  const pct = (x: number) => Math.round(x * 100);
  return `${s.k}/${s.n} ${pct(s.share)}% [${pct(s.low)}–${pct(s.high)}]`;
}
