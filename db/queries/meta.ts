import { eq, sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";
import { chunkHubness, type HnswPrecision, hnswIndexSql, libraryMeta, summaryChunkHubness } from "@/db/schema";

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

/** Stores `value` under `key` unless the key exists (the first writer wins; concurrent writers agree on one value). */
export async function insertMetaIfAbsent(db: Database, { key, value }: { key: string; value: unknown }): Promise<void> {
  await db.insert(libraryMeta).values({ key, value }).onConflictDoNothing({ target: libraryMeta.key });
}

/** The dimension the embedding columns currently have (pgvector stores it as the type modifier). */
export async function getEmbeddingColumnDimensions(db: Database): Promise<number> {
  const rows = await queryRows<{ dims: number }>(
    db,
    sql`select atttypmod as dims from pg_attribute where attrelid = 'chunks'::regclass and attname = 'embedding'`,
  );
  return Number(rows[0]?.dims ?? 0);
}

let contentEpoch = 0;

/**
 * Marks that this process changed the searchable rows (chunks, summary chunks or their terms): search re-reads its
 * corpus statistics on the next query instead of waiting for their periodic re-check (lib/search: STATS_RECHECK_MS).
 */
export function noteContentChanged(): void {
  contentEpoch++;
}

/** How many times this process has changed the searchable rows (see noteContentChanged). */
export function getContentEpoch(): number {
  return contentEpoch;
}

const embeddedCache = new WeakMap<Database, Promise<boolean>>();

/** True for the embedded database (PGlite: its `version()` names a wasm32 build), false for a PostgreSQL server. */
export function isEmbeddedDatabase(db: Database): Promise<boolean> {
  let p = embeddedCache.get(db);
  if (!p) {
    p = queryRows<{ wasm: boolean }>(db, sql`select version() like '%wasm32%' as wasm`).then((r) => !!r[0]?.wasm);
    p.catch(() => embeddedCache.delete(db));
    embeddedCache.set(db, p);
  }
  return p;
}

const precisionCache = new WeakMap<Database, Promise<HnswPrecision>>();

/**
 * The key precision of this database's HNSW indexes (db/schema.ts, HnswPrecision): what the index was built with,
 * or, without one, what this server should use (full precision on PGlite). Read once per database handle; both
 * tables always share it.
 */
export function getHnswPrecision(db: Database): Promise<HnswPrecision> {
  let p = precisionCache.get(db);
  if (!p) {
    p = readHnswPrecision(db);
    p.catch(() => precisionCache.delete(db));
    precisionCache.set(db, p);
  }
  return p;
}

/**
 * getHnswPrecision without its cache. The index's operator class is read from the catalogs alone: `pg_indexes`
 * (pg_get_indexdef) looks the index up outside the query's snapshot, and fails with "cache lookup failed for
 * attribute 1" when another session has just rebuilt it (a library step's refit, lib/embeddings/latent-index.ts) —
 * which made a worker's first file fail while another worker refitted.
 */
export async function readHnswPrecision(db: Database): Promise<HnswPrecision> {
  const rows = await queryRows<{ half: boolean | null }>(
    db,
    sql`select bool_or(opc.opcname like 'halfvec%') as half
        from pg_index i
        join pg_class c on c.oid = i.indexrelid
        join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
        join pg_opclass opc on opc.oid = i.indclass[0]
        where c.relname = 'chunks_embedding_hnsw'`,
  );
  const half = rows[0]?.half ?? !(await isEmbeddedDatabase(db));
  return half ? "half" : "full";
}

const EMBEDDING_TABLES = [
  { table: "chunks", index: "chunks_embedding_hnsw", hubness: chunkHubness },
  { table: "summary_chunks", index: "summary_chunks_embedding_hnsw", hubness: summaryChunkHubness },
] as const;

/**
 * Changes the embedding columns to `dimensions`, clearing every stored vector, and rebuilds the HNSW indexes.
 * Used by re-embedding when the provider's dimension differs from the columns'.
 */
export async function resizeEmbeddingColumns(db: Database, { dimensions }: { dimensions: number }): Promise<void> {
  // HNSW indexes take up to 4,000 dimensions at half precision (2,000 at full: hnswIndexSql says so)
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 4000) {
    throw new Error(`Invalid embedding dimension: ${dimensions}`);
  }
  const precision = await getHnswPrecision(db);
  await db.transaction(async (tx) => {
    for (const { table, index, hubness } of EMBEDDING_TABLES) {
      await tx.execute(sql.raw(`drop index if exists "${index}"`));
      await tx.execute(sql.raw(`update "${table}" set embedding = null`));
      await tx.delete(hubness);
      await tx.execute(sql.raw(`alter table "${table}" alter column embedding type vector(${dimensions})`));
      await tx.execute(sql.raw(hnswIndexSql(table, dimensions, precision)));
    }
  });
}

/**
 * library_meta key of the rule the library's latent model was fitted by (lib/embeddings/latent-index.ts
 * LATENT_FIT_VERSION); the sections backfill sets it back when the reference-list flags the fit reads have changed.
 */
export const FIT_VERSION_META_KEY = "latent_fit_version";
