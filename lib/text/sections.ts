/**
 * Section headings of a paper, found in its extracted page text, so each passage can carry the section it is (mostly) in
 * (shown with search results: "4 Methodology › 4.2 Crawler") and the paper page can show a table of contents. Not
 * part of the passage's search text: as a contextual header like the title it moved no retriever beyond noise
 * (docs/benchmarks.md).
 *
 * A candidate heading is a line of its own: a section number and a short title that starts with a capital and is not
 * a sentence, a reference or a table-of-contents entry with dot leaders. Numbered list items, footnotes, affiliations
 * and tables of contents still look like headings, so:
 * - three or more candidates on consecutive lines of a page are a list or a table of contents, not sections (which
 *   have text between them);
 * - of the rest, the headings kept are the longest run whose numbers follow each other in reading order — each the
 *   next sibling at some level or a first child of the one before (3 → 3.1, 3.2 → 3.3, 3.2 → 4.1), one missing
 *   heading tolerated (3 → 3.2, 3 → 5) — and, between runs as long, the one with the shorter titles, then the later
 *   one (a page-one footnote "2 Work done during an internship at Google" loses to "2 Related Work");
 * - a run of one is no numbering (a stray "1 Department of Computer Science"), except an appendix named in words.
 * The body (up to the references) may be numbered in Arabic numerals or IEEE-style Roman ones with "A."-lettered
 * subsections; the appendices after the references with letters ("A", "B.1", "Appendix C: Prompts") or numbers.
 * "Abstract", "References", "Acknowledgements" and "Appendix" lines are headings without a number; the abstract
 * reaches no further than its own page (a paper whose other headings were not found is not all "Abstract"). Linear in
 * the lines of the paper.
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

type Style = "arabic" | "roman" | "letter";

interface Candidate {
  page: number;
  offset: number;
  numbering: string;
  title: string;
  /** Components of the number; letters and Roman numerals as their values (A = 1, IV = 4). */
  number: number[];
  style: Style;
  /** A Roman-style body's "A." subsection: its number's first component is the Roman section before it. */
  letteredSub?: boolean;
  /** An appendix named in words ("Appendix A: Prompts"): a heading even alone. */
  named?: boolean;
  /** Index of its line in the paper (consecutive candidates are lists or tables of contents). */
  line: number;
  /** After the references: an appendix heading, if anything. */
  appendix: boolean;
}

interface Marker {
  page: number;
  offset: number;
  /** Empty: the end of the abstract's reach (the start of the page after it, when no heading came first). */
  title: string;
}

const ARABIC = /^(\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+(\p{Lu}.{1,90})$/u;
const LETTERED = /^([A-Z](?:\.\d{1,2}){0,3})\.?\s+(\p{Lu}.{1,90})$/u;
/** An appendix named in words: "Appendix A: Prompts", "APPENDIX B Details". */
const APPENDIX = /^(?:Appendix|APPENDIX)\s+([A-Z](?:\.\d{1,2}){0,3})(?:\s*[:.\-–—]\s*|\s+)(\p{Lu}.{1,90})$/u;
/** IEEE style: "II. RELATED WORK" (the dot required), then "A. Naive RAG" inside it. */
const ROMAN = /^(?=[IVX])(X{0,3}(?:IX|IV|V?I{0,3}))\.\s+(\p{Lu}.{1,90})$/u;
const LETTERED_SUB = /^([A-Z])\.\s+(\p{Lu}.{1,90})$/u;
const UNNUMBERED = /^(abstract|references|bibliography|acknowledge?ments?|appendix|appendices)\s*:?$/i;
const REFERENCES = /^(references|bibliography)$/i;
const MAX_TITLE_WORDS = 12;
export const SECTION_SEPARATOR = " › ";

function romanValue(r: string): number {
  const values: Record<string, number> = { I: 1, V: 5, X: 10 };
  let total = 0;
  for (let i = 0; i < r.length; i++) {
    const v = values[r[i] as string] as number;
    total += v < (values[r[i + 1] as string] ?? 0) ? -v : v;
  }
  return total;
}

function components(numbering: string): number[] {
  return numbering.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part.charCodeAt(0) - 64));
}

