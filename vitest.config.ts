import fs from "node:fs";
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
const TEST_DIRS = ["lib", "db", "app", "components", "cli"];
const include = [`{${TEST_DIRS.join(",")}}/**/*.test.{ts,tsx}`];

/**
 * Test files that change what other files would see: module mocks (vi.mock), the environment (vi.stubEnv, writes to
 * process.env, cli/testing's replaceEnv), globals and spies. They run isolated — a fresh module graph per file, as
 * vitest does by default. Every other file runs in a worker that keeps its modules loaded from one file to the next
 * (isolate: false): importing the app's module graph (drizzle, PGlite, the AI SDK, pdf.js…) once per worker instead of
 * once per file cut the PGlite suite from 290 s to 212–233 s wall and 551 to 400–446 CPU-s on 2 cores (2026-11-26,
 * `time npx vitest run`). A new test that mutates shared state this way is classified by the same check, so it cannot
 * leak into the shared workers (cli/testing's openCliLibrary swaps the environment too, and counts as such).
 */
const MUTATES_SHARED_STATE =
  /\bvi\.(mock|doMock|stubEnv|stubGlobal|spyOn|useFakeTimers)\b|process\.env(\.[A-Za-z_]+|\[[^\]]+\])\s*=[^=]|delete process\.env|\b(replaceEnv|openCliLibrary)\b/;

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.test\.tsx?$/.test(entry.name)) {
      out.push(path.relative(root, path.join(entry.parentPath, entry.name)));
    }
  }
  return out;
}

const isolated = TEST_DIRS.flatMap(testFiles)
  .filter((file) => MUTATES_SHARED_STATE.test(fs.readFileSync(path.join(root, file), "utf8")))
  .sort();

export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      // Next's request-bound modules throw outside a Next request; the app's code gets their test stand-in instead
      "next/headers": path.join(root, "app/next-stand-in.ts"),
      "next/cache": path.join(root, "app/next-stand-in.ts"),
      "server-only": path.join(root, "app/next-stand-in.ts"),
    },
  },
  test: {
    environment: "node",
    // one migrated database per run, copied by each test file's createTestDatabase (db/testing.ts)
    globalSetup: ["./db/testing-setup.ts"],
    // before each file: the request Next's stand-in serves the app's code starts empty (app/next-stand-in.ts)
    setupFiles: ["./app/next-stand-in.setup.ts"],
    // Guards against a hang, not a speed check: generous, so a loaded 2-core machine cannot fail a test by being slow.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    // Worker threads rather than child processes: one process holds every file's V8 isolate, and V8 shares compiled
    // WebAssembly across the isolates of a process, so PGlite's 9 MB of wasm is compiled once per run instead of once per
    // isolated file (each a new process with forks). Measured on this 2-core machine, `time npx vitest run`
    // (2026-11-27): PGlite 172.5 s / 320 CPU-s with forks, 129–130 s / 237 CPU-s with threads; PostgreSQL 95 s / 127
    // CPU-s, 83 s / 109 CPU-s. The same 135 files and tests pass either way; each thread has its own copy of
    // process.env, so the isolated files' environment changes stay theirs. (They also share one process id, which the
    // embedded database's directory lock, db/lock.ts, takes for the same holder: test files use directories of their own.)
    pool: "threads",
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "isolated", include: isolated, isolate: true } },
      { extends: true, test: { name: "shared", include, exclude: isolated, isolate: false } },
    ],
  },
});
