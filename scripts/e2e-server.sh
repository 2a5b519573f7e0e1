#!/usr/bin/env bash
# e2e-server.sh — the production app for Playwright (started by playwright.config.ts's webServer), on
# 127.0.0.1:${E2E_PORT:-3100}, with fresh state on every run and no network use:
#   - LECTERN_DATA_DIR=.data-e2e/<port>, deleted first (uploaded PDFs; the PGlite database when DATABASE_URL is unset)
#   - DATABASE_URL set: the e2e run uses its own database on that server, `<dbname>_e2e_<port>`, dropped and created
#     anew
#   (named by the port, as e2e/run.ts names the run's other files, so two runs on different ports can go side by side)
#     (template1 carries the vector extension when the server was set up by scripts/setup-postgres.sh)
#   - DATABASE_URL unset: exported empty, so a DATABASE_URL in .env/.env.local cannot leak in (Next's env loader only
#     fills variables that are undefined; the app treats empty as unset)
#   - OPENAI_API_KEY / OPENAI_BASE_URL exported empty for the same reason: e2e runs offline (no LLM configured)
#   - `next build` first unless E2E_SKIP_BUILD=1 (then the existing .next build is used, and one must be there; the
#     build does not depend on DATABASE_URL, so .ci/run's PostgreSQL phase reuses the PGlite phase's);
#     `--build-only`: the build alone, then exit (scripts/test.sh builds before its suites start)
set -euo pipefail
cd "$(dirname "$0")/.."

build() {
  export NEXT_TELEMETRY_DISABLED=1
  echo "[e2e-server] next build (types were checked by \`npm run typecheck\`)" >&2
  # (in CI the checkout is fresh: no build cache to reuse, none worth writing)
  LECTERN_BUILD_SKIP_TYPECHECK=1 LECTERN_BUILD_NO_CACHE="$([ -n "${CI:-}" ] && echo 1 || echo 0)" npx next build
}
# --build-only: the build and nothing else (scripts/test.sh builds before its suites start)
if [ "${1:-}" = --build-only ]; then
  build
  exit 0
fi

PORT="${E2E_PORT:-3100}"
export LECTERN_DATA_DIR=".data-e2e/${PORT}"
export OPENAI_API_KEY="" OPENAI_BASE_URL=""
export LECTERN_EMBEDDING_PROVIDER="" LECTERN_EMBEDDING_MODEL="" LECTERN_EMBEDDING_DIMENSIONS=""
export NEXT_TELEMETRY_DISABLED=1

rm -rf "$LECTERN_DATA_DIR"
mkdir -p .data-e2e

if [ -n "${DATABASE_URL:-}" ]; then
  # Fresh database next to the given one, via node-postgres (no psql needed on this machine).
  DATABASE_URL="$(E2E_PORT="$PORT" node --input-type=module -e '
    import pg from "pg";
    const url = new URL(process.env.DATABASE_URL);
    const base = decodeURIComponent(url.pathname.slice(1)) || "postgres";
    const name = `${base}_e2e_${process.env.E2E_PORT}`.replace(/[^A-Za-z0-9_]/g, "_").toLowerCase();
    const client = new pg.Client({ connectionString: url.toString() });
    try {
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.query(`create database "${name}"`);
    } catch (e) {
      console.error(`e2e-server.sh: cannot create the e2e database ${name} on ${url.host}: ${e.message}`);
      process.exit(1);
    } finally {
      await client.end().catch(() => {});
    }
    url.pathname = `/${name}`;
    console.log(url.toString());
  ')"
  echo "[e2e-server] database: ${DATABASE_URL//:*@/:***@}" >&2
else
  echo "[e2e-server] database: embedded PGlite in $LECTERN_DATA_DIR" >&2
fi
export DATABASE_URL="${DATABASE_URL:-}"

if [ "${E2E_SKIP_BUILD:-0}" != 1 ]; then
  build
elif [ ! -f .next/BUILD_ID ]; then
  echo "e2e-server.sh: E2E_SKIP_BUILD=1 but there is no build in .next (run \`npx next build\` first)" >&2
  exit 1
else
  echo "[e2e-server] using the existing build in .next ($(cat .next/BUILD_ID))" >&2
fi

echo "[e2e-server] next start on 127.0.0.1:${PORT}" >&2
exec npx next start --hostname 127.0.0.1 --port "$PORT"
