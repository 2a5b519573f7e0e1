import { sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";
import { chunkHubness, hnswKeyType, summaryChunkHubness } from "@/db/schema";
import { setLocal, sqlArray } from "@/db/sql";
import { getEmbeddingColumnDimensions, getHnswPrecision } from "./meta";
import { lockVectorWrites, type VectorTable, vectorTable } from "./vectors";

/** Neighbours whose similarities a passage's hubness averages (CSLS's K, Conneau et al. 2018). */
export const HUBNESS_NEIGHBOURS = 10;

/** The table holding the hubness of `table`'s passages (db/schema.ts, chunkHubness). */
export function hubnessTable(table: VectorTable) {
  return table === "chunks" ? chunkHubness : summaryChunkHubness;
}

/**
 * Gives every passage of `table` that has a vector and no hubness its hubness: the mean cosine similarity of its
 * `neighbours` nearest other passages, found by walking the HNSW index (one walk per passage). Works in key order, in
 * batches of `batch` passages, each its own transaction (searches are served between them); `onBatch` hears how many
 * passages each batch looked at. Returns how many passages it looked at.
 */
export async function fillHubness(
  db: Database,
  {
    table,
    batch = 500,
    neighbours = HUBNESS_NEIGHBOURS,
    onBatch,
  }: { table: VectorTable; batch?: number; neighbours?: number; onBatch?: (scanned: number) => void },
): Promise<number> {
  const dims = await getEmbeddingColumnDimensions(db);
  if (dims < 1) return 0;
  const key = sql.raw(hnswKeyType(dims, await getHnswPrecision(db)));
  const t = vectorTable(table);
  const h = hubnessTable(table);
  let after = "";
  let total = 0;
  for (;;) {
    const { scanned, last } = await db.transaction(async (tx) => {
      await lockVectorWrites(tx);
      // the neighbours come from the index: the planner would rather compute every distance (see searchVector)
      await setLocal(tx, {
        "hnsw.ef_search": String(Math.max(40, 4 * neighbours)),
        "hnsw.iterative_scan": "relaxed_order",
        enable_seqscan: "off",
        enable_sort: "off",
        jit: "off",
      });
      // counts what it looked at, not what it inserted: rows another filler got to first still move the key on
      const rows = await queryRows<{ scanned: number; last: string | null }>(
        tx,
        sql`
        with todo as (
          select c.chunk_uid, c.embedding from ${t} c
          where c.chunk_uid > ${after} and c.embedding is not null
            and not exists (select 1 from ${h} x where x.chunk_uid = c.chunk_uid)
          order by c.chunk_uid
          limit ${batch}::int
        ),
        filled as (
          insert into ${h} (chunk_uid, hubness)
          select todo.chunk_uid, coalesce(n.hubness, 0)
          from todo cross join lateral (
            select avg(1 - (o.embedding <=> todo.embedding))::real as hubness from (
              select o.embedding from ${t} o
              where o.embedding is not null and o.chunk_uid <> todo.chunk_uid
              order by o.embedding::${key} <=> todo.embedding::${key}
              limit ${neighbours}::int
            ) o
          ) n
          on conflict (chunk_uid) do nothing
        )
        select count(*)::int as scanned, max(chunk_uid) as last from todo`,
      );
      return { scanned: Number(rows[0]?.scanned ?? 0), last: rows[0]?.last ?? after };
    });
    if (scanned === 0) return total;
    after = last;
    total += scanned;
    onBatch?.(scanned);
  }
}

/** Passages of `table` with a vector and no hubness yet. */
export async function countMissingHubness(db: Database, { table }: { table: VectorTable }): Promise<number> {
  const t = vectorTable(table);
  const h = hubnessTable(table);
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${t} c
        where c.embedding is not null and not exists (select 1 from ${h} x where x.chunk_uid = c.chunk_uid)`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** Forgets the hubness of the given passages of `table` (their vectors changed), or of all of them. */
export async function clearHubness(
  db: Pick<Database, "execute">,
  { table, chunkUids }: { table: VectorTable; chunkUids?: string[] },
): Promise<void> {
  const h = hubnessTable(table);
  if (!chunkUids) {
    await db.execute(sql`delete from ${h}`);
    return;
  }
  if (chunkUids.length === 0) return;
  await db.execute(sql`delete from ${h} where ${h.chunkUid} = any(${sqlArray(chunkUids, "text")})`);
}
