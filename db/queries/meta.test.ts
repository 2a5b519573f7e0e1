import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { createTestDatabase } from "@/db/testing";
import { withIndexesRebuilt } from "./ingest";
import { readHnswPrecision } from "./meta";

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

describe("the HNSW index's precision", () => {
  it("is full on the embedded database and half on PostgreSQL (what the migrations built)", async () => {
    expect(await readHnswPrecision(handle.db)).toBe(handle.driver === "pglite" ? "full" : "half");
  });

  // (PostgreSQL only: the embedded database has one connection, so nothing runs beside a query)
  it.skipIf(!process.env.DATABASE_URL)(
    "is read while another session rebuilds the index, and the rebuild itself survives a concurrent one",
    async () => {
      if (handle.native.driver !== "postgres") throw new Error("expected PostgreSQL");
      const other = new pg.Client({ connectionString: handle.native.url });
      await other.connect();
      try {
        const { rows } = await other.query<{ def: string }>(
          "select pg_get_indexdef(c.oid) as def from pg_class c where c.relname = 'chunks_embedding_hnsw'",
        );
        const def = rows[0]?.def as string;
        // another session drops and recreates the index in a loop (a refit's rebuild, as fast as it goes)
        let stop = false;
        const churn = (async () => {
          while (!stop) {
            await other.query("begin");
            await other.query("drop index chunks_embedding_hnsw");
            await other.query(def);
            await other.query("commit");
          }
        })();
        const failures: string[] = [];
        try {
          // (read through pg_indexes, nearly every one of these failed with "cache lookup failed for attribute 1")
          for (let i = 0; i < 300; i++) {
            const got = await readHnswPrecision(handle.db).catch((e: Error) => e.message);
            if (got !== "half") failures.push(got);
          }
          // two rebuilds at once: the second reads the definitions only once the first has committed
          await Promise.all([
            withIndexesRebuilt(handle.db, "chunks", {}, async () => {}),
            withIndexesRebuilt(handle.db, "chunks", {}, async () => {}),
          ]);
        } finally {
          stop = true;
          await churn;
        }
        expect(failures).toEqual([]);
        const after = await other.query("select 1 from pg_class where relname = 'chunks_embedding_hnsw'");
        expect(after.rowCount).toBe(1);
      } finally {
        await other.end();
      }
    },
    60_000,
  );
});
