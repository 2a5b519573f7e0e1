/**
 * Section headings of a paper, found in its extracted page text, so each passage can carry the section it sits in
 * (shown with search results: "4 Methodology › 4.2 Crawler"). Not part of the passage's search text: as a contextual
 * header like the title it moved no retriever beyond noise (docs/benchmarks.md).
 *
 * A heading is a line of its own that starts with a section number ("3", "3.2", "4.1.2"; "A", "B.1" for
 * appendices; "II." with "A." subsections in IEEE style) followed by a short title that starts with a capital and is
 * not a sentence. Numbered list items, references and table-of-contents lines look much the same, so a candidate is
 * only accepted when its number follows the previous heading's in sequence — the next sibling at some level, or a
 * first child: "3.2" after "3.1" or "3", "4" or "4.1" after "3.2", never "6." after "4.5" — with one missing heading
 * tolerated ("3.2" after "3"). Lettered appendix sections count only after the references. "Abstract",
 * "References", "Acknowledgements" and "Appendix" lines are headings without a number.
 */

export interface SectionHeading {
  /** 1-based page. */
  page: number;
  /** Character offset of the heading's line in the page text. */
  offset: number;
  /** The number as printed, without a trailing dot ("3.2", "B.1", "II", "A"); empty for an unnumbered heading. */
  numbering: string;
  /** The heading's own title, e.g. "Scaled Dot-Product Attention". */
  title: string;
  /** This heading and its enclosing ones, outermost first, each as printed: ["3 Model", "3.2 Attention"]. */
  path: string[];
}

const NUMBERED = /^(\d{1,2}|[A-H])((?:\.\d{1,2}){0,3})\.?\s+(\p{Lu}[^\n]{1,90})$/u;
/** IEEE style: "II. RELATED WORK", then "A. Naive RAG" inside it. */
const ROMAN = /^(X?(?:IX|IV|V?I{1,3}|V))\.\s+(\p{Lu}[^\n]{1,90})$/u;
const UNNUMBERED = /^(abstract|references|bibliography|acknowledge?ments?|appendix|appendices)\s*:?$/i;
const MAX_TITLE_WORDS = 12;
/** Separates the levels of a section label. */
const SECTION_SEPARATOR = " › ";

function romanValue(r: string): number {
  const values: Record<string, number> = { I: 1, V: 5, X: 10 };
  let total = 0;
  for (let i = 0; i < r.length; i++) {
    const v = values[r[i] as string] as number;
    total += v < (values[r[i + 1] as string] ?? 0) ? -v : v;
  }
  return total;
}

/** Does `next` follow `prev` in a paper's section numbering (one skipped heading tolerated)? */
export function followsInSequence(prev: number[] | null, next: number[]): boolean {
  if (next.length === 0) return false;
  if (prev === null) return next.length <= 2 && next.every((n) => n <= 2);
  // a first child (or the second, the first missed): 3 → 3.1, 3.1 → 3.1.1, 3 → 3.2
  if (next.length === prev.length + 1 && prev.every((n, i) => next[i] === n)) return (next.at(-1) as number) <= 2;
  // the next sibling at some level, optionally opening its first child: 3.2 → 3.3, 3.2 → 4, 3.2 → 4.1
  for (let level = 0; level < prev.length; level++) {
    if (next[level] === (prev[level] as number) + 1) {
      const below = next.slice(level + 1);
      return below.length <= 1 && below.every((n) => n === 1);
    }
    if (next[level] !== prev[level]) return false;
  }
  return false;
}

