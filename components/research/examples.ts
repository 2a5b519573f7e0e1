/**
 * Example questions made from the user's own papers, so that every suggestion has an answer in the library: what a
 * paper found, how it works, and how two papers compare.
 */

export interface ExamplePaper {
  title: string;
}

/** Titles longer than this are cut at a word (a question should fit on a chip). */
const MAX_TITLE_CHARS = 56;

/**
 * A title fit for a question: single-spaced, without a trailing full stop, its subtitle dropped when the main title
 * says enough on its own (`LOGIC-LM: Empowering…` keeps its subtitle), cut at a word when still long.
 */
export function shortTitle(title: string, max = MAX_TITLE_CHARS): string {
  let clean = title
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.:;,]+$/, "");
  const colon = clean.indexOf(": ");
  if (colon > 0 && clean.slice(0, colon).split(" ").length >= 3) clean = clean.slice(0, colon);
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const at = cut.lastIndexOf(" ");
  return `${(at > max / 2 ? cut.slice(0, at) : cut).replace(/[\s,:;.-]+$/, "")}…`;
}

/** Titles that are really file names or placeholders make poor questions. */
function usableTitle(title: string): boolean {
  const t = title.trim();
  return t.length >= 8 && /\p{L}{3}/u.test(t) && !/\.pdf$/i.test(t) && t.toLowerCase() !== "untitled";
}

/** Up to `count` questions from the papers, in the order given (newest first, as the library lists them). */
export function exampleQuestions(papers: readonly ExamplePaper[], count = 3): string[] {
  const titles: string[] = [];
  for (const p of papers) {
    if (!usableTitle(p.title)) continue;
    const t = shortTitle(p.title);
    if (!titles.includes(t)) titles.push(t);
    if (titles.length >= 3) break;
  }
  const [a, b, c] = titles;
  if (!a) return [];
  const out = [`What are the main findings of “${a}”?`];
  if (b) out.push(`How does “${a}” compare with “${b}”?`);
  out.push(`What method does “${c ?? b ?? a}” propose, and how is it evaluated?`);
  if (!b) out.push(`What are the limitations discussed in “${a}”?`);
  return out.slice(0, count);
}