/** Does heading number `next` follow `prev` (null: nothing before it), one missing heading tolerated? */
export function followsInSequence(prev: number[] | null, next: number[]): boolean {
  if (next.length === 0 || next.some((n) => n < 1)) return false;
  // a paper's first heading: 1, 1.1, 2 or 2.1 (the one before it missed)
  if (prev === null) return next.length <= 2 && next.every((n) => n <= 2);
  // a first child (or the second, the first missed): 3 → 3.1, 3.1 → 3.1.1, 3 → 3.2
  if (next.length === prev.length + 1 && prev.every((n, i) => next[i] === n)) return (next.at(-1) as number) <= 2;
  // the next sibling at some level (or the one after, one missed), optionally opening its first child:
  // 3.2 → 3.3, 3.2 → 4, 3.2 → 4.1, 3 → 5
  for (let level = 0; level < prev.length; level++) {
    const step = (next[level] as number) - (prev[level] as number);
    if (step === 1 || step === 2) {
      const below = next.slice(level + 1);
      return below.length <= 1 && below.every((n) => n === 1);
    }
    if (step !== 0) return false;
  }
  return false;
}

function looksLikeTitle(title: string, afterReferences: boolean): boolean {
  if (/[.,;:]$/.test(title)) return false;
  // an author list ("Alec Radford, Karthik Narasimhan, Tim Salimans"); a title may list two or three things
  if ((title.match(/,/g) ?? []).length > (afterReferences ? 1 : 2)) return false;
  // a wrapped reference line with initials ("B. Zoph and Q. Le")
  if (afterReferences && /\b\p{Lu}\.\s/u.test(title)) return false;
  // a sentence or a reference ("Anthropic. 2024. The claude 3 model family"; "vs. " and "al. " are not sentence
  // ends), a table-of-contents entry with dot leaders, a quotation
  if (/\p{Ll}{3,}\.\s/u.test(title) || /\d{4}\.\s/.test(title) || /\.{3,}\s*\d+$/.test(title) || /["“”]/.test(title))
    return false;
  if (title.split(/\s+/).length > MAX_TITLE_WORDS) return false;
  // mostly letters, not a row of a table
  const letters = title.replace(/[^\p{L}]/gu, "").length;
  return letters >= 3 && letters >= title.replace(/\s/g, "").length * 0.6;
}

/** A run's standing: longer first, then fewer title words; on equal terms the later run (the larger index). */
interface Standing {
  length: number;
  words: number;
  index: number;
}

function outranks(a: Standing, b: Standing | undefined): boolean {
  return (
    !b ||
    a.length > b.length ||
    (a.length === b.length && (a.words < b.words || (a.words === b.words && a.index > b.index)))
  );
}

/**
 * The longest run of candidates, in reading order, each following the one before in sequence (followsInSequence).
 * Between runs as long, the one with the shorter titles (a heading names a section; footnotes and affiliations say
 * more), then the one with the later headings (a table of contents comes before the sections it lists). A run of one
 * is no evidence of a numbering (a stray "1 Department of Computer Science"), except an appendix named in words.
 * Linear in the candidates: a heading's possible predecessors are found by their number's prefix.
 */
function longestSequence(cands: Candidate[]): Candidate[] {
  // best run ending at a candidate whose number is exactly / starts with a key
  const exact = new Map<string, Standing>();
  const byPrefix = new Map<string, Standing>();
  const before: number[] = [];
  let end: Standing | undefined;
  cands.forEach((c, i) => {
    const n = c.number;
    const words = c.title.split(/\s+/).length;
    const options: (Standing | undefined)[] = [];
    // a first or second child of n[:-1]
    if (n.length >= 2 && (n.at(-1) as number) <= 2) options.push(exact.get(n.slice(0, -1).join(".")));
    // the next sibling (or the one after) of anything under n[:level] + [n[level] - 1 or - 2], when what follows
    // n[level] is at most a first child
    for (let level = 0; level < n.length; level++) {
      const below = n.slice(level + 1);
      if (below.length > 1 || below.some((x) => x !== 1)) continue;
      for (const step of [1, 2]) {
        const prev = (n[level] as number) - step;
        if (prev >= 1) options.push(byPrefix.get([...n.slice(0, level), prev].join(".")));
      }
    }
    let best: Standing | undefined = followsInSequence(null, n) ? { length: 1, words, index: i } : undefined;
    let from = -1;
    for (const o of options) {
      if (!o) continue;
      const via = { length: o.length + 1, words: o.words + words, index: i };
      if (outranks(via, best) || (best && via.length === best.length && via.words === best.words && from < o.index)) {
        best = via;
        from = o.index;
      }
    }
    before.push(from);
    if (!best) return;
    const key = n.join(".");
    if (outranks(best, exact.get(key))) exact.set(key, best);
    for (let k = 1; k <= n.length; k++) {
      const prefix = n.slice(0, k).join(".");
      if (outranks(best, byPrefix.get(prefix))) byPrefix.set(prefix, best);
    }
    if (outranks(best, end)) end = best;
  });
  if (!end) return [];
  const out: Candidate[] = [];
  for (let i = end.index; i >= 0; i = before[i] as number) out.push(cands[i] as Candidate);
  out.reverse();
  return out.length >= 2 || out[0]?.named ? out : [];
}

/** The longer of the runs of each numbering style. */
function bestOfStyles(runs: Candidate[][]): Candidate[] {
  return runs.reduce((a, b) => (b.length > a.length ? b : a), []);
}

/**
 * Drops runs of three or more candidates on consecutive lines of a page: a list or a table of contents, not sections
 * (which have text between them).
 */
function withoutBlocks(cands: Candidate[]): Candidate[] {
  const keep = cands.map(() => true);
  let start = 0;
  for (let i = 1; i <= cands.length; i++) {
    const a = cands[i - 1] as Candidate;
    const b = cands[i];
    if (b && b.page === a.page && b.line === a.line + 1) continue;
    if (i - start >= 3) for (let j = start; j < i; j++) keep[j] = false;
    start = i;
  }
  return cands.filter((_, i) => keep[i]);
}

/** The section headings of a paper's pages, in reading order. */
export function findSectionHeadings(pages: { pageNumber: number; text: string }[]): SectionHeading[] {
  const markers: Marker[] = [];
  const candidates: Candidate[] = [];
  let lastRoman: number | null = null;
  let pastReferences = false;
  let line = -1;
  for (const { pageNumber: page, text } of [...pages].sort((a, b) => a.pageNumber - b.pageNumber)) {
    let offset = 0;
    for (const raw of text.split("\n")) {
      const at = offset;
      offset += raw.length + 1;
      line++;
      const trimmed = raw.trim();
      if (trimmed.length < 3 || trimmed.length > 100) continue;
      const plain = UNNUMBERED.exec(trimmed);
      if (plain) {
        const word = plain[1] as string;
        markers.push({ page, offset: at, title: word[0]?.toUpperCase() + word.slice(1).toLowerCase() });
        if (REFERENCES.test(word)) pastReferences = true;
        continue;
      }
      const push = (c: Omit<Candidate, "page" | "offset" | "line" | "appendix">) => {
        if (looksLikeTitle(c.title, pastReferences))
          candidates.push({ page, offset: at, line, appendix: pastReferences, ...c });
      };
      if (!pastReferences) {
        const roman = ROMAN.exec(trimmed);
        const sub = LETTERED_SUB.exec(trimmed);
        const arabic = ARABIC.exec(trimmed);
        let title: string | null = null;
        if (roman?.[1]) {
          lastRoman = romanValue(roman[1]);
          title = (roman[2] as string).trim();
          push({ numbering: roman[1], title, number: [lastRoman], style: "roman" });
        } else if (sub && lastRoman !== null) {
          const letter = sub[1] as string;
          title = (sub[2] as string).trim();
          push({
            numbering: letter,
            title,
            number: [lastRoman, letter.charCodeAt(0) - 64],
            style: "roman",
            letteredSub: true,
          });
        } else if (arabic) {
          const numbering = arabic[1] as string;
          title = (arabic[2] as string).trim();
          push({ numbering, title, number: components(numbering), style: "arabic" });
        }
        // a numbered "7 References" or "VI. REFERENCES" ends the body too
        if (title !== null && REFERENCES.test(title)) pastReferences = true;
        continue;
      }
      const named = APPENDIX.exec(trimmed);
      const lettered = named ?? LETTERED.exec(trimmed);
      const arabic = ARABIC.exec(trimmed);
      if (lettered) {
        const numbering = (lettered[1] as string).toUpperCase();
        push({
          numbering,
          title: (lettered[2] as string).trim(),
          number: components(numbering),
          style: "letter",
          named: !!named,
        });
      } else if (arabic) {
        const numbering = arabic[1] as string;
        push({ numbering, title: (arabic[2] as string).trim(), number: components(numbering), style: "arabic" });
      }
    }
  }
  const kept = withoutBlocks(candidates);
  const body = kept.filter((c) => !c.appendix);
  const appendix = kept.filter((c) => c.appendix);
  const numbered = [
    ...bestOfStyles([
      longestSequence(body.filter((c) => c.style === "arabic")),
      longestSequence(body.filter((c) => c.style === "roman")),
    ]),
    ...bestOfStyles([
      longestSequence(appendix.filter((c) => c.style === "letter")),
      longestSequence(appendix.filter((c) => c.style === "arabic")),
    ]),
  ];
  const all: (Candidate | Marker)[] = [...numbered, ...markers].sort((a, b) => a.page - b.page || a.offset - b.offset);
  // the abstract reaches to the next heading, but not past its own page (a paper whose other headings were not
  // found would otherwise be all "Abstract")
  const ends: Marker[] = [];
  all.forEach((h, i) => {
    if ("number" in h || h.title !== "Abstract") return;
    const next = all[i + 1];
    if (!next || next.page > h.page) ends.push({ page: h.page + 1, offset: 0, title: "" });
  });
  all.push(...ends);
  all.sort((a, b) => a.page - b.page || a.offset - b.offset);
  const out: SectionHeading[] = [];
  let open: { number: number[]; label: string }[] = [];
  for (const h of all) {
    if (!("number" in h)) {
      out.push({ page: h.page, offset: h.offset, numbering: "", title: h.title, path: h.title ? [h.title] : [] });
      open = [];
      continue;
    }
    const label = `${h.numbering} ${h.title}`;
    // the enclosing sections: the open headings whose numbers this one's extends
    open = open.filter((o) => o.number.length < h.number.length && o.number.every((n, i) => h.number[i] === n));
    out.push({
      page: h.page,
      offset: h.offset,
      numbering: h.numbering,
      title: h.title,
      path: [...open.map((o) => o.label), label],
    });
    open.push({ number: h.number, label });
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
  return heading && heading.path.length > 0 ? heading.path.join(SECTION_SEPARATOR) : null;
}

/**
 * Each page chunk's section label, from the paper's pages: the section that holds most of the chunk's text (the
 * earlier one on a tie). A chunk that starts in the last lines of one section and goes on under the next heading is
 * labelled with the next: the section its text is mostly about, and the one its excerpt usually shows.
 */
export function sectionsOf(
  pages: { pageNumber: number; text: string }[],
  chunks: { pageNumber: number; charStart: number; charEnd: number }[],
): (string | null)[] {
  const headings = findSectionHeadings(pages);
  return chunks.map((c) => {
    let best = sectionAt(headings, c.pageNumber, c.charStart);
    let from = c.charStart;
    let bestLength = -1;
    let current = best;
    // the headings that start inside the chunk cut it into spans, each in one section
    const inside = headings.filter((h) => h.page === c.pageNumber && h.offset > c.charStart && h.offset < c.charEnd);
    for (const h of [...inside, null]) {
      const to = h ? h.offset : c.charEnd;
      if (to - from > bestLength) {
        bestLength = to - from;
        best = current;
      }
      from = to;
      current = h;
    }
    return sectionLabel(best);
  });
}
