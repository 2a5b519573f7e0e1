import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
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
