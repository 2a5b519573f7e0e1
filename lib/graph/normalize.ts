/**
 * Text normalisation for the graph: the canonical key of an entity name, and finding a quote in page text whatever
 * the PDF did to its whitespace, hyphenation and ligatures, with the offsets of the match in the original text.
 */

const DASHES = /[\u2010-\u2015\u2212\u00ad]/g;
const HYPHEN = /^[-\u2010\u2011\u2212]$/;
/** After a hyphen: space with one line break at most, then a word that is not a conjunction ("BERT- and GPT-based"). */
export const BROKEN_NAME_RIGHT = /^[^\S\n]*\n?[^\S\n]*(?!(?:and|or|nor|to|vs|versus)\b)[\p{L}\p{N}]/u;

/**
 * The lookup key of an entity name: Unicode-folded (NFKC), lower case, dashes, underscores and whitespace folded to
 * one space, a leading article and surrounding punctuation dropped. "The Transformer" and "transformer" share it;
 * "Lucene-BM25" and "Lucene BM25" too. Parenthesised qualifiers stay ("attention (mechanism)" ≠ "attention").
 */
export function canonicalName(name: string): string {
  return name
    .normalize("NFKC")
    .replace(DASHES, "-")
    .toLowerCase()
    .replace(/[-_/\s]+/g, " ")
    .replace(/^[\s"'“‘(,.;:]+|[\s"'”’),.;:]+$/g, "")
    .replace(/^(?:the|a|an|our) /, "")
    .trim();
}

/** Normalised text with, for each of its characters, the index of the original character it came from. */
export interface MappedText {
  text: string;
  map: number[];
}

/**
 * Folds text for matching: NFKC per character (ligatures "ﬁ" → "fi"), dashes unified, a hyphen at a line end
 * joined ("retrie-\nval" → "retrieval"), space on one side of a hyphen between two words dropped ("LLaMA-\n7B",
 * "English-to\n-German", "GPT- 4o": a name the PDF's text broke at its hyphen; "a - b" keeps its spaces), every
 * other whitespace run one space, lower case.
 */
export function foldForMatch(text: string): MappedText {
  const out: string[] = [];
  const map: number[] = [];
  let pendingSpace = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      // "LLaMA-\n7B", "GPT- 4o": a hyphen attached to the word before it and space after it, then a word: one name
      // (a hyphen as written, not a dash; one line break at most; not "BERT- and GPT-based", a shared ending)
      const last = out.length;
      if (
        HYPHEN.test(text[map[last - 1] ?? -1] ?? "") &&
        /[\p{L}\p{N}]/u.test(out[last - 2] ?? "") &&
        BROKEN_NAME_RIGHT.test(text.slice(i, i + 40))
      ) {
        continue;
      }
      if (pendingSpace < 0 && out.length > 0) pendingSpace = i;
      continue;
    }
    // "English-to\n-German": space before a hyphen attached to the word after it, a word before: one name
    if (
      pendingSpace >= 0 &&
      HYPHEN.test(c) &&
      /[\p{L}\p{N}]/u.test(out[out.length - 1] ?? "") &&
      /[\p{L}\p{N}]/u.test(text[i + 1] ?? "") &&
      !/\n[^\S\n]*\n/.test(text.slice(pendingSpace, i))
    ) {
      pendingSpace = -1;
    }
    // "-" then a line break: the word goes on on the next line (drop both)
    if ((c === "-" || c === "\u00ad" || c === "\u2010") && /^[ \t]*\r?\n[ \t]*\S/.test(text.slice(i + 1, i + 40))) {
      const prev = text[i - 1] ?? "";
      if (/\p{L}/u.test(prev)) {
        const nl = text.indexOf("\n", i);
        let j = nl + 1;
        while (j < text.length && /[ \t]/.test(text[j] as string)) j++;
        if (/\p{Ll}/u.test(text[j] ?? "")) {
          i = j - 1;
          pendingSpace = -1;
          continue;
        }
      }
    }
    if (pendingSpace >= 0) {
      out.push(" ");
      map.push(pendingSpace);
      pendingSpace = -1;
    }
    const folded = c.normalize("NFKC").replace(DASHES, "-").toLowerCase();
    for (const f of folded) {
      out.push(f);
      map.push(i);
    }
  }
  return { text: out.join(""), map };
}

