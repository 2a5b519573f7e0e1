/**
 * Footnotes in a page's text. pdf.js puts a page's footnotes where the page has them, at its foot, each opening with
 * its marker glued to its first word ("∗Equal contribution.", "†Work done at …", "4To illustrate …"). A passage cut
 * from the page may start after the marker, inside the footnote ("Listing order is random. Jakob proposed …"): its
 * first sentences are then the footnote's, though nothing in the passage says so.
 */

/** A footnote's start: a marker glued to a capitalised word ("∗Equal contribution", "†Work done at", "4To illustrate"). */
export const FOOTNOTE_START = /(?:^|\s)(?:[∗*†‡§¶]|\d{1,2}(?=\p{Lu}\p{Ll}))\p{Lu}\p{Ll}/u;

/** A line that opens a footnote. */
const MARKER_LINE = /^[ \t]*(?:[∗*†‡§¶]|\d{1,2}(?=\p{Lu}\p{Ll}))\p{Lu}\p{Ll}/u;

/** A numbered section heading on its own line ("5 Training", "3.2 Attention", "A.1 Data"). */
const HEADING = /^(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)+)\.?[ \t]+\S[^\n]{0,79}$/;

/** How far before a passage a footnote's marker may be for the passage to start inside it. */
const FOOTNOTE_REACH = 600;

/** A marker this close to the page's end opens the page's footnotes, which run to its end. */
const FOOT_OF_PAGE = 1500;

/**
 * Where the footnote that text at `offset` lies in ends (a page offset), or null when it lies in none. A line opening
 * with a footnote marker within the characters just before it, and no section heading line between; the note runs to
 * the page's end when its marker is at the page's foot, else to the end of its first line that ends a sentence (in a
 * two-column page a table's note sits mid-page, with body text right after it).
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
  if (pageText.length - marker <= FOOT_OF_PAGE) return pageText.length;
  const end = /[.?!][”"’)]?[ \t]*\n/.exec(pageText.slice(marker));
  const until = end === null ? pageText.length : marker + end.index + end[0].length;
  return offset < until ? until : null;
}

/** Does text at `offset` on the page lie inside a footnote (`footnoteEnd`)? */
export function inFootnote(pageText: string, offset: number): boolean {
  return footnoteEnd(pageText, offset) !== null;
}
