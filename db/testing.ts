import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { type DbHandle, openDatabase } from "@/db";

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or — when DATABASE_URL is set — a new
 * database on that PostgreSQL server (dropped again by `close`). Same schema, same queries, both ways.
 */
export async function createTestDatabase(): Promise<DbHandle> {
  const server = process.env.DATABASE_URL;
  if (!server) return openDatabase({ dataDir: null });
  const { url, drop } = await createServerDatabase(server);
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
 * A new, empty database on the PostgreSQL server of `server` (a URL): its URL, for a test that hands it to another
 * process (the CLI), and `drop`, which removes it.
 */
export async function createServerDatabase(server: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lectern_test_${randomBytes(6).toString("hex")}`;
  const admin = await openDatabase({ url: server, migrate: false });
  await admin.db.execute(sql.raw(`create database ${name}`));
  await admin.close();
  const u = new URL(server);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const a = await openDatabase({ url: server, migrate: false });
      await a.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await a.close();
    },
  };
}
