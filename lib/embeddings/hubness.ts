import type { Database } from "@/db";
import { clearHubness, countMissingHubness, fillHubness } from "@/db/queries/hubness";
import { countRows } from "@/db/queries/latent";
import { getMeta, setMeta } from "@/db/queries/meta";
import { lockVectorWrites, type VectorTable } from "@/db/queries/vectors";
import { sizeDrifted } from "./latent-index";

/**
 * Hubness reduction for vector search. In a high-dimensional space some points, "hubs", are among the nearest
 * neighbours of many others (Radovanović et al., 2010); among a paper's passages its abstract, introduction and
 * conclusion are hubs: they restate the whole paper, so every question about the paper lands near them and they
 * outrank the page that answers. Cross-domain similarity local scaling (CSLS; Conneau et al., 2018) corrects this by
 * scoring `cos(q, d) − r(d) / 2`, where `r(d)` is the mean similarity of `d` to its K = 10 nearest passages (the
 * query's own term is the same for every passage and drops out). Both are the published defaults, not fitted to our
 * questions. Vector search fetches its candidates by cosine and orders them by the corrected score
 * (lib/search/fusion.ts, `hubnessOrder`); the stored `r(d)` is computed here, after vectors are written.
 */

/** library_meta key: each table's row count when its hubness was last computed in full. */
const HUBNESS_META_KEY = "hubness_rows";
type HubnessRows = Partial<Record<VectorTable, number>>;

export interface HubnessProgress {
  done: number;
  total: number;
}

export interface HubnessRefresh {
  /** Passages whose hubness was computed. */
  filled: number;
  /** Tables whose hubness was computed again in full (forced, or the table grew or shrank by a quarter). */
  recomputed: VectorTable[];
  ms: number;
}

/**
 * Computes the hubness of every passage that has a vector and none yet (new passages, or all of them after the
 * vectors were rewritten), a batch at a time; with `recompute`, or when a table has grown or shrunk by
 * a quarter (sizeDrifted) since it was last computed in full, all of that table's first. Quick when there is nothing
 * to do. Searches are served between batches; a passage without its hubness yet counts the mean of the others'.
 */
export async function refreshHubness(
  db: Database,
  {
    batch = 500,
    recompute = false,
    onProgress,
  }: { batch?: number; recompute?: boolean; onProgress?: (p: HubnessProgress) => void } = {},
): Promise<HubnessRefresh> {
  const t0 = performance.now();
  const recorded = (await getMeta<HubnessRows>(db, { key: HUBNESS_META_KEY })) ?? {};
  const rows: Record<VectorTable, number> = { chunks: 0, summary_chunks: 0 };
  const missing: Record<VectorTable, number> = { chunks: 0, summary_chunks: 0 };
  const recomputed: VectorTable[] = [];
  for (const table of ["chunks", "summary_chunks"] as const) {
    rows[table] = await countRows(db, { table });
    const before = recorded[table];
    // a passage's hubness is computed against the library of its time: once a quarter of it has come or gone (the
    // latent refit's rule), all of the table's again
    const drifted = before !== undefined && before > 0 && sizeDrifted(rows[table], before);
    if ((recompute || drifted) && rows[table] > 0) {
      await db.transaction(async (tx) => {
        await lockVectorWrites(tx);
        await clearHubness(tx, { table });
      });
      recomputed.push(table);
    }
    missing[table] = await countMissingHubness(db, { table });
  }
  const total = missing.chunks + missing.summary_chunks;
  let done = 0;
  for (const table of ["chunks", "summary_chunks"] as const) {
    if (missing[table] === 0) continue;
    await fillHubness(db, {
      table,
      batch,
      onBatch: (scanned) => {
        done += scanned;
        onProgress?.({ done: Math.min(done, total), total });
      },
    });
  }
  // the baseline the growth rule compares with: set when a table was computed in full, or first seen
  const next: HubnessRows = { ...recorded };
  for (const table of ["chunks", "summary_chunks"] as const) {
    if (rows[table] > 0 && (recomputed.includes(table) || !recorded[table])) next[table] = rows[table];
  }
  if (next.chunks !== recorded.chunks || next.summary_chunks !== recorded.summary_chunks) {
    await setMeta(db, { key: HUBNESS_META_KEY, value: next });
  }
  return { filled: done, recomputed, ms: performance.now() - t0 };
}