/**
 * Where `quote` is in `pageText` after folding both (foldForMatch): the offsets of the matching span in the original
 * page text, or null. When the quote occurs more than once, the occurrence nearest `near` (an offset) wins.
 */
export function locateQuote(
  pageText: string,
  quote: string,
  opts: { folded?: MappedText; near?: number } = {},
): { start: number; end: number } | null {
  const page = opts.folded ?? foldForMatch(pageText);
  const q = foldForMatch(quote).text.trim();
  if (q.length === 0) return null;
  let best: { start: number; end: number } | null = null;
  for (let at = page.text.indexOf(q); at >= 0; at = page.text.indexOf(q, at + 1)) {
    const start = page.map[at] as number;
    const end = (page.map[at + q.length - 1] as number) + 1;
    if (!best || (opts.near !== undefined && Math.abs(start - opts.near) < Math.abs(best.start - opts.near))) {
      best = { start, end };
    }
    if (opts.near === undefined) break;
  }
  return best;
}

/** Does `name` occur in `text` as whole words (both folded)? "BERT" is in "BERT-large" but not in "ROBERTa". */
export function mentionsName(text: string, name: string): boolean {
  const n = foldForMatch(name).text.trim();
  if (n.length === 0) return false;
  const t = foldForMatch(text).text;
  for (let at = t.indexOf(n); at >= 0; at = t.indexOf(n, at + 1)) {
    const before = t[at - 1] ?? " ";
    const after = t[at + n.length] ?? " ";
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
  }
  return false;
}

/** Initials of a multi-word name ("Dense Passage Retriever" → "dpr"), or null for one word. */
export function initialsOf(name: string): string | null {
  const words = name
    .normalize("NFKC")
    .split(/[\s\-_/]+/)
    .filter((w) => /^\p{L}/u.test(w) && !/^(?:of|for|and|the|a|an|from|with|to|in|on|by)$/i.test(w));
  if (words.length < 2) return null;
  return words.map((w) => (w[0] as string).toLowerCase()).join("");
}

/** Is this token written like an acronym ("DPR", "BM25", "GPT-3", "SQuAD")? */
export function looksLikeAcronym(token: string): boolean {
  const t = token.normalize("NFKC");
  if (t.length < 2 || t.length > 12) return false;
  const upper = t.match(/\p{Lu}/gu)?.length ?? 0;
  return upper >= 2 && /^\p{Lu}/u.test(t) && !/\s/.test(t);
}

/**
 * Schwartz & Hearst (2003), "A simple algorithm for identifying abbreviation definitions in biomedical text": the
 * shortest end of `before` (the words preceding "(SHORT)") whose characters contain the short form's letters in order,
 * the first one starting a word. Null when no such long form.
 */
export function longFormFor(short: string, before: string): string | null {
  const s = short.toLowerCase();
  if (!/^\p{L}/u.test(s)) return null;
  const words = before.trimEnd().split(/\s+/);
  // at most min(|short| + 5, 2|short|) words, as the paper sets
  const maxWords = Math.min(short.length + 5, short.length * 2);
  const candidate = words.slice(-maxWords).join(" ");
  const l = candidate.toLowerCase();
  let si = s.length - 1;
  let li = l.length - 1;
  while (si >= 0) {
    const c = s[si] as string;
    if (!/[\p{L}\p{N}]/u.test(c)) {
      si--;
      continue;
    }
    while (li >= 0 && (l[li] !== c || (si === 0 && li > 0 && /[\p{L}\p{N}]/u.test(l[li - 1] as string)))) li--;
    if (li < 0) return null;
    si--;
    li--;
  }
  const start = l.lastIndexOf(" ", li) + 1;
  const long = candidate.slice(start).trim();
  if (long.split(/\s+/).length < 2 && long.length <= short.length) return null;
  return long;
}

/** A space on one side of a hyphen between two word characters: "LLaMA- 7B", "English-to -German". */
const BROKEN_AT_HYPHEN = /[\p{L}\p{N}](?:- | -)[\p{L}\p{N}]/u;

/**
 * Whether `written` should replace a stored entity name of the same canonical name: when the stored one is as a PDF's
 * text broke it at a hyphen ("LLaMA- 7B", kept by builds before names were joined there) and `written` is whole.
 */
export function betterName(written: string, stored: string): boolean {
  return BROKEN_AT_HYPHEN.test(stored) && !BROKEN_AT_HYPHEN.test(written);
}
