import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { inject } from "vitest";
import { type DbHandle, openDatabase, provideDbHandle } from "@/db";

/**
 * A migrated database made once per test run (db/testing-setup.ts, vitest's globalSetup), which each test file's
 * `createTestDatabase` copies: a dump of an in-memory PGlite's data directory (a tar file), or a database on the
 * PostgreSQL server of DATABASE_URL used as a `create database … template`. A new PGlite cluster and the migrations
 * cost about six seconds per file on a 2-core machine; loading the dump about one.
 */
export type TestDatabaseTemplate = { driver: "pglite"; file: string } | { driver: "postgres"; name: string };

declare module "vitest" {
  export interface ProvidedContext {
    testDatabaseTemplate: TestDatabaseTemplate | null;
  }
}

/** Makes the template for the backend the environment asks for; `dispose` removes it. */
export async function prepareTestDatabaseTemplate(): Promise<{
  template: TestDatabaseTemplate;
  dispose(): Promise<void>;
}> {
  const server = process.env.DATABASE_URL;
  if (server) {
    const { url, name, drop } = await createServerDatabase(server, { prefix: "lectern_template" });
    const handle = await openDatabase({ url });
    await handle.close();
    return { template: { driver: "postgres", name }, dispose: drop };
  }
  const handle = await openDatabase({ dataDir: null });
  try {
    if (handle.native.driver !== "pglite") throw new Error("expected the embedded database");
    const client = handle.native.client;
    if (!("dumpDataDir" in client)) throw new Error("expected the in-memory database in this thread");
    // The cluster's template databases go: a test database never creates another, and they are 15 of the 41 MB that
    // every test file would otherwise load (the 16 MB WAL segment stays: the cluster needs it to start).
    for (const name of ["template0", "template1"]) {
      await client.exec(`alter database ${name} is_template false`);
      await client.exec(`drop database ${name}`);
    }
    const dump = await client.dumpDataDir("none");
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "lectern-test-db-"));
    const file = path.join(dir, "template.tar");
    await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
    return { template: { driver: "pglite", file }, dispose: () => fs.rm(dir, { recursive: true, force: true }) };
  } finally {
    await handle.close();
  }
}

/** The run's template, when vitest's globalSetup made one for this backend; else null (made from scratch then). */
function templateFor<D extends TestDatabaseTemplate["driver"]>(
  driver: D,
): Extract<TestDatabaseTemplate, { driver: D }> | null {
  const template = inject("testDatabaseTemplate");
  return template?.driver === driver ? (template as Extract<TestDatabaseTemplate, { driver: D }>) : null;
}

/**
 * A Blob whose `arrayBuffer()` hands back a copy of the bytes it was made from: PGlite reads a dump with
 * `arrayBuffer()`, which Node 20's own Blob serves by reading its store in chunks and joining them — about 0.4 CPU-s
 * for this 27 MB dump, against a few milliseconds for the copy (measured on this machine, 2026-11-27).
 */
class BytesBlob extends Blob {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  constructor(bytes: Uint8Array<ArrayBuffer>) {
    super([bytes], { type: "application/x-tar" });
    this.#bytes = bytes;
  }
  override async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#bytes.slice().buffer;
  }
}

/** The template's dump, read from its file once per module instance. */
const dumps = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();
async function templateDump(file: string): Promise<Blob> {
  let bytes = dumps.get(file);
  if (!bytes) {
    bytes = fs.readFile(file).then((b) => new Uint8Array(b));
    dumps.set(file, bytes);
  }
  return new BytesBlob(await bytes);
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or — when DATABASE_URL is set — a new
 * database on that PostgreSQL server (dropped again by `close`). Same schema, same queries, both ways. Each call gives
 * a database of its own, copied from the run's migrated template; the migrations are still checked at opening (none
 * left to apply), so a template older than drizzle/ would be brought up to date, not trusted.
 */
export async function createTestDatabase(): Promise<DbHandle> {
  const server = process.env.DATABASE_URL;
  if (!server) {
    const template = templateFor("pglite");
    if (!template) return openDatabase({ dataDir: null });
    return openDatabase({ dataDir: null, loadDataDir: await templateDump(template.file) });
  }
  const template = templateFor("postgres");
  const { url, drop } = await createServerDatabase(server, { template: template?.name });
  const handle = await openDatabase({ url });
  return {
    ...handle,
    async close() {
      await handle.close();
      await drop();
    },
  };
}

/**
 * A fresh test database (createTestDatabase) that the app's own code is given by getDb and getDbHandle until `close`:
 * server actions and route handlers run as in the app, on it.
 */
export async function createAppTestDatabase(): Promise<DbHandle> {
  const handle = await createTestDatabase();
  const restore = provideDbHandle(handle);
  return {
    ...handle,
    async close() {
      restore();
      await handle.close();
    },
  };
}

/**
 * A migrated database for tests that let the code under test open it as the app and the CLI do, from the environment:
 * `env` holds LECTERN_DATA_DIR (`dataDir`, whose embedded database is loaded from the run's template) and, when
 * DATABASE_URL is set, the URL of a new database on that server copied from the server's template. So the first
 * command finds an up-to-date instance instead of spending ~7 s (10 CPU-s) creating a cluster and migrating it.
 * For tests of what commands do; a new install's first start is tested from an empty directory (cli/cli.test.ts,
 * db/index.test.ts). `drop` removes the server database; the data directory is the caller's.
 */
export async function createTestInstance(
  dataDir: string,
): Promise<{ env: { LECTERN_DATA_DIR: string; DATABASE_URL?: string }; drop(): Promise<void> }> {
  const server = process.env.DATABASE_URL;
  if (server) {
    const { url, drop } = await createServerDatabase(server, { template: templateFor("postgres")?.name });
    return { env: { LECTERN_DATA_DIR: dataDir, DATABASE_URL: url }, drop };
  }
  const template = templateFor("pglite");
  if (template) {
    const handle = await openDatabase({
      dataDir,
      loadDataDir: await templateDump(template.file),
      role: "test setup",
      migrate: false,
    });
    await handle.close();
  }
  return { env: { LECTERN_DATA_DIR: dataDir }, drop: async () => {} };
}

/**
 * A new database on the PostgreSQL server of `server` (a URL): empty, or a copy of `template`. Its URL, for a test
 * that hands it to another process (the CLI), its name, and `drop`, which removes it.
 */
export async function createServerDatabase(
  server: string,
  opts: { template?: string; prefix?: string } = {},
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${opts.prefix ?? "lectern_test"}_${randomBytes(6).toString("hex")}`;
  const admin = await openDatabase({ url: server, migrate: false });
  try {
    await admin.db.execute(sql.raw(`create database ${name}${opts.template ? ` template ${opts.template}` : ""}`));
  } finally {
    await admin.close();
  }
  const u = new URL(server);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    name,
    async drop() {
      const a = await openDatabase({ url: server, migrate: false });
      try {
        await a.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
      } finally {
        await a.close();
      }
    },
  };
}
