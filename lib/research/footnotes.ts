import { getPageTextsByKey } from "@/db/queries/papers";
import { footnoteEnd, footnoteNumbers, gluedFootnoteMarks } from "@/lib/text/footnotes";
import type { EvidencePassage } from "./citations";
import type { ResearchDeps } from "./deps";
import { errorMessage } from "./step-kit";

/**
 * The passages, each marked when it starts inside a footnote of its page (a chunk boundary after the footnote's
 * marker): its page's text says so, the passage's own text does not; and with its page's footnote numbers, whose
 * markers in the body its quotes leave out. The pages are read by key (one query, at most one row per passage); when
 * they cannot be read the passages go unmarked — the answer is still composed.
 */
export async function markFootnotes(
  db: ResearchDeps["db"],
  evidence: EvidencePassage[],
  warn: (message: string) => void,
): Promise<EvidencePassage[]> {
  const keys = [
    ...new Map(evidence.map((e) => [`${e.paperId}|${e.page}`, { paperId: e.paperId, pageNumber: e.page }])).values(),
  ];
  let texts: Map<string, string>;
  try {
    texts = await getPageTextsByKey(db, { keys });
  } catch (e) {
    warn(`Could not read the passages' pages to leave out footnotes: ${errorMessage(e)}`);
    return evidence;
  }
  // each page's footnote numbers once, however many of its passages there are
  const marks = new Map<string, { numbers: string[]; glued: { word: string; number: string }[] }>();
  const marksOf = (key: string, page: string) => {
    let m = marks.get(key);
    if (!m) {
      const numbers = footnoteNumbers(page);
      m = { numbers, glued: gluedFootnoteMarks(page, numbers) };
      marks.set(key, m);
    }
    return m;
  };
  return evidence.map((e) => {
    const key = `${e.paperId}|${e.page}`;
    const page = texts.get(key);
    if (page === undefined) return e;
    const end = footnoteEnd(page, e.charStart);
    const { numbers, glued } = marksOf(key, page);
    return {
      ...e,
      ...(end === null ? {} : { footnoteChars: end - e.charStart }),
      ...(numbers.length > 0 ? { footnoteNumbers: numbers } : {}),
      ...(glued.length > 0 ? { footnoteGlued: glued } : {}),
    };
  });
}
