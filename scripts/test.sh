#!/usr/bin/env bash
# npm test — the whole suite: the type check, then vitest and Playwright side by side.
#
# They share nothing (each vitest file gets a fresh database of its own, the e2e server its own data directory or
# `<db>_e2e_<port>` database), and the browser suite mostly waits — on `next build`, the server, the browser, its polling —
# while vitest keeps the cores busy, so running them together takes about the longer of the two instead of their sum.
# Each one's output is prefixed ([unit] / [e2e]) and shown as it comes; the suite fails when either fails.
#   TEST_SEQUENTIAL=1  one after the other (unprefixed output, as `npm run test:unit && npm run test:e2e`)
#   TEST_SKIP_TYPECHECK=1  skip the type check (it does not depend on the database: CI checks types once)
set -uo pipefail
cd "$(dirname "$0")/.."

if [ "${TEST_SKIP_TYPECHECK:-}" != 1 ]; then
  npm run --silent typecheck || exit $?
fi

if [ "${TEST_SEQUENTIAL:-}" = 1 ]; then
  npm run --silent test:unit && npm run --silent test:e2e
  exit $?
fi

prefix() { while IFS= read -r line; do printf '%s %s\n' "$1" "$line"; done; }

npm run --silent test:unit > >(prefix "[unit]") 2>&1 &
unit=$!
npm run --silent test:e2e > >(prefix "[e2e] ") 2>&1 &
e2e=$!
# a stopped `npm test` (Ctrl-C, a CI timeout) stops both
trap 'kill "$unit" "$e2e" 2>/dev/null; wait; exit 130' INT TERM
rc_unit=0
rc_e2e=0
wait "$unit" || rc_unit=$?
wait "$e2e" || rc_e2e=$?
# the prefixing readers finish with their writers; give them a moment to flush
sleep 0.2
printf '\n---- vitest: exit %s · Playwright: exit %s ----\n' "$rc_unit" "$rc_e2e"
[ "$rc_unit" = 0 ] && [ "$rc_e2e" = 0 ]
