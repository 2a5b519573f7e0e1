/**
 * Text clean-up between extraction and chunking. Line structure is kept (one output line per text line) because the
 * chunker and the heading/metadata heuristics work on lines.
 */

const LIGATURES: Record<string, string> = {
  "\ufb00": "ff",
  "\ufb01": "fi",
  "\ufb02": "fl",
  "\ufb03": "ffi",
  "\ufb04": "ffl",
  "\ufb05": "st",
  "\ufb06": "st",
};

// Spacing accents that TeX fonts emit as separate glyphs before the letter they belong on ("O˘guz", "Ma ´nke").
const SPACING_TO_COMBINING: Record<string, string> = {
  "\u00b4": "\u0301", // ´ acute
  "`": "\u0300", // grave
  "\u02c6": "\u0302", // ˆ circumflex
  "\u02dc": "\u0303", // ˜ tilde
  "\u00a8": "\u0308", // ¨ diaeresis
  "\u02d8": "\u0306", // ˘ breve
  "\u02c7": "\u030c", // ˇ caron
  "\u00b8": "\u0327", // ¸ cedilla
  "\u02da": "\u030a", // ˚ ring
  "\u02d9": "\u0307", // ˙ dot above
};

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Lower-cased words of a text, hyphenated compounds whole and as adjacent pairs ("english-to-german", "to-german"). */
export function buildVocabulary(texts: string[]): Set<string> {
  const vocab = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(/[\p{L}\p{N}]+(?:[-\u2010][\p{L}\p{N}]+)*/gu)) {
      const word = m[0].toLowerCase().replace(/\u2010/g, "-");
      vocab.add(word);
      const parts = word.split("-");
      for (let i = 0; i < parts.length; i++) {
        vocab.add(parts[i] as string);
        if (i + 1 < parts.length) vocab.add(`${parts[i]}-${parts[i + 1]}`);
      }
    }
  }
  return vocab;
}

