import { tokenize } from "@/lib/text/terms";

/**
 * Emphasis of query words in result passages, and the excerpt of a passage worth showing first. Words are compared
 * by their light stems (the offline embedder's tokenizer: lower-case, NFKC, stop words dropped), so "ranking" in a
 * query marks "ranked" and "ranks" in a passage. An approximation of the full-text index's English stemmer, for the
 * eye only: nothing here decides what matches.
 */

export interface TermMatcher {
  /** The stems of the query's content words. */
  readonly stems: ReadonlySet<string>;
  /** The query's stem a word matches, or null. */
  match(word: string): string | null;
}

export interface TextSegment {
  text: string;
  match: boolean;
}

export interface Span {
  start: number;
  end: number;
}

/** Runs of letters, combining marks and digits: the same words as the query parser's. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** What may join two marked words into one mark: one space or hyphen. */
const JOINER = /^[ \-‐‑]$/;

/** Shorter stems than this only match exactly ("ran" must not mark "rank"). */
const MIN_PREFIX = 4;
/** A prefix match may add at most this many characters ("fusion" marks "fused" via "fus", not "fusillade"). */
const MAX_EXTRA = 4;

function stemOf(word: string): string | null {
  return tokenize(word)[0] ?? null;
}

/**
 * The matcher of a search's words as it looked for them: the query's, and the library's words it searched for a
 * misspelt or British one ("atention" marks "attention"; the query's own word still marks itself).
 */
export function searchedMatcher(query: string, respelled: readonly { searched: string }[] = []): TermMatcher {
  return termMatcher([query, ...respelled.map((r) => r.searched)].join(" "));
}

export function termMatcher(query: string): TermMatcher {
  const stems = new Set(tokenize(query));
  const cache = new Map<string, string | null>();
  const match = (word: string): string | null => {
    const cached = cache.get(word);
    if (cached !== undefined) return cached;
    const s = stemOf(word);
    let found: string | null = null;
    if (s) {
      if (stems.has(s)) found = s;
      else {
        for (const q of stems) {
          const [short, long] = q.length <= s.length ? [q, s] : [s, q];
          if (short.length >= MIN_PREFIX && long.length - short.length <= MAX_EXTRA && long.startsWith(short)) {
            found = q;
            break;
          }
        }
      }
    }
    cache.set(word, found);
    return found;
  };
  return { stems, match };
}

/** `text` cut into plain and matching runs, in order; joined back they give `text`. */
export function emphasize(text: string, matcher: TermMatcher): TextSegment[] {
  const out: TextSegment[] = [];
  const push = (s: string, match: boolean) => {
    if (!s) return;
    const last = out[out.length - 1];
    if (last && last.match === match) last.text += s;
    else out.push({ text: s, match });
  };
  if (matcher.stems.size === 0) {
    push(text, false);
    return out;
  }
  let pos = 0;
  let lastMatchEnd = -1;
  for (const m of text.matchAll(WORD)) {
    if (!matcher.match(m[0])) continue;
    const gap = text.slice(pos, m.index);
    // "dot-product attention" reads as one phrase: a space or hyphen between two marked words is marked too
    push(gap, pos === lastMatchEnd && JOINER.test(gap));
    push(m[0], true);
    pos = m.index + m[0].length;
    lastMatchEnd = pos;
  }
  push(text.slice(pos), false);
  return out;
}

/** Sentence spans of `text`: ends at `.`, `!` or `?` (with closing quotes or brackets) followed by white space. */
export function sentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  const END = /[.!?]["'”’)\]]*(?=\s)/g;
  let start = 0;
  for (const m of text.matchAll(END)) {
    const end = m.index + m[0].length;
    spans.push({ start, end });
    start = end;
  }
  if (start < text.length) spans.push({ start, end: text.length });
  return spans.map(trimSpan(text)).filter((s) => s.end > s.start);
}

function trimSpan(text: string) {
  return ({ start, end }: Span): Span => {
    while (start < end && /\s/.test(text[start] as string)) start++;
    while (end > start && /\s/.test(text[end - 1] as string)) end--;
    return { start, end };
  };
}

/** Distinct query stems in `text[span]`, plus a little for repeats. */
function scoreSpan(text: string, span: Span, matcher: TermMatcher): number {
  const seen = new Set<string>();
  let hits = 0;
  for (const m of text.slice(span.start, span.end).matchAll(WORD)) {
    const s = matcher.match(m[0]);
    if (s) {
      seen.add(s);
      hits++;
    }
  }
  return seen.size + 0.1 * hits;
}

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{L}\p{M}\p{N}]/u.test(ch);
}

/**
 * The part of a passage to show first: the sentence with the most query words, grown by its neighbours while it fits
 * in `maxChars`; a sentence longer than that is cut around its first query word. Without any query word, the
 * passage's opening. Offsets are into `text`, so the excerpt can be highlighted in the PDF.
 */
export function bestExcerpt(text: string, matcher: TermMatcher, maxChars = 360): Span {
  const spans = sentenceSpans(text);
  if (spans.length === 0) return { start: 0, end: 0 };
  let best = 0;
  let bestScore = 0;
  spans.forEach((span, i) => {
    const s = scoreSpan(text, span, matcher);
    if (s > bestScore) {
      best = i;
      bestScore = s;
    }
  });
  const sentence = spans[best] as Span;
  if (sentence.end - sentence.start > maxChars) return cutAround(text, sentence, matcher, maxChars);
  let lo = best;
  let hi = best;
  // grow forwards first (what follows a sentence usually explains it), then backwards
  for (;;) {
    const from = (spans[lo] as Span).start;
    const to = (spans[hi] as Span).end;
    const next = spans[hi + 1];
    const prev = spans[lo - 1];
    if (next && next.end - from <= maxChars) hi++;
    else if (prev && to - prev.start <= maxChars) lo--;
    else break;
  }
  return { start: (spans[lo] as Span).start, end: (spans[hi] as Span).end };
}

/** At most `maxChars` of a long sentence, starting a little before its first query word, cut at word boundaries. */
function cutAround(text: string, sentence: Span, matcher: TermMatcher, maxChars: number): Span {
  let anchor = sentence.start;
  for (const m of text.slice(sentence.start, sentence.end).matchAll(WORD)) {
    if (matcher.match(m[0])) {
      anchor = sentence.start + m.index;
      break;
    }
  }
  let start = Math.max(sentence.start, anchor - Math.floor(maxChars / 4));
  while (start < anchor && isWordChar(text[start - 1])) start++;
  let end = Math.min(sentence.end, start + maxChars);
  if (end < sentence.end) while (end > start + 1 && isWordChar(text[end])) end--;
  return trimSpan(text)({ start, end });
}
