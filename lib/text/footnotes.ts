/**
 * Footnotes in a page's text. pdf.js puts a page's footnotes where the page has them — at its foot, or under a table
 * in mid-page — each opening with its marker glued to its first word ("∗Equal contribution.", "†Work done at …",
 * "4To illustrate …"). A passage cut from the page may start after the marker, inside the footnote ("Listing order is
 * random. Jakob proposed …"): its first sentences are then the footnote's, though nothing in the passage says so.
 */

/** A marker glued to a footnote's first word: a symbol, or a number before a short opening word or a longer word. */
const MARKER = String.raw`(?:[∗*†‡§¶]|\d{1,2}(?=(?:To|In|We|It|As|An|On|Of|At|By|If|Is)\b|\p{Lu}\p{Ll}{2}))\p{Lu}\p{Ll}`;

/** A footnote's start in running text ("∗Equal contribution", "†Work done at", "4To illustrate"; not "16Hz"). */
export const FOOTNOTE_START = new RegExp(String.raw`(?:^|\s)${MARKER}`, "u");

/** A line that opens a footnote. */
const MARKER_LINE = new RegExp(String.raw`^[ \t]*${MARKER}`, "u");

/** A numbered section heading's number and the space after it ("5 Training", "3.2 Attention", "A.1 Data"). */
export const NUMBERED_HEADING = String.raw`(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)+)\.?[ \t]+`;

/** The start of a numbered section heading: its number and the space, at the start of the text. */
export const NUMBERED_HEADING_START = `^${NUMBERED_HEADING}`;

/** A numbered section heading on a line of its own. */
const HEADING = new RegExp(String.raw`${NUMBERED_HEADING_START}\S[^\n]{0,79}$`);

/**
 * The numbers of the page's numbered footnotes ("4To illustrate why …" → "4"): in the body the same number follows
 * the word it annotates ("… extremely small gradients 4. To counteract …"), which a quote should not carry.
 */
export function footnoteNumbers(pageText: string): string[] {
  const out = new Set<string>();
  for (const line of pageText.split("\n")) {
    if (!MARKER_LINE.test(line)) continue;
    const n = /^[ \t]*(\d{1,2})/.exec(line)?.[1];
    if (n) out.add(n);
  }
  return [...out];
}

/**
 * The lower-case words the page runs one of its footnote numbers into ("… the original BERT code15 and …"): a token
 * of a word and such a number that occurs once on the page (a marker does; "llama2" or "log2", which the text repeats
 * or which are no footnote's, mostly do not).
 */
export function gluedFootnoteMarks(pageText: string, numbers: readonly string[]): { word: string; number: string }[] {
  if (numbers.length === 0) return [];
  const counts = new Map<string, { word: string; number: string; n: number }>();
  const re = new RegExp(String.raw`(?<![\p{L}\p{N}])(\p{Ll}{3,})(${numbers.join("|")})(?![\p{L}\p{N}])`, "gu");
  for (const m of pageText.matchAll(re)) {
    const key = m[0];
    const c = counts.get(key) ?? { word: m[1] as string, number: m[2] as string, n: 0 };
    c.n++;
    counts.set(key, c);
  }
  return [...counts.values()].filter((c) => c.n === 1).map(({ word, number }) => ({ word, number }));
}

/** How far before a passage a footnote's marker may be for the passage to start inside it. */
const FOOTNOTE_REACH = 600;

/**
 * Where the footnote that text at `offset` lies in ends (a page offset), or null when it lies in none: a line opening
 * with a footnote marker within the characters just before `offset`, no section heading line between, and `offset`
 * before the end of the note — its first line that ends a sentence (a note's lines are wrapped mid-sentence; the
 * next note or, in a two-column page, the body text resumes on a new line).
 */
export function footnoteEnd(pageText: string, offset: number): number | null {
  const from = Math.max(0, offset - FOOTNOTE_REACH);
  let marker = -1;
  let at = from;
  for (const line of pageText.slice(from, offset).split("\n")) {
    // the window's first line may be cut: it counts only when it starts the page or a line
    const whole = at > from || from === 0 || pageText[from - 1] === "\n";
    if (whole && MARKER_LINE.test(line)) marker = at;
    else if (whole && HEADING.test(line.trim())) marker = -1;
    at += line.length + 1;
  }
  if (marker < 0) return null;
  const end = /[.?!][”"’)]?[ \t]*(?:\n|$)/.exec(pageText.slice(marker));
  const until = end === null ? pageText.length : marker + end.index + end[0].length;
  return offset < until ? until : null;
}