function normaliseChars(raw: string): string {
  let s = raw.replace(/\r\n?/g, "\n");
  s = s.replace(/[\ufb00-\ufb06]/g, (c) => LIGATURES[c] ?? c);
  // zero-width characters and soft hyphens vanish; every other unicode space becomes a plain space
  s = s.replace(/[\u00ad\u200b-\u200d\u2060\ufeff]/g, "");
  // control characters (NUL from some PDF fonts; PostgreSQL rejects it in text) go too, except line breaks and tabs
  s = s.replace(/(?![\t\n\v\f\r])\p{Cc}/gu, "");
  s = s.replace(/[\t\v\f\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g, " ");
  s = s.replace(/\u2010/g, "-");
  // "Ma ´nke" → "Mańke": attach a spacing accent to the next letter when a precomposed letter exists
  s = s.replace(
    /(\p{L})? ?([\u00b4`\u02c6\u02dc\u00a8\u02d8\u02c7\u00b8\u02da\u02d9])(\p{L})/gu,
    (m, before, acc, letter) => {
      const composed = `${letter}${SPACING_TO_COMBINING[acc] ?? ""}`.normalize("NFC");
      if (composed.length !== 1) return m;
      return `${before ?? ""}${composed}`;
    },
  );
  return s;
}

/**
 * Decides whether `head-` at a line end and `tail` at the next line's start are one word broken by hyphenation.
 * The document's own vocabulary decides first: if the joined word occurs elsewhere ("transformers") join; if only the
 * hyphenated compound does ("self-attention") keep the hyphen. Otherwise: join when the tail starts lower-case
 * (typical hyphenation), keep the hyphen before a capital or a digit ("GPT-\n3", "Pre-\nTraining").
 */
function joinHyphenated(head: string, tail: string, vocab: Set<string>): boolean {
  const joined = `${head}${tail}`.toLowerCase();
  const compound = `${head}-${tail}`.toLowerCase();
  const hasJoined = vocab.has(joined);
  const hasCompound = vocab.has(compound);
  if (hasJoined && !hasCompound) return true;
  if (hasCompound && !hasJoined) return false;
  return /^\p{Ll}/u.test(tail) && /\p{L}$/u.test(head);
}

/**
 * Cleans one page: ligatures and unicode spaces normalised, runs of spaces collapsed, lines trimmed, empty lines
 * dropped, and words hyphenated across a line break rejoined (see `joinHyphenated`). A rejoined word is completed on
 * the first line ("transfor-\nmers are" → "transformers\nare"), so the number of lines stays the same.
 * `vocabulary` (from `buildVocabulary` over the whole document) improves the hyphenation decisions; by default the
 * page's own words are used.
 */
export function cleanPageText(raw: string, opts: { vocabulary?: Set<string> } = {}): string {
  const text = normaliseChars(raw);
  const vocab = opts.vocabulary ?? buildVocabulary([text]);
  const lines = text
    .split("\n")
    .map((l) => l.replace(/ {2,}/g, " ").trim())
    .filter((l) => l.length > 0);
  for (let i = 0; i + 1 < lines.length; i++) {
    const line = lines[i] as string;
    const next = lines[i + 1] as string;
    // a word character right before the "-": "high -" is a dash, not hyphenation
    const headMatch = /([\p{L}\p{N}]+)-$/u.exec(line);
    if (!headMatch || !WORD_CHAR.test(next[0] ?? "")) continue;
    const head = headMatch[1] as string;
    const tailMatch = /^[\p{L}\p{N}]+/u.exec(next);
    if (!tailMatch) continue;
    const tail = tailMatch[0];
    // "some-\n3We ignore…": a footnote mark glued to a word starts the next line; nothing to join
    if (/^\d+\p{L}/u.test(tail)) continue;
    const rest = next.slice(tail.length);
    const keepHyphen = !joinHyphenated(head, tail, vocab);
    const base = keepHyphen ? line : line.slice(0, -1);
    if (rest === "-") {
      // the fragment is itself broken again ("extra-\nordi-\nnary"): merge and look at this line once more
      lines[i] = `${base}${tail}-`;
      lines.splice(i + 1, 1);
      i--;
      continue;
    }
    // the tail moves up together with trailing punctuation that belongs to the word ("mers," / "mers.")
    const punct = /^[.,;:!?)\]’'"”]*/u.exec(rest)?.[0] ?? "";
    const remaining = rest.slice(punct.length).trim();
    lines[i] = `${base}${tail}${punct}`;
    if (remaining) lines[i + 1] = remaining;
    else {
      lines.splice(i + 1, 1);
      i--; // the merged line may itself end with a hyphenated word continued on the following line
    }
  }
  return lines.join("\n");
}

/** How many lines at each end of a page may hold running headers and footers. */
const EDGE_LINES = 3;
/** Longer lines are body text (or a table row), never a running line. */
const LONG_LINE = 250;

function edgeIndexes(count: number): number[] {
  const out = new Set<number>();
  for (let i = 0; i < Math.min(EDGE_LINES, count); i++) {
    out.add(i);
    out.add(count - 1 - i);
  }
  return [...out].sort((a, b) => a - b);
}

/** The comparison key of a possible running line: digits → `#`, case folded, whitespace removed. */
export function runningLineKey(line: string): string {
  return line.toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, "");
}

/** A line that is only a page number: `12`, `- 12 -`, `Page 12`, `12 of 30`, `xii`. Returns its value. */
function pageNumberValue(line: string): number | undefined {
  const t = line.trim();
  const m = /^(?:page\s+)?[-–—]?\s*(\d{1,4})\s*[-–—]?(?:\s*(?:of|\/)\s*\d{1,4})?$/i.exec(t);
  if (m) return Number(m[1]);
  return undefined;
}

/**
 * Drops running headers/footers and page numbers. A line is a running line when it is among the first or last
 * three lines of its page and its key (`runningLineKey`) occurs in that position on at least 3 pages and on at least
 * 40% of them (40% rather than half, so headers that alternate between even and odd pages count). Lines up to 250
 * characters qualify, not only short ones: journal footers such as "Downloaded from <url> by guest on <date>" are
 * long, and body text practically never repeats verbatim at the same place on many pages.
 * A bare number at a page edge is a page number when number − page index is the same on at least 3 pages (and 30% of
 * them) — printed numbering that starts anywhere (journal page 4969) still lines up with the physical pages.
 * Headings survive because they occur once: "3 Model Architecture", "References". The top lines of page 1 are never
 * dropped as running lines (only as page numbers): journals repeat the paper's title as the running header, and on
 * page 1 that line is the title itself.
 */
export function removeRunningLines(pages: string[]): string[] {
  const pageLines = pages.map((p) => p.split("\n"));
  const n = pages.length;

  // 1. repeated edge lines
  const pagesWithKey = new Map<string, number>();
  for (const lines of pageLines) {
    const seen = new Set<string>();
    for (const i of edgeIndexes(lines.length)) {
      const line = (lines[i] as string).trim();
      if (!line || line.length > LONG_LINE) continue;
      seen.add(runningLineKey(line));
    }
    for (const k of seen) pagesWithKey.set(k, (pagesWithKey.get(k) ?? 0) + 1);
  }
  const isRunning = (line: string): boolean => {
    const t = line.trim();
    if (!t || t.length > LONG_LINE) return false;
    const key = runningLineKey(t);
    if (/^[#\W]*$/u.test(key)) return false; // bare numbers are judged by the page-number rule below
    const count = pagesWithKey.get(key) ?? 0;
    return count >= 3 && count >= 0.4 * n;
  };

  // 2. page numbers: the most common offset between printed number and physical page
  const offsetCounts = new Map<number, number>();
  pageLines.forEach((lines, p) => {
    const offsets = new Set<number>();
    for (const i of edgeIndexes(lines.length)) {
      const v = pageNumberValue(lines[i] as string);
      if (v !== undefined) offsets.add(v - p);
    }
    for (const o of offsets) offsetCounts.set(o, (offsetCounts.get(o) ?? 0) + 1);
  });
  let bestOffset: number | undefined;
  let bestCount = 0;
  for (const [o, c] of offsetCounts) {
    if (c > bestCount) {
      bestOffset = o;
      bestCount = c;
    }
  }
  const pageNumberOffset = bestCount >= 3 && bestCount >= 0.3 * n ? bestOffset : undefined;

  return pageLines.map((lines, p) => {
    const drop = new Set<number>();
    for (const i of edgeIndexes(lines.length)) {
      const line = lines[i] as string;
      const v = pageNumberValue(line);
      if (v !== undefined && pageNumberOffset !== undefined && v - p === pageNumberOffset) drop.add(i);
      // The top of page 1 is kept: a running header there is often the paper's own title, which is content.
      else if (isRunning(line) && !(p === 0 && i < EDGE_LINES && i < lines.length - EDGE_LINES)) drop.add(i);
    }
    return lines.filter((_, i) => !drop.has(i)).join("\n");
  });
}

/** Cleans every page (with the whole document's vocabulary for hyphenation), then drops running lines. */
export function cleanPages(raw: string[]): string[] {
  const vocabulary = buildVocabulary(raw.map(normaliseChars));
  return removeRunningLines(raw.map((p) => cleanPageText(p, { vocabulary })));
}
