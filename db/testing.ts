import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { type DbHandle, openDatabase } from "@/db";

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or — when DATABASE_URL is set — a new
 * database on that PostgreSQL server (dropped again by `close`). Same schema, same queries, both ways.
 */
export async function createTestDatabase(): Promise<DbHandle> {
  const url = process.env.DATABASE_URL;
  if (!url) return openDatabase({ dataDir: null });
  const name = `lectern_test_${randomBytes(6).toString("hex")}`;
  const admin = await openDatabase({ url, migrate: false });
  await admin.db.execute(sql.raw(`create database ${name}`));
  await admin.close();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const handle = await openDatabase({ url: u.toString() });
  return {
    ...handle,
    async close() {
      await handle.close();
      const a = await openDatabase({ url, migrate: false });
      await a.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await a.close();
    },
  };
}
