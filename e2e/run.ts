import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * What makes one e2e run separate from another on the same machine: the app's port (E2E_PORT, default 3100) names
 * everything else the run writes, so two suites — .ci/run's PGlite and PostgreSQL runs — can go side by side on one
 * build. scripts/e2e-server.sh derives the same from the port: the data directory `.data-e2e/<port>` and, on
 * PostgreSQL, the database `<db>_e2e_<port>`.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);

const E2E_DIR = path.dirname(fileURLToPath(import.meta.url));

/** Where the setup project keeps the owner's signed-in browser state (cookies), for every other test to start from. */
export const OWNER_STATE = path.join(E2E_DIR, ".auth", `owner-${E2E_PORT}.json`);

/** Playwright's output (traces, failure screenshots) and the screenshots specs take for review. */
export const OUTPUT_DIR = path.join(E2E_DIR, "..", "test-results", `e2e-${E2E_PORT}`);
