import { sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";
import { chunkHubness, hnswKeyType, summaryChunkHubness } from "@/db/schema";
import { setLocal, sqlArray } from "@/db/sql";
import { type VectorTable, vectorTable } from "./ingest";
import { getEmbeddingColumnDimensions, getHnswPrecision } from "./meta";

/** Neighbours whose similarities a passage's hubness averages (CSLS's K, Conneau et al. 2018). */
export const HUBNESS_NEIGHBOURS = 10;

/** The table holding the hubness of `table`'s passages (db/schema.ts, chunkHubness). */
export function hubnessTable(table: VectorTable) {
  return table === "chunks" ? chunkHubness : summaryChunkHubness;
}

/**
 * Serialises the writers of passage vectors and of their hubness (a fill computes from the vectors it reads: a writer
 * changing them meanwhile would leave values computed from a mix), across processes, until the end of the calling
 * transaction. The latent refit and fold-in take it too (lib/embeddings/latent-index.ts).
 */
export async function lockVectorWrites(tx: Pick<Database, "execute">): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('lectern:vector_writes'))`);
}

/**
 * Gives up to `limit` passages of `table` that have a vector and no hubness, in key order after `after`, their
 * hubness: the mean cosine similarity of their `neighbours` nearest other passages, found by walking the HNSW index
 * (one walk per passage). Returns how many passages it looked at (0: none left after `after`) and the last one's key,
 * to continue from.
 */
export async function fillHubnessBatch(
  db: Database,
  {
    table,
    after = "",
    limit = 500,
    neighbours = HUBNESS_NEIGHBOURS,
  }: { table: VectorTable; after?: string; limit?: number; neighbours?: number },
): Promise<{ scanned: number; last: string }> {
  const dims = await getEmbeddingColumnDimensions(db);
  if (dims < 1) return { scanned: 0, last: after };
  const key = sql.raw(hnswKeyType(dims, await getHnswPrecision(db)));
  const t = vectorTable(table);
  const h = hubnessTable(table);
  return db.transaction(async (tx) => {
    await lockVectorWrites(tx);
    // the neighbours come from the index: the planner would rather compute every distance (see searchVector)
    await setLocal(tx, {
      "hnsw.ef_search": String(Math.max(40, 4 * neighbours)),
      "hnsw.iterative_scan": "relaxed_order",
      enable_seqscan: "off",
      enable_sort: "off",
      jit: "off",
    });
    const rows = await queryRows<{ scanned: number; last: string | null }>(
      tx,
      sql`
      with todo as (
        select c.chunk_uid, c.embedding from ${t} c
        where c.chunk_uid > ${after} and c.embedding is not null
          and not exists (select 1 from ${h} x where x.chunk_uid = c.chunk_uid)
        order by c.chunk_uid
        limit ${limit}::int
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
