import { getPageChunks } from "@/db/queries/papers";
import type { EvidencePassage } from "./citations";
import type { ResearchDeps } from "./deps";
import { errorMessage } from "./step-kit";

/**
 * The passages synthesis and verification get: offline, with the rest of the best passages' pages; with a model, the
 * passages as chosen (the model reads them whole and its prompt has a budget).
 */
export function synthesisEvidence(
  deps: Pick<ResearchDeps, "db" | "chatModel">,
  passages: EvidencePassage[],
  warn: (message: string) => void,
): Promise<EvidencePassage[]> {
  return deps.chatModel ? Promise.resolve(passages) : withPageContext(deps.db, passages, warn);
}

/** The first passages whose pages come along whole. */
export const PAGE_CONTEXT_PASSAGES = 5;

/**
 * The evidence with the rest of its best passages' pages: a passage is one of two or three overlapping parts of its
 * page, and the sentence that answers is often in a part retrieval did not rank although it ranked the page first.
 * Each of the first `top` passages brings the other passages of its page (reference lists left out), appended after
 * the evidence and ranked with it (`rank`, `pageContext`), so the offline answer may quote any sentence of a page the
 * search put at the top and verification finds it there. What the question's words find (whether the library answers
 * it at all) is still judged on the retrieved passages alone. The passages are the library's own (real chunk ids and
 * page offsets). When the pages cannot be read the evidence is used as it is.
 */
export async function withPageContext(
  db: ResearchDeps["db"],
  evidence: EvidencePassage[],
  warn: (message: string) => void,
  top = PAGE_CONTEXT_PASSAGES,
): Promise<EvidencePassage[]> {
  const anchors = new Map<string, EvidencePassage & { rank: number }>();
  evidence.slice(0, top).forEach((e, i) => {
    const key = `${e.paperId}|${e.page}`;
    if (!anchors.has(key)) anchors.set(key, { ...e, rank: e.rank ?? i });
  });
  if (anchors.size === 0) return evidence;
  let rows: Awaited<ReturnType<typeof getPageChunks>>;
  try {
    rows = await getPageChunks(db, {
      keys: [...anchors.values()].map((a) => ({ paperId: a.paperId, pageNumber: a.page })),
    });
  } catch (e) {
    warn(`Could not read the rest of the best passages' pages: ${errorMessage(e)}`);
    return evidence;
  }
  const have = new Set(evidence.map((e) => e.chunkUid));
  const added: EvidencePassage[] = [];
  for (const r of rows) {
    const anchor = anchors.get(`${r.paperId}|${r.pageNumber}`);
    if (!anchor || have.has(r.chunkUid)) continue;
    have.add(r.chunkUid);
    added.push({
      chunkUid: r.chunkUid,
      paperId: r.paperId,
      title: anchor.title,
      page: r.pageNumber,
      charStart: r.charStart,
      charEnd: r.charEnd,
      text: r.text,
      rank: anchor.rank,
      pageContext: true,
    });
  }
  // a passage retrieved lower on a page the search put at the top ranks with that page's best passage too
  const ranked = evidence.map((e, i) => {
    const anchor = anchors.get(`${e.paperId}|${e.page}`);
    return anchor && anchor.rank < (e.rank ?? i) ? { ...e, rank: anchor.rank } : e;
  });
  return [...ranked, ...added];
}
