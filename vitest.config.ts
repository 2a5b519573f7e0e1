import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// vitest 5's reporter calls Map.groupBy, which Node 20 lacks; without this a failing test hides its message.
if (!(Map as unknown as { groupBy?: unknown }).groupBy) {
  Object.defineProperty(Map, "groupBy", {
    value<K, T>(items: Iterable<T>, key: (item: T, index: number) => K): Map<K, T[]> {
      const out = new Map<K, T[]>();
      let i = 0;
      for (const item of items) {
        const k = key(item, i++);
        const list = out.get(k);
        if (list) list.push(item);
        else out.set(k, [item]);
      }
      return out;
    },
  });
}

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    include: ["{lib,db,app,components,cli}/**/*.test.{ts,tsx}"],
    environment: "node",
    // one migrated database per run, copied by each test file's createTestDatabase (db/testing.ts)
    globalSetup: ["./db/testing-setup.ts"],
    // Guards against a hang, not a speed check: generous, so a loaded 2-core machine cannot fail a test by being slow.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
