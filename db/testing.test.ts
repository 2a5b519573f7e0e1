import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { cosineDistance, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbHandle, getDb, getDbHandle, openDatabase } from "@/db";
import { chunks, EMBEDDING_DIMENSIONS, papers } from "@/db/schema";
import { createAppTestDatabase, createTestDatabase, createTestInstance } from "@/db/testing";
import { searchText } from "@/lib/text/terms";

/**
 * Integration test of the test-database factory itself, against whichever backend the run uses:
 * in-memory PGlite by default, a fresh database on a real PostgreSQL server when DATABASE_URL is set.
 */

/** Rows of `db.execute`: node-postgres and PGlite both return `{ rows }`. */
async function rows<T>(handle: DbHandle, query: ReturnType<typeof sql>): Promise<T[]> {
  const res = (await handle.db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

/** A unit vector with most of its weight on `axis` (deterministic, distinct directions per axis). */
function unitVector(axis: number, noise = 0.01): number[] {
  const v = Array.from({ length: EMBEDDING_DIMENSIONS }, (_, i) => (i === axis ? 1 : noise * Math.sin(i + axis)));
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

const PAPER_ID = "2401.01234v2";

let handle: DbHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
});

afterAll(async () => {
  await handle?.close();
});

describe("createTestDatabase", () => {
  it("uses the backend the environment asks for", () => {
    expect(handle.driver).toBe(process.env.DATABASE_URL ? "postgres" : "pglite");
    if (process.env.DATABASE_URL) expect(handle.location).toMatch(/lectern_test_[0-9a-f]{12}/);
  });

  it("applies the migrations", async () => {
    const applied = await rows<{ n: number }>(handle, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(applied[0]?.n).toBeGreaterThanOrEqual(2);
    const tables = await rows<{ table_name: string }>(
      handle,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(["chunks", "library_meta", "pages", "papers", "summaries", "summary_chunks"]),
    );
  });

  it("has the vector extension", async () => {
    const ext = await rows<{ extname: string; extversion: string }>(
      handle,
      sql`select extname, extversion from pg_extension where extname = 'vector'`,
    );
    expect(ext).toHaveLength(1);
  });

  it("has the HNSW and GIN indexes", async () => {
    const idx = await rows<{ indexname: string; indexdef: string }>(
      handle,
      sql`select indexname, indexdef from pg_indexes where schemaname = 'public'`,
    );
    const def = (name: string) => idx.find((i) => i.indexname === name)?.indexdef ?? "";
    for (const name of ["chunks_embedding_hnsw", "summary_chunks_embedding_hnsw"]) {
      // denser graph; half-precision key on PostgreSQL, full precision on PGlite (db/schema.ts: HnswPrecision)
      expect(def(name), name).toMatch(
        handle.driver === "pglite"
          ? /USING hnsw \(embedding vector_cosine_ops\)/
          : /USING hnsw \(\(\(embedding\)::halfvec\(512\)\) halfvec_cosine_ops\)/,
      );
      expect(def(name), name).toMatch(/WITH \(m='32', ef_construction='128'\)/);
    }
    for (const name of ["chunks_tsv_gin", "summary_chunks_tsv_gin"]) {
      expect(def(name), name).toMatch(/USING gin \(tsv\)/);
    }
  });

  it("stores a chunk with an embedding, fills tsv, finds it by cosine distance, and cascades deletes", async () => {
    const { db } = handle;
    await db.insert(papers).values({
      id: PAPER_ID,
      docId: "a".repeat(64),
      arxivId: PAPER_ID,
      title: "Sparse Retrieval for Long Scientific Documents",
      authors: ["Ada Lovelace", "Alan Turing"],
      year: 2024,
      filePath: `papers/${"a".repeat(64)}.pdf`,
      fileName: "paper.pdf",
      fileSize: 1234,
      pageCount: 3,
      status: "ready",
    });
    const text = "The hybrid retriever fuses lexical and dense rankings with reciprocal rank fusion.";
    await db.insert(chunks).values([
      {
        chunkUid: "c1",
        paperId: PAPER_ID,
        pageNumber: 2,
        chunkIndex: 0,
        text,
        searchText: searchText(text),
        charStart: 0,
        charEnd: text.length,
        tokenCount: 14,
        embedding: unitVector(3),
      },
      {
        chunkUid: "c2",
        paperId: PAPER_ID,
        pageNumber: 3,
        chunkIndex: 1,
        text: "Conclusion: citations open the PDF at the right page.",
        charStart: 0,
        charEnd: 53,
        tokenCount: 9,
        embedding: unitVector(100),
      },
    ]);

    // The generated tsvector column is filled by the database from the row's search terms (lib/text/terms.ts).
    const [stored] = await db
      .select({ tsv: chunks.tsv, embedding: chunks.embedding })
      .from(chunks)
      .where(eq(chunks.chunkUid, "c1"));
    expect(stored?.tsv).toContain("'retriev'"); // retriever, light-stemmed
    expect(stored?.tsv).toContain("'fusion'");
    expect(stored?.tsv).not.toContain("'the'"); // stop word
    expect(stored?.embedding).toHaveLength(EMBEDDING_DIMENSIONS);

    // Full-text search over the generated column.
    const lexical = await db
      .select({ uid: chunks.chunkUid })
      .from(chunks)
      .where(
        sql`${chunks.tsv} @@ to_tsquery('simple', ${searchText("reciprocal rank fusion").split(" ").join(" & ")})`,
      );
    expect(lexical.map((r) => r.uid)).toEqual(["c1"]);

    // Nearest neighbour by cosine distance: c1's own direction finds c1 first, at distance ~0.
    const query = unitVector(3);
    const distance = cosineDistance(chunks.embedding, query);
    const nearest = await db.select({ uid: chunks.chunkUid, distance }).from(chunks).orderBy(distance).limit(2);
    expect(nearest.map((r) => r.uid)).toEqual(["c1", "c2"]);
    expect(Number(nearest[0]?.distance)).toBeLessThan(1e-4);
    expect(Number(nearest[1]?.distance)).toBeGreaterThan(0.5);

    // The HNSW index serves the ordering search uses (seq scans off: two rows would not pick it on cost alone).
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const res = (await tx.execute(
        handle.driver === "pglite"
          ? sql`explain select chunk_uid from chunks order by embedding <=> ${JSON.stringify(query)}::vector limit 2`
          : sql`explain select chunk_uid from chunks
              order by embedding::halfvec(512) <=> ${JSON.stringify(query)}::halfvec(512) limit 2`,
      )) as unknown as { rows: { "QUERY PLAN": string }[] };
      return res.rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain("chunks_embedding_hnsw");

    // Deleting the paper removes its chunks (ON DELETE CASCADE).
    await db.delete(papers).where(eq(papers.id, PAPER_ID));
    const left = await rows<{ n: number }>(handle, sql`select count(*)::int as n from chunks`);
    expect(left[0]?.n).toBe(0);
  });
});

describe("createTestDatabase on PostgreSQL", () => {
  it.skipIf(!process.env.DATABASE_URL)("drops its database on close", async () => {
    const extra = await createTestDatabase();
    const name = new URL(extra.location).pathname.slice(1);
    expect(name).toMatch(/^lectern_test_[0-9a-f]{12}$/);
    await extra.close();
    const found = await rows<{ n: number }>(
      handle,
      sql`select count(*)::int as n from pg_database where datname = ${name}`,
    );
    expect(found[0]?.n).toBe(0);
  });
});

describe("createTestInstance", () => {
  it("gives a migrated instance of its own, found where the app and the CLI look (its env), with nothing left to apply", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "lectern-test-instance-"));
    const one = await createTestInstance(path.join(dir, "one"));
    const two = await createTestInstance(path.join(dir, "two"));
    try {
      expect(one.env.LECTERN_DATA_DIR).toBe(path.join(dir, "one"));
      if (process.env.DATABASE_URL) {
        expect(one.env.DATABASE_URL).toMatch(/lectern_test_[0-9a-f]{12}/);
        expect(one.env.DATABASE_URL).not.toBe(two.env.DATABASE_URL);
      } else {
        expect(one.env.DATABASE_URL).toBeUndefined();
        // the embedded database is on disk already (copied from the template, not created at first opening)
        await expect(fs.stat(path.join(dir, "one", "pglite", "PG_VERSION"))).resolves.toBeTruthy();
      }
      const open = (env: typeof one.env) =>
        openDatabase({ url: env.DATABASE_URL, dataDir: env.LECTERN_DATA_DIR, migrate: false });
      const a = await open(one.env);
      const b = await open(two.env);
      try {
        const applied = await rows<{ n: number }>(a, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
        const expected = await rows<{ n: number }>(
          handle,
          sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
        );
        expect(applied[0]?.n).toBe(expected[0]?.n);
        // separate databases: a row written to one is not in the other
        await a.db.insert(papers).values({
          id: "2401.00009",
          docId: "9".repeat(64),
          title: "Only in one",
          filePath: "papers/9.pdf",
          fileName: "9.pdf",
          fileSize: 1,
          pageCount: 1,
          status: "ready",
        });
        const inTwo = await rows<{ n: number }>(b, sql`select count(*)::int as n from papers`);
        expect(inTwo[0]?.n).toBe(0);
      } finally {
        await a.close();
        await b.close();
      }
    } finally {
      await one.drop();
      await two.drop();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe("createAppTestDatabase", () => {
  it("is what the app's getDb and getDbHandle give until it is closed, then what was there before", async () => {
    const base = await createAppTestDatabase();
    try {
      const next = await createAppTestDatabase();
      try {
        expect(await getDbHandle()).toBe(await getDbHandle());
        expect((await getDbHandle()).db).toBe(next.db);
        expect(await getDb()).toBe(next.db);
      } finally {
        await next.close();
      }
      expect(await getDb()).toBe(base.db);
      // closed out of order, each still gives back what the others left
      const a = await createAppTestDatabase();
      const b = await createAppTestDatabase();
      await a.close();
      expect(await getDb()).toBe(b.db);
      await b.close();
      expect(await getDb()).toBe(base.db);
    } finally {
      await base.close();
    }
  });
});
