import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import base, { chromium } from "./playwright.config";

/**
 * e2e/multi-process.spec.ts on its own (`npm run test:e2e:multi`): the lab topology of issue 24, which the spec starts
 * itself on the existing `next build` — two instances, two workers, its own `<db>_mp` database, an S3 stand-in and a
 * model stand-in, each on a free port. It needs none of playwright.config.ts's servers or its signed-in owner, so it
 * runs as a Playwright process of its own beside the main suite (scripts/test.sh does so when DATABASE_URL is set;
 * without it the spec is skipped). Run in the main suite's process it came after every other spec: about 2 minutes
 * more of a waiting chain. Everything else (timeouts, one worker, no retries, the browser) is the main config's.
 */
const ROOT = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  ...base,
  testIgnore: undefined,
  testMatch: /multi-process\.spec\.ts$/,
  outputDir: path.join(ROOT, "test-results", "e2e-multi-process"),
  webServer: undefined,
  projects: [{ name: "multi-process", use: { ...chromium } }],
});
