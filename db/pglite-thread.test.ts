import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LecternError } from "@/lib/errors";
import { type DbHandle, openDatabase, queryRows } from ".";
import { PGliteThread, THREAD_FOR_TESTS } from "./pglite-thread";

// The embedded database on disk runs in a worker thread (db/pglite-host.mjs); these check that it behaves as PGlite
// in the app's thread did, through drizzle and through the raw client the job queue uses.
function threadOf(h: DbHandle): PGliteThread {
  if (h.native.driver !== "pglite" || !(h.native.client instanceof PGliteThread)) throw new Error("not threaded");
  return h.native.client;
}

describe.skipIf(process.env.DATABASE_URL)("the embedded database in its own thread", () => {
  let dir: string;
  let handle: DbHandle;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-thread-"));
    handle = await openDatabase({ dataDir: dir, migrate: false });
    await handle.db.execute(sql`create extension if not exists vector`);
    await handle.db.execute(
      sql`create table t (id int primary key, at timestamptz not null default now(), v vector(3), tags text[])`,
    );
  });

  afterAll(async () => {
    await handle?.close().catch(() => {});
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("runs in a thread, and reads rows as PGlite here did: timestamps as text, vectors, arrays", async () => {
    expect(handle.native.driver === "pglite" && handle.native.client instanceof PGliteThread).toBe(true);
    await handle.db.execute(sql`insert into t (id, v, tags) values (1, '[1,2,3]', array['a','b'])`);
    const [row] = await queryRows<{ id: number; at: unknown; v: string; tags: string[] }>(
      handle.db,
      sql`select id, at, v::text as v, tags from t where id = 1`,
    );
    expect(row).toMatchObject({ id: 1, v: "[1,2,3]", tags: ["a", "b"] });
    expect(typeof row?.at === "string" || row?.at instanceof Date).toBe(true);
  });

  it("keeps PostgreSQL's error fields", async () => {
    const err = await handle.db.execute(sql`insert into t (id) values (1)`).then(
      () => null,
      (e: unknown) => e as { code?: string; constraint?: string; cause?: { code?: string } },
    );
    expect(err).not.toBeNull();
    const code = err?.code ?? err?.cause?.code;
    expect(code).toBe("23505");
  });

  it("commits a transaction, rolls one back on its error, and a savepoint inside one", async () => {
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t (id) values (2)`);
    });
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`insert into t (id) values (3)`);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t (id) values (4)`);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into t (id) values (5)`);
          throw new Error("inner");
        })
        .catch(() => {});
    });
    const ids = await queryRows<{ id: number }>(handle.db, sql`select id from t order by id`);
    expect(ids.map((r) => r.id)).toEqual([1, 2, 4]);
  });

  it("serves statements sent while a transaction is open once it ends, and several at once", async () => {
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const tx = handle.db.transaction(async (t) => {
      await t.execute(sql`insert into t (id) values (6)`);
      await held;
    });
    const outside = queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from t`);
    await new Promise((r) => setTimeout(r, 20));
    release();
    await tx;
    expect((await outside)[0]?.n).toBeGreaterThanOrEqual(3);
    const many = await Promise.all(
      Array.from({ length: 20 }, (_, i) => queryRows<{ i: number }>(handle.db, sql`select ${i}::int as i`)),
    );
    expect(many.map((r) => r[0]?.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it("delivers notifications to every listener of a channel until it stops", async () => {
    const got: string[] = [];
    const [stopA, stopB] = await Promise.all([
      handle.listen("thread_test", (p) => got.push(`a:${p}`)),
      handle.listen("thread_test", (p) => got.push(`b:${p}`)),
    ]);
    await handle.db.execute(sql`select pg_notify('thread_test', 'one')`);
    await new Promise((r) => setTimeout(r, 50));
    expect(got.sort()).toEqual(["a:one", "b:one"]);
    await stopA();
    await stopB();
    await handle.db.execute(sql`select pg_notify('thread_test', 'two')`);
    await new Promise((r) => setTimeout(r, 50));
    expect(got).toHaveLength(2);
  });

  it("sends parameters as PGlite here read them: a URL as its text, an object with toJSON as its JSON", async () => {
    const client = threadOf(handle);
    const url = new URL("https://arxiv.org/abs/1");
    const money = { cents: 250, toJSON: () => ({ amount: 2.5 }) };
    const r = await client.query<{ u: string; j: unknown }>("select $1::text as u, $2::jsonb as j", [url, money]);
    expect(r.rows[0]).toEqual({ u: "https://arxiv.org/abs/1", j: { amount: 2.5 } });
  });

  it("starts a new thread when its thread dies: committed rows kept, listeners kept, a dead transaction's statements refused", async () => {
    const client = threadOf(handle);
    await handle.db.execute(sql`insert into t (id) values (16)`);
    const got: string[] = [];
    const stop = await handle.listen("thread_revive", (p) => got.push(p));
    // a transaction open when the thread dies
    let txQuery: ((q: string) => Promise<unknown>) | null = null;
    let releaseTx: () => void = () => {};
    const txDone = client
      .transaction(async (tx) => {
        await tx.query("insert into t (id) values (17)");
        txQuery = (q) => tx.query(q);
        await new Promise<void>((r) => {
          releaseTx = r;
        });
        await tx.query("insert into t (id) values (18)");
      })
      .then(
        () => "committed",
        (e: unknown) => (e instanceof LecternError ? e.code : String(e)),
      );
    await expect.poll(() => txQuery !== null, { timeout: 60_000 }).toBe(true);
    // the thread ends as a crash would end it
    const worker = client[THREAD_FOR_TESTS];
    const exited = new Promise((r) => worker.once("exit", r));
    await worker.terminate();
    await exited;
    releaseTx();
    expect(await txDone).toBe("unavailable:database");
    // the next call starts a new thread: rows committed before are there, the dead transaction's are not
    const ids = await queryRows<{ id: number }>(handle.db, sql`select id from t where id >= 16 order by id`);
    expect(ids.map((r) => r.id)).toEqual([16]);
    expect(client[THREAD_FOR_TESTS]).not.toBe(worker);
    // a statement of the transaction begun on the dead thread is refused, never run on the new one
    await expect(
      (txQuery as unknown as (q: string) => Promise<unknown>)("insert into t (id) values (19)"),
    ).rejects.toMatchObject({
      code: "unavailable:database",
    });
    expect((await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from t where id = 19`))[0]?.n).toBe(
      0,
    );
    // the channel listened to before is listened to again
    await handle.db.execute(sql`select pg_notify('thread_revive', 'after')`);
    await expect.poll(() => got, { timeout: 60_000 }).toEqual(["after"]);
    await stop();
    // a transaction on the new thread commits
    await client.transaction(async (tx) => {
      await tx.query("insert into t (id) values (20)");
    });
    await handle.db.execute(sql`delete from t where id >= 16`);
  });

  it("does not start a new thread on a directory that no longer holds the database, nor retry at once", async () => {
    const own = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-thread-gone-"));
    const thread = await PGliteThread.open(own);
    try {
      await thread.query("create table kept (id int)");
      const worker = thread[THREAD_FOR_TESTS];
      await worker.terminate();
      fs.rmSync(own, { recursive: true, force: true });
      const first = await thread.query("select 1").then(
        () => null,
        (e: unknown) => e as LecternError,
      );
      expect(first?.code).toBe("unavailable:database");
      expect(first?.message).toContain("no longer holds it");
      // nothing was made there: PGlite would have made a new, empty database
      expect(fs.existsSync(path.join(own, "PG_VERSION"))).toBe(false);
      // within the interval the next call is refused at once, saying when it tries again
      await expect(thread.query("select 1")).rejects.toThrow(/trying again in \d s/);
    } finally {
      await thread.close();
      fs.rmSync(own, { recursive: true, force: true });
    }
  });

  it("answers every call after it closed with a clear error; the directory opens again, in this thread when told to", async () => {
    // a call sent while it closes, and a second close, are answered too (none is left waiting)
    const client = threadOf(handle);
    const closing = handle.close();
    const during = client.query("select 1").then(
      () => "answered",
      (e: unknown) => (e instanceof LecternError ? e.code : String(e)),
    );
    await Promise.all([closing, client.close()]);
    expect(await during).toBe("unavailable:database");
    const err = await queryRows(handle.db, sql`select 1`).then(
      () => null,
      (e: unknown) => e as Error & { cause?: unknown },
    );
    const cause = err instanceof LecternError ? err : err?.cause;
    expect(cause).toBeInstanceOf(LecternError);
    expect((cause as LecternError).code).toBe("unavailable:database");
    process.env.LECTERN_PGLITE_THREAD = "0";
    try {
      handle = await openDatabase({ dataDir: dir, migrate: false });
    } finally {
      delete process.env.LECTERN_PGLITE_THREAD;
    }
    expect(handle.native.driver === "pglite" && !(handle.native.client instanceof PGliteThread)).toBe(true);
    const ids = await queryRows<{ id: number }>(handle.db, sql`select id from t order by id`);
    expect(ids.map((r) => r.id)).toEqual([1, 2, 4, 6]);
  });
});
