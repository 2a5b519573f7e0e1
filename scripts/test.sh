#!/usr/bin/env bash
# npm test — the whole suite: the type check and the production build side by side, then vitest and Playwright side by
# side, Playwright serving that build (and, with DATABASE_URL, the multi-process Playwright run beside them).
#
# They share nothing (each vitest file gets a fresh database of its own, the e2e server its own data directory or
# `<db>_e2e_<port>` database), and the browser suite mostly waits — on the server, the browser, its polling — while
# vitest keeps the cores busy, so running them together takes about the longer of the two instead of their sum.
# Each one's output is prefixed ([types] / [build] / [unit] / [e2e] / [mp]) and shown as it comes; the suite fails when
# any part fails.
#   TEST_SEQUENTIAL=1  one after the other (unprefixed output, as `npm run test:unit && npm run test:e2e`, then
#                      `npm run test:e2e:multi` with DATABASE_URL)
#   TEST_SKIP_TYPECHECK=1  skip the type check (it does not depend on the database: CI checks types once)
set -uo pipefail
cd "$(dirname "$0")/.."

prefix() { while IFS= read -r line; do printf '%s %s\n' "$1" "$line"; done; }
# Each part's output is also kept (test-results/suite-<part>.log), so a part that fails is shown again at the end: its
# failures are printed where it stops, which interleaved with the parts still running can be far from the log's tail.
LOGS="test-results"
mkdir -p "$LOGS"
keep() { tee "$LOGS/suite-$1.log" | prefix "[$1]$2"; }
# part NAME PAD CMD…: runs CMD with its output kept and prefixed, its exit code written to $LOGS/suite-NAME.rc. Run in
# the background, the job is the whole pipeline: once it is waited for, the kept log is complete.
part() {
  local name="$1" pad="$2"
  shift 2
  { "$@" 2>&1; echo "$?" >"$LOGS/suite-$name.rc"; } | keep "$name" "$pad"
}
rc_of() { cat "$LOGS/suite-$1.rc" 2>/dev/null || echo 1; }
kill_tree() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
  kill "$1" 2>/dev/null
}
show_failure() {
  printf '\n---- %s failed (exit %s): the last 150 lines of its output (all of it: %s) ----\n' "$1" "$2" "$LOGS/suite-$1.log"
  tail -n 150 "$LOGS/suite-$1.log"
}

# The build first, beside the type check only: built inside Playwright's server start, it competed with vitest for the
# cores while the browser suite, the longest part, could not begin. Skipped when E2E_SKIP_BUILD=1 (a build is there
# already: .ci/run's second pass) or when an app already answers on the e2e port outside CI (Playwright reuses it;
# rebuilding .next under it would break it).
E2E_PORT="${E2E_PORT:-3100}"
build=1
[ "${E2E_SKIP_BUILD:-}" = 1 ] && build=0
if [ "$build" = 1 ] && [ -z "${CI:-}" ] && (exec 3<>"/dev/tcp/127.0.0.1/$E2E_PORT") 2>/dev/null; then build=0; fi
pids=()
if [ "${TEST_SKIP_TYPECHECK:-}" != 1 ]; then
  npm run --silent typecheck > >(prefix "[types]") 2>&1 &
  pids+=($!)
fi
if [ "$build" = 1 ]; then
  bash scripts/e2e-server.sh --build-only > >(prefix "[build]") 2>&1 &
  pids+=($!)
fi
for pid in "${pids[@]}"; do
  wait "$pid" || { rc=$?; kill "${pids[@]}" 2>/dev/null; wait; exit "$rc"; }
done
[ "$build" = 1 ] && export E2E_SKIP_BUILD=1

# The multi-process topology (e2e/multi-process.spec.ts, its own Playwright config) needs PostgreSQL; it starts its own
# servers on free ports, so it runs beside the main browser suite instead of after it.
multi=0
[ -n "${DATABASE_URL:-}" ] && multi=1

if [ "${TEST_SEQUENTIAL:-}" = 1 ]; then
  npm run --silent test:unit && npm run --silent test:e2e && { [ "$multi" = 0 ] || npm run --silent test:e2e:multi; }
  exit $?
fi

rm -f "$LOGS"/suite-*.rc
part unit "" npm run --silent test:unit &
unit=$!
part e2e " " npm run --silent test:e2e &
e2e=$!
mp=""
if [ "$multi" = 1 ]; then
  part mp "  " npm run --silent test:e2e:multi &
  mp=$!
fi
# a stopped `npm test` (Ctrl-C, a CI timeout) stops them all, with what they started
trap 'for p in "$unit" "$e2e" $mp; do kill_tree "$p"; done; wait; exit 130' INT TERM
wait "$unit" "$e2e" $mp
rc_unit=$(rc_of unit)
rc_e2e=$(rc_of e2e)
rc_mp=0
[ -n "$mp" ] && rc_mp=$(rc_of mp)
if [ -n "$mp" ]; then
  printf '\n---- vitest: exit %s · Playwright: exit %s · multi-process: exit %s ----\n' "$rc_unit" "$rc_e2e" "$rc_mp"
else
  printf '\n---- vitest: exit %s · Playwright: exit %s (multi-process: needs DATABASE_URL) ----\n' "$rc_unit" "$rc_e2e"
fi
[ "$rc_unit" = 0 ] || show_failure unit "$rc_unit"
[ "$rc_e2e" = 0 ] || show_failure e2e "$rc_e2e"
[ "$rc_mp" = 0 ] || show_failure mp "$rc_mp"
[ "$rc_unit" = 0 ] && [ "$rc_e2e" = 0 ] && [ "$rc_mp" = 0 ]
