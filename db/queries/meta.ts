import { eq, sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";
import { libraryMeta } from "@/db/schema";

export async function getMeta<T>(db: Database, { key }: { key: string }): Promise<T | null> {
  const [row] = await db.select({ value: libraryMeta.value }).from(libraryMeta).where(eq(libraryMeta.key, key));
  return (row?.value as T | undefined) ?? null;
}

export async function setMeta(db: Database, { key, value }: { key: string; value: unknown }): Promise<void> {
  await db
    .insert(libraryMeta)
    .values({ key, value })
    .onConflictDoUpdate({ target: libraryMeta.key, set: { value, updatedAt: new Date() } });
}

/** The dimension the embedding columns currently have (pgvector stores it as the type modifier). */
export async function getEmbeddingColumnDimensions(db: Database): Promise<number> {
  const rows = await queryRows<{ dims: number }>(
    db,
    sql`select atttypmod as dims from pg_attribute where attrelid = 'chunks'::regclass and attname = 'embedding'`,
  );
  return Number(rows[0]?.dims ?? 0);
}

const EMBEDDING_TABLES = [
  { table: "chunks", index: "chunks_embedding_hnsw" },
  { table: "summary_chunks", index: "summary_chunks_embedding_hnsw" },
] as const;

/**
 * Changes the embedding columns to `dimensions`, clearing every stored vector, and rebuilds the HNSW indexes.
 * Used by re-embedding when the provider's dimension differs from the columns'.
 */
export async function resizeEmbeddingColumns(db: Database, { dimensions }: { dimensions: number }): Promise<void> {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 16000) {
    throw new Error(`Invalid embedding dimension: ${dimensions}`);
  }
  await db.transaction(async (tx) => {
    for (const { table, index } of EMBEDDING_TABLES) {
      await tx.execute(sql.raw(`drop index if exists "${index}"`));
      await tx.execute(sql.raw(`update "${table}" set embedding = null`));
      await tx.execute(sql.raw(`alter table "${table}" alter column embedding type vector(${dimensions})`));
      await tx.execute(sql.raw(`create index "${index}" on "${table}" using hnsw (embedding vector_cosine_ops)`));
    }
  });
}
