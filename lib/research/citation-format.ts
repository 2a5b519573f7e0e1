/**
 * The citation syntax of answers, `[PAPER_ID, page N]` (also `[arXiv:ID p.N]`, `[ID, p. N]`, several separated by `;`).
 * Dependency-free so the browser can use it to render citation chips.
 */

/** One citation as written: `[1706.03762v5, page 4]`, `[arXiv:1706.03762 p.4]`, `[ID, p. 4]`; `;` separates several. */
export interface CitationMarker {
  marker: string;
  paperId: string;
  page: number;
  /** Offset of the bracket in the text. */
  at: number;
}

export const BRACKET = /\[([^[\]\n]{3,400})\]/g;
const ONE =
  /^\s*(?:arxiv:\s*)?([A-Za-z0-9][A-Za-z0-9._\-/]*?)\s*(?:,\s*(?:page|pages|pg\.?|p\.)\s*|\s+(?:page|p\.)\s*)(\d{1,5})\s*$/i;

/** Finds the citations in a text. Brackets that are not citations (`[1]`, `[see above]`) are ignored. */
export function parseCitations(text: string): CitationMarker[] {
  const out: CitationMarker[] = [];
  for (const m of text.matchAll(BRACKET)) {
    const inner = m[1] as string;
    for (const part of inner.split(";")) {
      const c = ONE.exec(part);
      if (!c) continue;
      out.push({ marker: m[0], paperId: c[1] as string, page: Number(c[2]), at: m.index ?? 0 });
    }
  }
  return out;
}

/** True when a bracket looks like an attempted citation that does not parse (reported as a warning). */
export function malformedCitations(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(BRACKET)) {
    const inner = m[1] as string;
    if (!/(^|;)\s*(arxiv:\s*)?[A-Za-z0-9][\w.\-/]*\s*,?\s*(page|pages|p\.)\s*\S/i.test(inner)) continue;
    if (inner.split(";").some((part) => !ONE.test(part))) out.push(m[0]);
  }
  return out;
}

/** Paper ids compare without case and arXiv version: the model may drop `v5`. */
export function sameId(a: string, b: string): boolean {
  const strip = (s: string) =>
    s
      .trim()
      .toLowerCase()
      .replace(/^arxiv:/, "")
      .replace(/v\d+$/, "");
  return strip(a) === strip(b);
}
