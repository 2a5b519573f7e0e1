import type { Database } from "@/db";
import { countMissingHubness, fillHubnessBatch } from "@/db/queries/hubness";
import type { VectorTable } from "@/db/queries/ingest";

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

export interface HubnessProgress {
  table: VectorTable;
  done: number;
  total: number;
}

/**
 * Computes the hubness of every passage that has a vector and none yet (new passages, or all of them after the
 * vectors were rewritten), a batch at a time; returns how many it computed. Quick when there is nothing to do. A
 * passage already there keeps its value when new ones arrive (it may have gained a closer neighbour): a refit of the
 * latent model, or re-embedding, recomputes all of them.
 */
export async function refreshHubness(
  db: Database,
  { batch = 200, onProgress }: { batch?: number; onProgress?: (p: HubnessProgress) => void } = {},
): Promise<{ filled: number; ms: number }> {
  const t0 = performance.now();
  let filled = 0;
  for (const table of ["chunks", "summary_chunks"] as const) {
    const total = await countMissingHubness(db, { table });
    if (total === 0) continue;
    let done = 0;
    for (;;) {
      const n = await fillHubnessBatch(db, { table, limit: batch });
      if (n === 0) break;
      done += n;
      onProgress?.({ table, done: Math.min(done, total), total });
    }
    filled += done;
  }
  return { filled, ms: performance.now() - t0 };
}
