/**
 * Summary passages are markdown from the summary: sentences as list items ending in their page, `- A claim. (p. 3)`,
 * or plain text (the abstract). These helpers make them readable and link each page to the sentences it backs.
 */

/** A page citation at the end of a sentence: `(p. 3)`, `(pp. 3-4)`, `[p. 5]`. */
const TRAILING_CITATION = /\s*[([]pp?\.\s*(\d+)(?:\s*[-–]\s*\d+)?[)\]]\s*$/;
const ANY_CITATION = /\s*[([]pp?\.\s*\d+(?:\s*[-–]\s*\d+)?[)\]]/g;
const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+/;

export interface SummarySentence {
  text: string;
  /** The page the sentence cites, if it does. */
  page: number | null;
}

/** The passage's sentences (one per line or list item), without bullets, emphasis marks or citations. */
export function summarySentences(markdown: string): SummarySentence[] {
  return markdown
    .split("\n")
    .map((line) => {
      const cited = TRAILING_CITATION.exec(line);
      const text = line
        .replace(BULLET, "")
        .replace(ANY_CITATION, "")
        .replace(/[*_`]+/g, "")
        .replace(/^#+\s*/, "")
        .replace(/\s+/g, " ")
        .trim();
      return { text, page: cited ? Number(cited[1]) : null };
    })
    .filter((s) => s.text.length > 0);
}

/** The passage as plain text to read. */
export function summaryPlainText(markdown: string): string {
  return summarySentences(markdown)
    .map((s) => s.text)
    .join(" ");
}

/** Longest passage put into a viewer link (the viewer finds long runs of words; the URL stays short). */
const MAX_LINK_PASSAGE = 600;

/**
 * For each page of the passage: the text to highlight there — the sentences citing that page, or, when none cites
 * it, the passage's opening.
 */
export function summaryPageLinks(markdown: string, pages: readonly number[]): { page: number; passage: string }[] {
  const sentences = summarySentences(markdown);
  const all = sentences.map((s) => s.text).join(" ");
  return [...new Set(pages)]
    .sort((a, b) => a - b)
    .map((page) => {
      const cited = sentences.filter((s) => s.page === page).map((s) => s.text);
      const passage = cited.length > 0 ? (cited[0] as string) : all;
      return { page, passage: clip(passage, MAX_LINK_PASSAGE) };
    });
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return space > max / 2 ? cut.slice(0, space) : cut;
}
