import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, devices } from "@playwright/test";
import { E2E_PORT, OUTPUT_DIR, OWNER_STATE } from "./e2e/run";

/**
 * End-to-end tests (e2e/*.spec.ts) against the production build on 127.0.0.1:3100.
 *
 * - Browser: Debian's Chromium (`bash scripts/setup-browser.sh`); Playwright never downloads one here.
 * - Server: scripts/e2e-server.sh — fresh .data-e2e/<port> (and a fresh `<db>_e2e_<port>` database when DATABASE_URL
 *   is set),
 *   `next build` (skip with E2E_SKIP_BUILD=1), `next start`, no OpenAI variables (offline).
 *   Locally an app already listening on :3100 is reused; in CI (CI set) a new one is always started.
 * - One worker: every test shares the one server and its library, so tests must not race each other.
 * - No retries: a flaky e2e test is a bug to fix, not to hide.
 */
/** 3100, or E2E_PORT (to run a second suite beside one on 3100: e2e/run.ts names what each run writes). */
const PORT = E2E_PORT;
/** The repository root (this file's directory), so configs that extend this one still start the right server. */
const ROOT = path.dirname(fileURLToPath(import.meta.url));
const CI = Boolean(process.env.CI);
/** The local arXiv stand-in (e2e/arxiv-standin-server.ts) the app is pointed at: no test reaches the real arXiv. */
const ARXIV_PORT = Number(process.env.E2E_ARXIV_PORT ?? PORT + 1000);
/** The local web stand-in (e2e/web-stand-in.ts: SearXNG JSON, pages, robots.txt) the web search step is pointed at. */
const WEB_PORT = Number(process.env.E2E_WEB_PORT ?? PORT + 2000);

/**
 * Chromium's headless shell (Debian's chromium-headless-shell: the Blink and V8 of the full browser without its
 * windowing; what Playwright itself runs headless by default), with the flags this machine's closed network needs.
 * Against the full browser it ran the PGlite suite in 225 s instead of 291, with Chromium's processes taking 158 CPU-s
 * instead of 305 (renderer 104 vs 188, browser 26 vs 78; 49 passed both ways; 2026-11-27, sampled from /proc).
 */
export const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: "/usr/bin/chromium-headless-shell",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  },
  // Less motion, as a user can ask their system for (app/globals.css honours it): no spinner or pulse repainting while
  // a test waits, no dialog zoom for Playwright's stability check to wait out. The PGlite suite alone, two runs each
  // way, back to back (2026-11-27): 139 and 144 CPU-s (the whole machine's, from /proc/stat) against 150 and 147.
  contextOptions: { reducedMotion: "reduce" as const },
};

export default defineConfig({
  testDir: path.join(ROOT, "e2e"),
  // The multi-process topology starts its own servers and runs beside this suite: playwright.multi-process.config.ts
  testIgnore: /multi-process\.spec\.ts$/,
  outputDir: OUTPUT_DIR,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: CI,
  reporter: "list",
  // Guards against a hang, not speed checks: a passing test takes 2–15 s, but a loaded 2-core machine (ingestion: pdf
  // parse, chunk, embed, write, with a cold server) must not fail one by being slow.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: "only-on-failure",
    // No trace: recording one for every test (DOM snapshots at each action, kept only when the test fails) cost the
    // PGlite suite 42 s of its 225 (renderer 104 → 79 CPU-s, Playwright's runner 51 → 34, browser 26 → 19; 2026-11-27,
    // sampled from /proc). A failure still leaves its screenshot and the page's ARIA snapshot (error-context.md) in
    // test-results/; to debug one with a trace: `npx playwright test --trace retain-on-failure <spec>`.
    trace: "off",
  },
  projects: [
    // signs in once, through the UI (creating the owner account on the fresh instance), for every spec to reuse
    { name: "setup", testMatch: /auth\.setup\.ts/, use: { ...chromium } },
    {
      name: "chromium",
      dependencies: ["setup"],
      use: { ...chromium, storageState: OWNER_STATE },
    },
  ],
  webServer: [
    {
      command: `npx tsx e2e/web-stand-in.ts ${WEB_PORT}`,
      cwd: ROOT,
      url: `http://127.0.0.1:${WEB_PORT}/healthz`,
      timeout: 60_000,
      reuseExistingServer: !CI,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: `npx tsx e2e/arxiv-standin-server.ts ${ARXIV_PORT}`,
      cwd: ROOT,
      url: `http://127.0.0.1:${ARXIV_PORT}/api/query`,
      timeout: 60_000,
      reuseExistingServer: !CI,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: "bash scripts/e2e-server.sh",
      cwd: ROOT,
      url: `http://127.0.0.1:${PORT}`,
      env: {
        E2E_PORT: String(PORT),
        LECTERN_ARXIV_API_URL: `http://127.0.0.1:${ARXIV_PORT}/api/query`,
        LECTERN_ARXIV_PDF_URL: `http://127.0.0.1:${ARXIV_PORT}/pdf`,
        // web search through the stand-in, only when a test asks for it (other specs' plans stay as they are); the
        // allow-list lets the app fetch the stand-in's pages on 127.0.0.1, which it refuses otherwise
        LECTERN_SEARXNG_URL: `http://127.0.0.1:${WEB_PORT}`,
        LECTERN_WEB_SEARCH: "on_request",
        LECTERN_WEB_ALLOW_HOSTS: "127.0.0.1",
      },
      // `next build` takes one to two minutes on 2 cores; a loaded machine gets room.
      timeout: 10 * 60_000,
      reuseExistingServer: !CI,
      stdout: "pipe",
      stderr: "pipe",
    },
  ],
});
