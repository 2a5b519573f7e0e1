import { eq, sql } from "drizzle-orm";
import { type Database, queryRows } from "@/db";
import { chunks, type NewChunk, type NewPaper, type Paper, pages, papers, summaries, summaryChunks } from "@/db/schema";
import { setLocal, sqlArray } from "@/db/sql";
import { clearHubness } from "./hubness";
import { toStoredVector, type VectorTable, vectorTable } from "./vectors";

/** A paper with everything that belongs to it, as stored: its passages' search terms computed (lib/ingest/save.ts). */
export interface StoredPaperContent {
  paper: NewPaper;
  pages: { pageNumber: number; text: string }[];
  /** A null embedding: the vector comes later (the latent embedder's, once the batch is stored). */
  chunks: (Omit<NewChunk, "paperId" | "tsv" | "searchText"> & { searchText: string; embedding: number[] | null })[];
  summary: { text: string; method: "extractive" | "llm"; model: string | null };
  summaryChunks: {
    chunkUid: string;
    chunkIndex: number;
    text: string;
    charStart: number;
    charEnd: number;
    pages: number[];
    searchText: string;
    embedding: number[] | null;
  }[];
}

const BATCH = 200;

async function insertBatched<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}

/** A paper's row, locked until the end of the calling transaction (an edit committed meanwhile is seen). */
export async function lockPaper(tx: Database, { id }: { id: string }): Promise<Paper | null> {
  const [row] = await tx.select().from(papers).where(eq(papers.id, id)).for("update");
  return row ?? null;
}

/**
 * Writes a paper with everything that belongs to it in one transaction (a savepoint of the caller's, when called in
 * one). When `replacePaperId` is given, that paper (and by cascade its pages, chunks and summary) is deleted first, in
 * the same transaction — so a failure anywhere leaves the library exactly as it was. Vectors are stored as
 * `toStoredVector` gives them.
 */
export async function insertPaperContent(
  db: Database,
  { content, replacePaperId }: { content: StoredPaperContent; replacePaperId?: string },
): Promise<void> {
  const paperId = content.paper.id;
  await db.transaction(async (tx) => {
    if (replacePaperId) await tx.delete(papers).where(eq(papers.id, replacePaperId));
    const passage = <T extends { embedding: number[] | null }>(c: T) => ({
      ...c,
      paperId,
      embedding: c.embedding && toStoredVector(c.embedding),
    });
    await tx.insert(papers).values(content.paper);
    await insertBatched(content.pages, (b) => tx.insert(pages).values(b.map((p) => ({ ...p, paperId }))));
    await insertBatched(content.chunks, (b) => tx.insert(chunks).values(b.map(passage)));
    await tx.insert(summaries).values({ paperId, ...content.summary });
    await insertBatched(content.summaryChunks, (b) => tx.insert(summaryChunks).values(b.map(passage)));
  });
}

export async function countPaperContent(db: Database, { paperId }: { paperId: string }) {
  const [row] = await db
    .select({
      pages: sql<number>`(select count(*)::int from ${pages} where ${pages.paperId} = ${paperId})`,
      chunks: sql<number>`(select count(*)::int from ${chunks} where ${chunks.paperId} = ${paperId})`,
    })
    .from(sql`(select 1) as one`);
  return { pages: row?.pages ?? 0, chunks: row?.chunks ?? 0 };
}

/** Rows to re-embed, in pages of `limit`, ordered by key (keyset pagination: bounded memory on large libraries). */
export async function listChunkTexts(
  db: Database,
  { table, after, limit }: { table: VectorTable; after: string; limit: number },
): Promise<{ chunkUid: string; text: string }[]> {
  const t = vectorTable(table);
  return db
    .select({ chunkUid: t.chunkUid, text: t.text })
    .from(t)
    .where(sql`${t.chunkUid} > ${after}`)
    .orderBy(t.chunkUid)
    .limit(limit);
}

/**
 * Writes vectors in one statement. An all-zero vector (the latent embedder's, for a passage of words its model does
 * not know: nothing to compare by cosine) is stored as no vector.
 */
export async function updateEmbeddings(
  db: Database,
  { table, rows }: { table: VectorTable; rows: { chunkUid: string; embedding: number[] }[] },
): Promise<void> {
  if (rows.length === 0) return;
  const t = vectorTable(table);
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
  // a new vector has new neighbours
  await clearHubness(db, { table, chunkUids: rows.map((r) => r.chunkUid) });
}

/**
 * Runs `fill` — a rewrite of many rows of `table` — with the table's HNSW and GIN indexes dropped, then recreates them
 * from their own definitions, all in one transaction (a failure leaves the table and its indexes as they were).
 * Rewriting a row inserts its new version into every index again; for thousands of rows, rebuilding is much faster.
 */
export async function withIndexesRebuilt<T>(
  db: Database,
  table: VectorTable,
  { maintenanceWorkMem }: { maintenanceWorkMem?: string },
  fill: (tx: Database) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    // the lock the drops take anyway, taken first: another session's rebuild of these indexes cannot commit between
    // the read of their definitions and the drops (pg_indexes reads a definition outside the query's snapshot, and
    // fails on an index another session has just dropped)
    await tx.execute(sql`lock table ${sql.identifier(table)} in access exclusive mode`);
    // (the definitions of this table's indexes only: pg_get_indexdef of another table's index is not protected by it)
    const indexes = await queryRows<{ indexname: string; indexdef: string }>(
      tx,
      sql`select c.relname as indexname, pg_get_indexdef(c.oid) as indexdef
          from pg_index i
          join pg_class c on c.oid = i.indexrelid
          join pg_am am on am.oid = c.relam
          where i.indrelid = to_regclass(quote_ident(current_schema()) || '.' || quote_ident(${table}))
            and am.amname in ('hnsw', 'gin')`,
    );
    for (const ix of indexes) await tx.execute(sql`drop index ${sql.identifier(ix.indexname)}`);
    const out = await fill(tx as unknown as Database);
    // serial: a parallel HNSW build holds the graph in shared memory of that size, more than a container's
    // default /dev/shm (64 MB) allows
    if (maintenanceWorkMem) {
      await setLocal(tx, { maintenance_work_mem: maintenanceWorkMem, max_parallel_maintenance_workers: "0" });
    }
    for (const ix of indexes) await tx.execute(sql.raw(ix.indexdef));
    return out;
  });
}
