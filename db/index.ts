import fs from "node:fs";
import path from "node:path";
import type { ExtractTablesWithRelations, SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { LecternError } from "@/lib/errors";
import { readDatabaseConfig } from "./config";
import { acquireDataDirLock } from "./lock";
import * as schema from "./schema";

/** Both drivers (PGlite, node-postgres) give this type: one set of queries serves both. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
export type Driver = "pglite" | "postgres";

/** The `application_name` of a PostgreSQL handle's listening connection (pg_stat_activity shows it). */
export const LISTENER_APPLICATION_NAME = "lectern-listen";

/**
 * Runs raw SQL and returns its rows. Both drivers answer `execute` with `{ rows }`, but the shared `Database` type
 * cannot know that, so the cast lives here once.
 */
export async function queryRows<T>(db: Pick<Database, "execute">, query: SQL): Promise<T[]> {
  const r = (await db.execute(query)) as unknown as { rows: T[] };
  return r.rows;
}

export interface DbHandle {
  db: Database;
  driver: Driver;
  /** Human-readable location: the data directory or the server (password masked). */
  location: string;
  /**
   * Calls `onPayload` with the payload of each `NOTIFY` on `channel` (a plain identifier) until the returned stop is
   * called. On PostgreSQL one connection of its own (outside the pool) carries every channel of this handle.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * The driver's own connection, for a library that brings its own SQL (the job queue, lib/jobs): the PGlite instance,
   * or the PostgreSQL server's URL (such a library opens a pool of its own).
   */
  native:
    | { driver: "pglite"; client: import("@electric-sql/pglite").PGlite | import("./pglite-thread").PGliteThread }
    | { driver: "postgres"; url: string };
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

export interface OpenOptions {
  /** PostgreSQL URL; when absent, embedded PGlite is used. */
  url?: string;
  /** PGlite data directory; `null` for an in-memory database (tests). */
  dataDir?: string | null;
  /** Who holds the PGlite lock (shown to a second process). */
  role?: string;
  migrate?: boolean;
  /**
   * In-memory PGlite only: start from this dump of a data directory (`PGlite.dumpDataDir`) instead of an empty one.
   * Tests load a template migrated once per run (db/testing.ts): loading takes about a second, a new cluster about five.
   */
  loadDataDir?: Blob;
  /**
   * Runs after the migrations, before the handle is handed out; when it fails, the handle is closed and the opening
   * fails. The library's upgrades come in here (`runLibraryUpgrades`, lib/library/upgrades): they compute what lib/
   * reads off papers, and db/ imports no lib/ code but types and errors.
   */
  prepare?: (handle: DbHandle) => Promise<void>;
}

export const MIGRATIONS_DIR = path.join(process.cwd(), "drizzle");

function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres";
  }
}

export async function openDatabase(opts: OpenOptions): Promise<DbHandle> {
  const handle = opts.url
    ? await openPostgres(opts.url)
    : await openPglite(opts.dataDir ?? null, opts.role ?? "process", opts.loadDataDir);
  if (opts.migrate !== false || opts.prepare) {
    try {
      if (opts.migrate !== false) await migrateDatabase(handle);
      await opts.prepare?.(handle);
    } catch (e) {
      await handle.close().catch(() => {});
      throw e;
    }
  }
  return handle;
}

/**
 * PGlite runs in this thread and its queries resolve as microtasks, so a run of queries never lets the event loop
 * turn: a response being streamed (research events) is written only when the work ends. One macrotask turn before
 * each query (or transaction) lets pending I/O out; it costs microseconds.
 */
function yieldBeforeQueries(client: {
  query: (...a: never[]) => Promise<unknown>;
  exec: (...a: never[]) => Promise<unknown>;
  transaction: (...a: never[]) => Promise<unknown>;
}): void {
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  for (const name of ["query", "exec", "transaction"] as const) {
    const original = client[name].bind(client) as (...a: never[]) => Promise<unknown>;
    client[name] = (async (...args: never[]) => {
      await turn();
      return original(...args);
    }) as (typeof client)[typeof name];
  }
}

