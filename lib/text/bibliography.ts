import { SECTION_SEPARATOR } from "./sections";

/**
 * Whether a page chunk is part of a paper's list of references rather than its content. A reference list is not what
 * a question about the paper is answered by, and its words are other papers' titles: searched as content it returns
 * lists of titles instead of passages, and fitted into the latent model it teaches co-occurrences of cited titles.
 *
 * A chunk is a reference list when the section most of it is in is the paper's References (or Bibliography) — the
 * section finder (lib/text/sections.ts) — and it reads like one: publication years at least every
 * MIN_YEARS_PER_100_WORDS words. Papers often go on after the references with appendices that the section finder
 * cannot tell apart from them (unnumbered supplementary material, figures, checklists): those have no such density of
 * years and stay content.
 */

/** Years (1950–2049, "2020a" too) per 100 words from which a chunk in the References section is its list. */
export const MIN_YEARS_PER_100_WORDS = 1.5;

const REFERENCES_SECTION = /^(?:[\dIVXLC]+\.?\s+)?(?:references|bibliography)\b/i;
const YEAR = /\b(?:19[5-9]\d|20[0-4]\d)[a-z]?\b/g;

export function isBibliography(section: string | null | undefined, text: string): boolean {
  const top = section?.split(SECTION_SEPARATOR)[0]?.trim();
  if (!top || !REFERENCES_SECTION.test(top)) return false;
  const words = text.split(/\s+/).filter(Boolean).length;
  if (words === 0) return false;
  const years = text.match(YEAR)?.length ?? 0;
  return (years / words) * 100 >= MIN_YEARS_PER_100_WORDS;
}
