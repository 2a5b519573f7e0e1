import type { Database } from "@/db";
import { withIndexesRebuilt } from "@/db/queries/ingest";
import { FIT_VERSION_META_KEY, getMeta, noteContentChanged, setMeta } from "@/db/queries/meta";
import { writeSearchText } from "@/db/queries/papers";
import { countPendingSearchText, listPendingSearchText } from "@/db/queries/upgrades";
import type { VectorTable } from "@/db/queries/vectors";
import { passageSearchText } from "@/lib/text/terms";
import { fillPaperSections, SECTIONS_META_KEY, SECTIONS_VERSION } from "./sections";

// 2: the paper's title heads each passage's terms; 3: the tokenizer lower-cases after NFKC (mathematical letters)
export const SEARCH_TEXT_VERSION = 3;
export const SEARCH_TEXT_META_KEY = "search_text_version";

/**
 * Fills `search_text` (the paper's title, then the passage: `passageSearchText`) of rows stored before the column
 * existed (migration 0003), and, when the library's `search_text_version` is older than SEARCH_TEXT_VERSION, of every
 * row whose terms the current tokenizer gives differently; returns how many rows it wrote. Quick when there is
 * nothing to do (one count per table). The rows are read once to count those whose terms change (recomputed, not
 * held in memory), then the changed ones are written, all in one transaction with what depends on them: the sentence
 * ends of their papers' chunks (`annotateChunks` counts these terms; unless the sections backfill will read all of
 * them anyway), the mark that has the latent model — fitted on
 * the terms, its vectors projected from them — fitted again (in the background after the server's start:
 * latent-index.ts), and the version. A failure leaves all of it as it was. Writing a row inserts its new version into
 * the HNSW and GIN indexes again — hours for 100k chunks — so when more than `rebuildIndexesAbove` rows of a table
 * change, its HNSW and GIN indexes are dropped, the rows written and the indexes recreated from their own definitions.
 * A tokenizer fix that alters few rows' terms writes only those.
 */
export async function backfillSearchText(
  db: Database,
  {
    batch = 500,
    rebuildIndexesAbove = 5_000,
    maintenanceWorkMem,
  }: {
    batch?: number;
    rebuildIndexesAbove?: number;
    /** For the index rebuild, e.g. `1GB` (an HNSW graph that does not fit builds several times slower). */
    maintenanceWorkMem?: string;
  } = {},
): Promise<number> {
  const version = (await getMeta<number>(db, { key: SEARCH_TEXT_META_KEY })) ?? 1;
  const every = version < SEARCH_TEXT_VERSION;
  const tables = ["chunks", "summary_chunks"] as const;
  type Row = { chunkUid: string; paperId: string; terms: string; changed: boolean };
  /** The pending rows of `table` in keyset order, batch by batch, with their terms as the tokenizer now gives them. */
  const scan = async (tx: Database, table: VectorTable, each: (rows: Row[]) => Promise<void>) => {
    let after = "";
    for (;;) {
      const rows = await listPendingSearchText(tx, { table, every, after, limit: batch });
      if (rows.length === 0) return;
      after = rows[rows.length - 1]?.chunkUid ?? after;
      await each(
        rows.map((r) => {
          const terms = passageSearchText(r.title, r.text);
          return { chunkUid: r.chunkUid, paperId: r.paperId, terms, changed: terms !== r.searchText };
        }),
      );
    }
  };
  const changedRows = new Map<VectorTable, number>();
  for (const table of tables) {
    if ((await countPendingSearchText(db, { table, every })) === 0) continue;
    let n = 0;
    await scan(db, table, async (rows) => {
      n += rows.filter((r) => r.changed).length;
    });
    if (n > 0) changedRows.set(table, n);
  }
  if (changedRows.size === 0) {
    if (every) await setMeta(db, { key: SEARCH_TEXT_META_KEY, value: SEARCH_TEXT_VERSION });
    return 0;
  }
  const annotationsCurrent = ((await getMeta<number>(db, { key: SECTIONS_META_KEY })) ?? 0) >= SECTIONS_VERSION;
  const filled = await db.transaction(async (outer) => {
    const t = outer as unknown as Database;
    let written = 0;
    for (const table of tables) {
      const n = changedRows.get(table) ?? 0;
      if (n === 0) continue;
      const fill = async (tx: Database) => {
        const papersOfChunks = new Set<string>();
        await scan(tx, table, async (rows) => {
          const changed = rows.filter((r) => r.changed);
          if (changed.length === 0) return;
          await writeSearchText(tx, {
            table,
            rows: changed.map((r) => ({ chunkUid: r.chunkUid, searchText: r.terms })),
          });
          written += changed.length;
          if (table === "chunks") for (const r of changed) papersOfChunks.add(r.paperId);
        });
        // the sentence ends of those papers' chunks count their terms; written here, before the indexes are
        // recreated. A library whose annotations are older gets all of them from the sections backfill, next.
        if (papersOfChunks.size > 0 && annotationsCurrent) {
          for (const paperId of papersOfChunks) await fillPaperSections(tx, paperId);
        }
      };
      if (n <= rebuildIndexesAbove) await fill(t);
      else await withIndexesRebuilt(t, table, { maintenanceWorkMem }, fill);
    }
    await setMeta(t, { key: FIT_VERSION_META_KEY, value: 1 });
    if (every) await setMeta(t, { key: SEARCH_TEXT_META_KEY, value: SEARCH_TEXT_VERSION });
    return written;
  });
  if (filled > 0) noteContentChanged();
  return filled;
}
