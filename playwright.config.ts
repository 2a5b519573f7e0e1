import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, devices } from "@playwright/test";

/**
 * End-to-end tests (e2e/*.spec.ts) against the production build on 127.0.0.1:3100.
 *
 * - Browser: Debian's Chromium (`bash scripts/setup-browser.sh`); Playwright never downloads one here.
 * - Server: scripts/e2e-server.sh — fresh .data-e2e (and a fresh `<db>_e2e` database when DATABASE_URL is set),
 *   `next build` (skip with E2E_SKIP_BUILD=1), `next start`, no OpenAI variables (offline).
 *   Locally an app already listening on :3100 is reused; in CI (CI set) a new one is always started.
 * - One worker: every test shares the one server and its library, so tests must not race each other.
 * - No retries: a flaky e2e test is a bug to fix, not to hide.
 */
const PORT = 3100;
/** The repository root (this file's directory), so configs that extend this one still start the right server. */
const ROOT = path.dirname(fileURLToPath(import.meta.url));
const CI = Boolean(process.env.CI);

export default defineConfig({
  testDir: path.join(ROOT, "e2e"),
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: CI,
  reporter: "list",
  // Ingestion (pdf parse, chunk, embed, write) on a 2-core machine with a cold server takes a few seconds.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: "/usr/bin/chromium",
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
      },
    },
  ],
  webServer: {
    command: "bash scripts/e2e-server.sh",
    cwd: ROOT,
    url: `http://127.0.0.1:${PORT}`,
    env: { E2E_PORT: String(PORT) },
    // `next build` takes a couple of minutes on 2 cores.
    timeout: 5 * 60_000,
    reuseExistingServer: !CI,
    stdout: "pipe",
    stderr: "pipe",
  },
});