async function openPglite(dataDir: string | null, role: string, loadDataDir?: Blob): Promise<DbHandle> {
  // (a dump loads only into a new cluster: PGlite refuses a directory that already holds one)
  const [{ PGlite }, { vector }, { drizzle }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite-pgvector"),
    import("drizzle-orm/pglite"),
  ]);
  let release = () => {};
  let pgDir: string | undefined;
  if (dataDir) {
    release = acquireDataDirLock(dataDir, role);
    pgDir = path.join(dataDir, "pglite");
    fs.mkdirSync(pgDir, { recursive: true });
  }
  try {
    // A library on disk runs in a thread of its own (db/pglite-thread.ts): its statements never hold this thread's event
    // loop. In memory (tests, dumps) and with LECTERN_PGLITE_THREAD=0 it runs here.
    const threaded = pgDir !== undefined && !loadDataDir && process.env.LECTERN_PGLITE_THREAD !== "0";
    let client: import("@electric-sql/pglite").PGlite | import("./pglite-thread").PGliteThread;
    if (threaded) {
      const { PGliteThread } = await import("./pglite-thread");
      client = await PGliteThread.open(pgDir ?? null);
    } else {
      // The single-object form: PGlite 0.5 drops the options when the first argument is not a string.
      const local = new PGlite({ dataDir: pgDir, loadDataDir, extensions: { vector } });
      await local.waitReady;
      yieldBeforeQueries(local);
      client = local;
    }
    const db = drizzle({ client: client as import("@electric-sql/pglite").PGlite, schema }) as unknown as Database;
    return {
      db,
      driver: "pglite",
      location: pgDir ?? "memory",
      native: { driver: "pglite", client },
      async listen(channel, onPayload) {
        if (!CHANNEL.test(channel)) throw new Error(`Not a channel name: ${channel}`);
        const stop = await client.listen(channel, onPayload);
        return async () => {
          await stop();
        };
      },
      async close() {
        await client.close();
        release();
      },
    };
  } catch (e) {
    release();
    throw new LecternError("unavailable:database", `Could not open the embedded database in ${pgDir}.`, { cause: e });
  }
}

async function openPostgres(url: string): Promise<DbHandle> {
  const [{ default: pg }, { drizzle }] = await Promise.all([import("pg"), import("drizzle-orm/node-postgres")]);
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle client losing its server must not crash the process; the next query reports the failure.
  pool.on("error", (err) => console.error("[db] idle client error:", err.message));
  try {
    const c = await pool.connect();
    c.release();
  } catch (e) {
    await pool.end().catch(() => {});
    throw new LecternError(
      "unavailable:database",
      `Cannot reach PostgreSQL at ${maskUrl(url)}: ${(e as Error).message}`,
      {
        cause: e,
      },
    );
  }
  const db = drizzle({ client: pool, schema }) as unknown as Database;
  // LISTEN holds its connection for as long as it listens: one connection of its own, opened on first use, carries
  // every channel (a follower per pooled connection would drain the pool). Each channel is LISTENed once per
  // connection, and every listen() waits for that LISTEN: a caller that reads after listen() returns cannot miss a
  // NOTIFY committed after its read. A lost connection is replaced and its channels listened to again.
  const subscribers = new Map<string, Set<(payload: string) => void>>();
  interface Listener {
    client: import("pg").Client;
    listening: Map<string, Promise<void>>;
  }
  let listener: Promise<Listener> | null = null;
  let closed = false;
  const listenOn = (l: Listener, channel: string): Promise<void> => {
    let done = l.listening.get(channel);
    if (!done) {
      done = l.client.query(`LISTEN ${channel}`).then(() => {});
      // a LISTEN that failed is tried again by the next listen()
      done.catch(() => l.listening.delete(channel));
      l.listening.set(channel, done);
    }
    return done;
  };
  const channelsInUse = () => [...subscribers].filter(([, set]) => set.size > 0).map(([channel]) => channel);
  const connectListener = (): Promise<Listener> => {
    if (listener) return listener;
    const current: Promise<Listener> = (async () => {
      const client = new pg.Client({
        connectionString: url,
        connectionTimeoutMillis: 5_000,
        keepAlive: true,
        application_name: LISTENER_APPLICATION_NAME,
      });
      client.on("notification", (msg) => {
        for (const cb of subscribers.get(msg.channel) ?? []) cb(msg.payload ?? "");
      });
      const lost = (err?: Error) => {
        if (listener !== current) return; // closed, or already replaced
        listener = null;
        console.error(`[db] listening connection lost${err ? `: ${err.message}` : ""}; connecting again`);
        client.end().catch(() => {});
        // the channels still in use are listened to on a new connection, tried every 2 s until it works (those
        // who listen also read again on their own: followers poll, the queue's waits end)
        const again = () => {
          if (closed || channelsInUse().length === 0) return;
          connectListener()
            .then((l) => Promise.all(channelsInUse().map((channel) => listenOn(l, channel))))
            .catch(() => setTimeout(again, 2_000).unref());
        };
        setTimeout(again, 1_000).unref();
      };
      client.on("error", lost);
      client.on("end", () => lost());
      await client.connect();
      return { client, listening: new Map() };
    })();
    listener = current;
    current.catch(() => {
      if (listener === current) listener = null;
    });
    return current;
  };
  return {
    db,
    driver: "postgres",
    location: maskUrl(url),
    native: { driver: "postgres", url },
    async listen(channel, onPayload) {
      if (!CHANNEL.test(channel)) throw new Error(`Not a channel name: ${channel}`);
      let set = subscribers.get(channel);
      if (!set) {
        set = new Set();
        subscribers.set(channel, set);
      }
      set.add(onPayload);
      try {
        await listenOn(await connectListener(), channel);
      } catch (e) {
        set.delete(onPayload);
        throw e;
      }
      return async () => {
        set.delete(onPayload);
      };
    },
    async close() {
      closed = true;
      const l = listener;
      listener = null;
      if (l) await (await l.catch(() => null))?.client.end().catch(() => {});
      await pool.end();
    },
  };
}

