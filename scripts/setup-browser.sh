#!/usr/bin/env bash
# setup-browser.sh [--full] — Debian's Chromium headless shell (+ fonts, so pages render text) for Playwright. Run as
# root. Idempotent and quick when already done. Playwright never downloads a browser here: playwright.config.ts points
# executablePath at /usr/bin/chromium-headless-shell. --full also installs the full browser (/usr/bin/chromium), which
# the browser benchmarks (bench/research-browser.ts, bench/graph-render.ts) drive, as a user's browser.
#   fonts-dejavu-core  : broad Unicode coverage (the default fontconfig sans/serif/mono on Debian)
#   fonts-liberation   : metric-compatible Arial/Helvetica, Times and Courier — what CSS stacks and pdf.js's
#                        fallback for non-embedded PDF standard fonts (Times-Roman, Helvetica…) ask for
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
CHROMIUM=/usr/bin/chromium-headless-shell
PACKAGES=(chromium-headless-shell fonts-dejavu-core fonts-liberation)
[ "${1:-}" = --full ] && PACKAGES+=(chromium)

log() { printf '== %s\n' "$*"; }

need=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ! -x "$CHROMIUM" ] || [ ${#need[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || { echo "setup-browser.sh: missing ${need[*]:-chromium}; run as root" >&2; exit 1; }
  [ ${#need[@]} -gt 0 ] || need=(chromium-headless-shell)
  log "apt-get install ${need[*]}"
  APT=(apt-get -o DPkg::Lock::Timeout=300)
  "${APT[@]}" update -qq
  "${APT[@]}" install -y -qq --no-install-recommends "${need[@]}"
else
  log "${PACKAGES[*]} already installed"
fi

[ -x "$CHROMIUM" ] || { echo "setup-browser.sh: $CHROMIUM still missing after install" >&2; exit 1; }
log "$("$CHROMIUM" --version 2>/dev/null || echo chromium)"
