import { eq, sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";
import { chunks, latentModels, summaryChunks } from "@/db/schema";
import { sqlArray } from "@/db/sql";
import type { LatentModel } from "@/lib/embeddings/latent";
import { toStoredVector } from "./ingest";

export type VectorTable = "chunks" | "summary_chunks";

function tableOf(table: VectorTable) {
  return table === "chunks" ? chunks : summaryChunks;
}

function bytesOf(a: Float32Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** A float32 array from driver bytes (node-postgres gives a Buffer, PGlite a Uint8Array, neither aligned for sure). */
function float32Of(bytes: Uint8Array): Float32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

/** The current model's id and size, without its arrays; null before the first fit. */
export async function getLatentModelInfo(
  db: Database,
): Promise<{ id: string; dimensions: number; rows: number } | null> {
  const [row] = await db
    .select({ id: latentModels.id, dimensions: latentModels.dimensions, rows: latentModels.rows })
    .from(latentModels)
    .orderBy(sql`${latentModels.createdAt} desc`)
    .limit(1);
  return row ?? null;
}

export async function loadLatentModel(db: Database, { id }: { id: string }): Promise<LatentModel | null> {
  const [row] = await db.select().from(latentModels).where(eq(latentModels.id, id));
  if (!row) return null;
  return {
    id: row.id,
    dimensions: row.dimensions,
    rank: row.rank,
    rows: row.rows,
    terms: row.terms,
    idf: float32Of(row.idf),
    projection: float32Of(row.projection),
  };
}

/** Makes `model` the current one (the previous is deleted): call inside the transaction that writes its vectors. */
export async function replaceLatentModel(tx: Database, model: LatentModel & { model: string }): Promise<void> {
  await tx.delete(latentModels);
  await tx.insert(latentModels).values({
    id: model.id,
    model: model.model,
    dimensions: model.dimensions,
    rank: model.rank,
    rows: model.rows,
    terms: model.terms,
    idf: bytesOf(model.idf),
    projection: bytesOf(model.projection),
  });
}

/**
 * Search texts of `table` in key order after `after` (keyset pagination: bounded memory on large libraries);
 * `unembedded` keeps only rows without a vector.
 */
export async function listSearchTexts(
  db: Database,
  {
    table,
    after,
    limit,
    unembedded = false,
  }: { table: VectorTable; after: string; limit: number; unembedded?: boolean },
): Promise<{ chunkUid: string; searchText: string }[]> {
  const t = tableOf(table);
  const rows = await db
    .select({ chunkUid: t.chunkUid, searchText: t.searchText })
    .from(t)
    .where(sql`${t.chunkUid} > ${after} ${unembedded ? sql`and ${t.embedding} is null` : sql``}`)
    .orderBy(t.chunkUid)
    .limit(limit);
  return rows.map((r) => ({ chunkUid: r.chunkUid, searchText: r.searchText ?? "" }));
}

/** Writes vectors in one statement; an all-zero vector (nothing to compare by cosine) is stored as no vector. */
export async function writeVectors(
  db: Database,
  { table, rows }: { table: VectorTable; rows: { chunkUid: string; embedding: number[] }[] },
): Promise<void> {
  if (rows.length === 0) return;
  const t = tableOf(table);
  const uids = sqlArray(
    rows.map((r) => r.chunkUid),
    "text",
  );
  const vectors = sqlArray(
    rows.map((r) => (r.embedding.some((x) => x !== 0) ? `[${toStoredVector(r.embedding).join(",")}]` : null)),
    "text",
  );
  await db.execute(sql`
    update ${t} set embedding = u.v::vector
    from unnest(${uids}, ${vectors}) as u(uid, v)
    where ${t.chunkUid} = u.uid`);
}

export async function countRows(db: Database, { table }: { table: VectorTable }): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${tableOf(table)}`);
  return Number(row?.n ?? 0);
}
