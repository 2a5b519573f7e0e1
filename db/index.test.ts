import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { type DbHandle, openDatabase, queryRows } from "@/db";
import { readLock } from "@/db/lock";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tempDataDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-open-"));
  dirs.push(d);
  return d;
}

describe("openDatabase's prepare", () => {
  it("runs after the migrations, before the handle is handed out; its failure fails the opening and frees the lock", async () => {
    const dataDir = tempDataDir();
    const seen: string[] = [];
    const handle = await openDatabase({
      dataDir,
      prepare: async (h: DbHandle) => {
        // the migrations are applied: their tables are there
        const [row] = await queryRows<{ n: number }>(h.db, sql`select count(*)::int as n from library_meta`);
        seen.push(typeof row?.n === "number" ? "migrated" : "not migrated");
      },
    });
    expect(seen).toEqual(["migrated"]);
    await handle.close();

    await expect(
      openDatabase({
        dataDir,
        prepare: async () => {
          throw new Error("upgrade refused");
        },
      }),
    ).rejects.toThrow("upgrade refused");
    // the handle was closed: the data directory is free for the next process
    expect(readLock(dataDir)).toBeNull();
    const again = await openDatabase({ dataDir, migrate: false });
    await again.close();
  });
});
