import { eq, sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";
import { chunks, latentModels, papers } from "@/db/schema";
import type { LatentModel } from "@/lib/embeddings/latent";
import { clearHubness } from "./hubness";
import { type VectorTable, vectorTable } from "./vectors";

export type { VectorTable } from "./vectors";

/** A float32 array as base64 text, stored with `decode(…, 'base64')` (PGlite's driver encodes bytea a byte at a time). */
function base64Of(a: Float32Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("base64");
}

/**
 * A float32 array from base64 text. The model's arrays travel as base64 (`encode`/`decode` in SQL), not as bytea:
 * PGlite's driver converts bytea's hex text a character at a time — reading the corpus model's 11 MB projection took
 * 1.1 s against 0.08 s as base64, writing it 4.6 s.
 */
function float32Of(base64: string): Float32Array {
  const bytes = Buffer.from(base64, "base64");
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

export interface LatentModelInfo {
  id: string;
  dimensions: number;
  rows: number;
  createdAt: Date;
}

/** The current model's id and size, without its arrays; null before the first fit. */
export async function getLatentModelInfo(db: Database): Promise<LatentModelInfo | null> {
  const [row] = await db
    .select({
      id: latentModels.id,
      dimensions: latentModels.dimensions,
      rows: latentModels.rows,
      createdAt: latentModels.createdAt,
    })
    .from(latentModels)
    .orderBy(sql`${latentModels.createdAt} desc`)
    .limit(1);
  return row ?? null;
}

/** The model `id`, or null when it is gone (replaced meanwhile) or its arrays do not have the sizes it declares. */
export async function loadLatentModel(db: Database, { id }: { id: string }): Promise<LatentModel | null> {
  const [row] = await db
    .select({
      id: latentModels.id,
      dimensions: latentModels.dimensions,
      rank: latentModels.rank,
      rows: latentModels.rows,
      terms: latentModels.terms,
      idf: sql<string>`encode(${latentModels.idf}, 'base64')`,
      projection: sql<string>`encode(${latentModels.projection}, 'base64')`,
    })
    .from(latentModels)
    .where(eq(latentModels.id, id));
  if (!row) return null;
  const idf = float32Of(row.idf);
  const projection = float32Of(row.projection);
  if (idf.length !== row.terms.length || projection.length !== row.terms.length * row.dimensions) {
    console.error(`[embeddings] the stored latent model ${row.id} is damaged (array sizes); it will be refitted`);
    return null;
  }
  return {
    id: row.id,
    dimensions: row.dimensions,
    rank: row.rank,
    rows: row.rows,
    terms: row.terms,
    idf,
    projection,
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
    idf: sql`decode(${base64Of(model.idf)}, 'base64')`,
    projection: sql`decode(${base64Of(model.projection)}, 'base64')`,
  });
}

export interface SearchTextRow {
  chunkUid: string;
  searchText: string;
  /** When its paper was stored. */
  storedAt: Date;
  /** A page chunk of a reference list (never for summary passages). */
  bibliography: boolean;
}

/**
 * Search texts of `table` in key order after `after` (keyset pagination: bounded memory on large libraries), with when
 * their paper was stored; `unembedded` keeps only rows without a vector, `contentOnly` leaves out page chunks of
 * reference lists (`chunks.bibliography`).
 */
export async function listSearchTexts(
  db: Database,
  {
    table,
    after,
    limit,
    unembedded = false,
    contentOnly = false,
  }: { table: VectorTable; after: string; limit: number; unembedded?: boolean; contentOnly?: boolean },
): Promise<SearchTextRow[]> {
  const t = vectorTable(table);
  const conditions = [sql`${t.chunkUid} > ${after}`];
  if (unembedded) conditions.push(sql`${t.embedding} is null`);
  if (contentOnly && table === "chunks") conditions.push(sql`not ${chunks.bibliography}`);
  const bibliography = table === "chunks" ? sql<boolean>`${chunks.bibliography}` : sql<boolean>`false`;
  const rows = await db
    .select({ chunkUid: t.chunkUid, searchText: t.searchText, storedAt: papers.createdAt, bibliography })
    .from(t)
    .innerJoin(papers, eq(papers.id, t.paperId))
    .where(sql.join(conditions, sql` and `))
    .orderBy(t.chunkUid)
    .limit(limit);
  return rows.map((r) => ({
    chunkUid: r.chunkUid,
    searchText: r.searchText ?? "",
    storedAt: r.storedAt,
    bibliography: r.bibliography === true,
  }));
}

export async function countRows(db: Database, { table }: { table: VectorTable }): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${vectorTable(table)}`);
  return Number(row?.n ?? 0);
}

/** Removes every vector of the library (a re-embedding that had nothing to fit must not leave another embedder's). */
export async function clearVectors(db: Database): Promise<void> {
  for (const table of ["chunks", "summary_chunks"] as const) {
    await db.execute(sql`update ${vectorTable(table)} set embedding = null where embedding is not null`);
    await clearHubness(db, { table });
  }
}
