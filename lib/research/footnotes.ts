import { getPageTextsByKey } from "@/db/queries/papers";
import { footnoteEnd } from "@/lib/text/footnotes";
import type { EvidencePassage } from "./citations";
import type { ResearchDeps } from "./deps";
import { errorMessage } from "./step-kit";

/**
 * The passages, each marked when it starts inside a footnote of its page (a chunk boundary after the footnote's
 * marker): its page's text says so, the passage's own text does not. The pages are read by key (one query, at most
 * one row per passage); when they cannot be read the passages go unmarked — the answer is still composed.
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
  return evidence.map((e) => {
    const page = texts.get(`${e.paperId}|${e.page}`);
    const end = page === undefined ? null : footnoteEnd(page, e.charStart);
    return end === null ? e : { ...e, footnoteChars: end - e.charStart };
  });
}