export async function migrateDatabase(handle: DbHandle): Promise<void> {
  try {
    if (handle.driver === "pglite") {
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the driver-specific type of the same object
      await migrate(handle.db as any, { migrationsFolder: MIGRATIONS_DIR });
    } else {
      const { migrate } = await import("drizzle-orm/node-postgres/migrator");
      // instances and workers started together on one database take turns: the first applies what is pending, the
      // others then find nothing left (a session lock on a connection of its own, released when it closes)
      await withMigrationLock(handle, async () => {
        // biome-ignore lint/suspicious/noExplicitAny: as above
        await migrate(handle.db as any, { migrationsFolder: MIGRATIONS_DIR });
      });
    }
  } catch (e) {
    const msg = (e as Error).message ?? String(e);
    const hint = /extension "vector"|vector\.control|type "vector"/.test(msg)
      ? " The pgvector extension is missing: run `sudo bash scripts/setup-postgres.sh` (or CREATE EXTENSION vector as a superuser)."
      : "";
    throw new LecternError("unavailable:database", `Database migration failed: ${msg}.${hint}`, { cause: e });
  }
}

/** The advisory lock key migrations hold on PostgreSQL ("lecter" as a number: exact in a double). */
const MIGRATION_LOCK_KEY = 0x6c6563746572;

async function withMigrationLock(handle: DbHandle, work: () => Promise<void>): Promise<void> {
  if (handle.native.driver !== "postgres") return work();
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: handle.native.url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await work();
  } finally {
    await client.end().catch(() => {});
  }
}

const globalForDb = globalThis as unknown as {
  lecternDb?: Promise<DbHandle>;
  lecternDbPrepare?: OpenOptions["prepare"];
};

/**
 * The process-wide database, opened (and migrated) on first use and cached across hot reloads, where DATABASE_URL and
 * LECTERN_DATA_DIR say (db/config.ts). Nothing connects merely by importing this module. `prepare` (the server's
 * start passes the library's upgrades: instrumentation.ts) is kept and runs at every opening of this client — also
 * when a request opens it again after the start could not.
 */
export function getDbHandle(role = "app", { prepare }: Pick<OpenOptions, "prepare"> = {}): Promise<DbHandle> {
  if (prepare) globalForDb.lecternDbPrepare = prepare;
  if (!globalForDb.lecternDb) {
    const config = readDatabaseConfig();
    const p = openDatabase({ ...config, role, prepare: globalForDb.lecternDbPrepare });
    globalForDb.lecternDb = p;
    p.catch(() => {
      // let the next call try again (e.g. the server came back)
      if (globalForDb.lecternDb === p) globalForDb.lecternDb = undefined;
    });
  }
  return globalForDb.lecternDb;
}

/** Handles given by provideDbHandle, the latest last, and what getDbHandle held before the first of them. */
const provided: { stack: Promise<DbHandle>[]; before?: Promise<DbHandle> } = { stack: [] };

/**
 * Makes getDbHandle (and getDb) answer with `handle`, a database opened elsewhere, until the returned function takes it
 * back (then the latest one still provided answers, or what was there before the first). For tests of server actions
 * and route handlers, which run the app's own code on a test database (db/testing.ts: createAppTestDatabase).
 */
export function provideDbHandle(handle: DbHandle): () => void {
  if (provided.stack.length === 0) provided.before = globalForDb.lecternDb;
  const entry = Promise.resolve(handle);
  provided.stack.push(entry);
  globalForDb.lecternDb = entry;
  return () => {
    const at = provided.stack.indexOf(entry);
    if (at < 0) return;
    provided.stack.splice(at, 1);
    globalForDb.lecternDb = provided.stack[provided.stack.length - 1] ?? provided.before;
    if (provided.stack.length === 0) provided.before = undefined;
  };
}

export async function getDb(): Promise<Database> {
  return (await getDbHandle()).db;
}

export async function closeDb(): Promise<void> {
  const p = globalForDb.lecternDb;
  globalForDb.lecternDb = undefined;
  if (p) await (await p).close();
}

export { schema };
