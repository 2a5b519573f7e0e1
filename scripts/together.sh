#!/usr/bin/env bash
# together.sh LABEL COMMAND [LABEL COMMAND …] — runs the commands (each a `bash -c` string) at once, every line of
# their output prefixed by its label as it comes; exits non-zero when any of them failed, after all have ended.
# Stopping it (Ctrl-C, a CI timeout) stops them all.
set -uo pipefail
if [ $(($# % 2)) -ne 0 ] || [ $# -eq 0 ]; then
  echo "usage: together.sh LABEL COMMAND [LABEL COMMAND …]" >&2
  exit 2
fi

pids=()
labels=()
while [ "$#" -gt 0 ]; do
  label="$1"
  cmd="$2"
  shift 2
  # each in its own process group (set -m), so a stop reaches everything it started
  (
    bash -c "$cmd" 2>&1 | while IFS= read -r line; do printf '%s %s\n' "$label" "$line"; done
    exit "${PIPESTATUS[0]}"
  ) &
  pids+=("$!")
  labels+=("$label")
done
trap 'kill -- "${pids[@]}" 2>/dev/null; pkill -P $$ 2>/dev/null; wait; exit 130' INT TERM

rc=0
for i in "${!pids[@]}"; do
  if wait "${pids[$i]}"; then
    printf -- '---- %s ok\n' "${labels[$i]}"
  else
    r=$?
    printf -- '---- %s FAILED (exit %s)\n' "${labels[$i]}" "$r" >&2
    rc=$r
  fi
done
exit "$rc"
