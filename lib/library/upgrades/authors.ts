import type { Database } from "@/db";
import { getMeta, setMeta } from "@/db/queries/meta";
import { getPageTexts } from "@/db/queries/papers";
import { listPapersWithoutAuthors, lockUpgrade, setMissingAuthors } from "@/db/queries/upgrades";
import { extractMetadata } from "@/lib/ingest/metadata";

/**
 * Version of the author reading (lib/ingest/metadata.ts) that `backfillAuthors` has applied: raise it when the reading
 * learns to find authors it used to miss, and papers stored without authors are read again at the next start.
 */
// 2: a collective author under a title of one line (it was read as the title's second line)
export const AUTHORS_VERSION = 2;
export const AUTHORS_META_KEY = "paper_authors_version";

/**
 * Reads the authors again, from the stored first pages, of every paper stored without any — only those: authors
 * found before are never overwritten. Re-ingesting an unchanged file is a no-op, so
 * without this a paper would keep "Unknown authors" after the reading improved. The PDF's own Author field is not
 * stored, but a paper with an empty author list had none that counted. One transaction with an advisory lock and the
 * version checked again inside it (as `backfillSections`). Returns how many papers gained authors.
 */
export async function backfillAuthors(db: Database): Promise<number> {
  const current = async (d: Database) => (await getMeta<number>(d, { key: AUTHORS_META_KEY })) ?? 0;
  if ((await current(db)) >= AUTHORS_VERSION) return 0;
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await lockUpgrade(t, { name: "lectern:authors_backfill" });
    if ((await current(t)) >= AUTHORS_VERSION) return 0;
    let found = 0;
    for (const paper of await listPapersWithoutAuthors(t)) {
      const stored = await getPageTexts(t, { paperId: paper.id });
      const { authors } = extractMetadata({
        pages: stored.slice(0, 8).map((p) => p.text),
        info: {},
        fileName: paper.fileName,
      });
      if (authors.length === 0) continue;
      if (await setMissingAuthors(t, { paperId: paper.id, authors })) found++;
    }
    await setMeta(t, { key: AUTHORS_META_KEY, value: AUTHORS_VERSION });
    return found;
  });
}