function looksLikeTitle(title: string): boolean {
  if (/[.,;:]$/.test(title)) return false;
  // a sentence or a reference ("Anthropic. 2024. The claude 3 model family"), a table-of-contents line ending in its
  // page number, an affiliation line with footnote marks ("University of California 2 MBZUAI"), a quotation
  if (/\.\s/.test(title) || /\s\d+$/.test(title) || /\s\d\s/.test(title) || /["“”]/.test(title)) return false;
  if (title.split(/\s+/).length > MAX_TITLE_WORDS) return false;
  // mostly letters, not a row of a table
  const letters = title.replace(/[^\p{L}]/gu, "").length;
  return letters >= 3 && letters >= title.replace(/\s/g, "").length * 0.6;
}

/** The section headings of a paper's pages, in reading order. */
export function findSectionHeadings(pages: { pageNumber: number; text: string }[]): SectionHeading[] {
  const out: SectionHeading[] = [];
  let prev: number[] | null = null;
  let open: { number: number[]; label: string }[] = [];
  let pastReferences = false;
  let romanStyle = false;
  for (const { pageNumber, text } of [...pages].sort((a, b) => a.pageNumber - b.pageNumber)) {
    let offset = 0;
    for (const line of text.split("\n")) {
      const at = offset;
      offset += line.length + 1;
      const trimmed = line.trim();
      if (trimmed.length < 3 || trimmed.length > 100) continue;
      const plain = UNNUMBERED.exec(trimmed);
      if (plain) {
        const word = plain[1] as string;
        const title = word[0]?.toUpperCase() + word.slice(1);
        out.push({ page: pageNumber, offset: at, numbering: "", title, path: [title] });
        open = [];
        if (/^(references|bibliography)$/i.test(word)) pastReferences = true;
        // the body's numbering runs on past an unnumbered heading; the appendices' starts afresh
        if (pastReferences) prev = null;
        continue;
      }
      let number: number[];
      let numbering: string;
      let title: string;
      const roman = pastReferences ? null : ROMAN.exec(trimmed);
      const arabic = roman ? null : NUMBERED.exec(trimmed);
      if (roman) {
        numbering = roman[1] as string;
        number = [romanValue(numbering)];
        title = (roman[2] as string).trim();
      } else if (arabic) {
        const [, head, rest, rawTitle] = arabic as unknown as [string, string, string, string];
        const lettered = !/\d/.test(head);
        if (lettered && !pastReferences) {
          // inside a body numbered in Roman numerals, "A." is the current section's first subsection
          if (!romanStyle || rest !== "" || prev === null) continue;
          number = [prev[0] as number, head.charCodeAt(0) - 64];
        } else {
          number = [lettered ? head.charCodeAt(0) - 64 : Number(head), ...rest.split(".").filter(Boolean).map(Number)];
        }
        numbering = head + rest;
        title = rawTitle.trim();
      } else continue;
      if (!looksLikeTitle(title) || !followsInSequence(prev, number)) continue;
      open = open.filter((h) => h.number.length < number.length);
      const label = `${numbering} ${title}`;
      out.push({ page: pageNumber, offset: at, numbering, title, path: [...open.map((h) => h.label), label] });
      open.push({ number, label });
      prev = number;
      if (roman) romanStyle = true;
    }
  }
  return out;
}

/**
 * The section a position of the paper is in: the last heading at or before it (a heading inside a passage is in the
 * passage's own text). Null before the first heading.
 */
export function sectionAt(headings: SectionHeading[], page: number, offset: number): SectionHeading | null {
  let found: SectionHeading | null = null;
  for (const h of headings) {
    if (h.page > page || (h.page === page && h.offset > offset)) break;
    found = h;
  }
  return found;
}

/** How a passage's section is stored and shown: its path, outermost first ("4 Methodology › 4.2 Crawler"). */
export function sectionLabel(heading: SectionHeading | null): string | null {
  return heading ? heading.path.join(SECTION_SEPARATOR) : null;
}

/** Each page chunk's section label, from the paper's pages. */
export function sectionsOf(
  pages: { pageNumber: number; text: string }[],
  chunks: { pageNumber: number; charStart: number }[],
): (string | null)[] {
  const headings = findSectionHeadings(pages);
  return chunks.map((c) => sectionLabel(sectionAt(headings, c.pageNumber, c.charStart)));
}
