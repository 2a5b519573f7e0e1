import type { Database } from "@/db";
import { insertPaperContent, lockPaper, type StoredPaperContent } from "@/db/queries/ingest";
import { noteContentChanged } from "@/db/queries/meta";
import type { NewPaper, Paper } from "@/db/schema";
import { passageSearchText } from "@/lib/text/terms";

/** A paper with everything that belongs to it, as ingestion makes it: its passages' search terms come with the title. */
export interface PaperContent {
  paper: NewPaper;
  pages: StoredPaperContent["pages"];
  /** A null embedding: the vector comes later (the latent embedder's, once the batch is stored). */
  chunks: Omit<StoredPaperContent["chunks"][number], "searchText">[];
  summary: StoredPaperContent["summary"];
  summaryChunks: Omit<StoredPaperContent["summaryChunks"][number], "searchText">[];
}

/**
 * Writes a paper with everything that belongs to it in ONE transaction. When `replacePaperId` is given, that paper
 * (and by cascade its pages, chunks and summary) is deleted first, in the same transaction — so a failure anywhere
 * leaves the library exactly as it was. `keep` picks what of the replaced paper's row (read and locked in that
 * transaction: an edit committed meanwhile is seen) the new one keeps. Both kinds of passage are indexed with the
 * stored title in front (`passageSearchText`) — a title the user corrected, when kept. Returns the title stored.
 */
export async function savePaperContent(
  db: Database,
  content: PaperContent,
  { replacePaperId, keep }: { replacePaperId?: string; keep?: (replaced: Paper) => Partial<NewPaper> } = {},
): Promise<{ title: string }> {
  const saved = await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    let row: NewPaper = { ...content.paper, status: "ready", updatedAt: new Date() };
    if (replacePaperId) {
      const replaced = await lockPaper(t, { id: replacePaperId });
      if (replaced && keep) row = { ...row, ...keep(replaced) };
    }
    const title = row.title;
    const withTerms = <T extends { text: string }>(c: T) => ({ ...c, searchText: passageSearchText(title, c.text) });
    await insertPaperContent(t, {
      content: {
        paper: row,
        pages: content.pages,
        chunks: content.chunks.map(withTerms),
        summary: content.summary,
        summaryChunks: content.summaryChunks.map(withTerms),
      },
      replacePaperId,
    });
    return { title };
  });
  noteContentChanged();
  return saved;
}
