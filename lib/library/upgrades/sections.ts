import type { Database } from "@/db";
import { withIndexesRebuilt } from "@/db/queries/ingest";
import { countRows } from "@/db/queries/latent";
import { FIT_VERSION_META_KEY, getMeta, setMeta } from "@/db/queries/meta";
import { getPageTexts } from "@/db/queries/papers";
import { listChunkSpans, listPaperIds, lockUpgrade, writeChunkAnnotations } from "@/db/queries/upgrades";
import { annotateChunks } from "@/lib/ingest/annotate";

/**
 * Version of what is read off the library's chunks at ingest (`annotateChunks`, lib/ingest/annotate.ts: the section
 * finder, the reference-list flag, the sentences' ends): raise it when any of them changes, and libraries read their
 * chunks again at the next start.
 */
// 3: chunks of the reference lists are flagged (`chunks.bibliography`); 4: and their sentences' ends are stored
export const SECTIONS_VERSION = 4;
export const SECTIONS_META_KEY = "chunk_sections_version";

/**
 * Finds the `section` of every page chunk again, from each paper's stored pages, when the library's sections come
 * from an older section finder or from none (libraries indexed before migration 0007) — and with it what else is read
 * off a chunk at ingest: its reference-list flag and its sentences' ends (migrations 0009, 0010); the library's
 * `chunk_sections_version` records it (a chunk before its paper's first heading has a null section, so null cannot
 * mark what is left to do). Returns how many chunks changed. One transaction, which first takes an advisory
 * lock and checks the version again: two processes starting at once do the work once (the second waits, then finds
 * it done), and a failure leaves the sections and the version as they were (the next start tries again). A paper
 * whose sections cannot be written (its own savepoint fails) keeps its old ones and is logged; the others go on.
 * Above `rebuildIndexesAbove` chunks the table's HNSW and GIN indexes are dropped first and recreated after (every
 * rewritten row would otherwise be inserted into them again: see backfillSearchText). `onStart` hears the number of
 * chunks when there is work to do.
 */
export async function backfillSections(
  db: Database,
  {
    rebuildIndexesAbove = 5_000,
    maintenanceWorkMem,
    onStart,
  }: { rebuildIndexesAbove?: number; maintenanceWorkMem?: string; onStart?: (chunks: number) => void } = {},
): Promise<number> {
  const current = async (d: Database) => (await getMeta<number>(d, { key: SECTIONS_META_KEY })) ?? 0;
  if ((await current(db)) >= SECTIONS_VERSION) return 0;
  const n = await countRows(db, { table: "chunks" });
  if (n > 0) onStart?.(n);
  const fill = async (tx: Database) => {
    let changed = 0;
    let flagsChanged = 0;
    for (const id of await listPaperIds(tx)) {
      try {
        const r = await tx.transaction((sp) => fillPaperSections(sp as unknown as Database, id));
        changed += r.changed;
        flagsChanged += r.flagsChanged;
      } catch (e) {
        console.error(`[db] sections of paper ${id} not found: ${(e as Error).message}`);
      }
    }
    // the latent model is fitted without the reference lists: once they are flagged differently, it is fitted again
    // at the library's next step
    if (flagsChanged > 0) await setMeta(tx, { key: FIT_VERSION_META_KEY, value: 1 });
    await setMeta(tx, { key: SECTIONS_META_KEY, value: SECTIONS_VERSION });
    return changed;
  };
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await lockUpgrade(t, { name: "lectern:sections_backfill" });
    if ((await current(t)) >= SECTIONS_VERSION) return 0; // another process did it meanwhile
    return n > rebuildIndexesAbove ? withIndexesRebuilt(t, "chunks", { maintenanceWorkMem }, fill) : fill(t);
  });
}

/**
 * Reads the annotations of one paper's chunks again (`annotateChunks`: section, reference-list flag, sentences' ends)
 * from its stored pages and writes those that changed; returns how many changed, and how many of those changed their
 * flag.
 */
export async function fillPaperSections(
  db: Database,
  paperId: string,
): Promise<{ changed: number; flagsChanged: number }> {
  const [paperPages, paperChunks] = await Promise.all([getPageTexts(db, { paperId }), listChunkSpans(db, { paperId })]);
  const annotations = annotateChunks(paperPages, paperChunks);
  return writeChunkAnnotations(db, {
    rows: paperChunks.map((c, i) => {
      const a = annotations[i];
      return {
        chunkUid: c.chunkUid,
        section: a?.section ?? null,
        bibliography: a?.bibliography ?? false,
        sentenceEnds: a?.sentenceEnds ?? [],
      };
    }),
  });
}
