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
    // PGlite migrations take a few seconds per file; integration tests get room for that.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
