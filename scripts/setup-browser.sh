#!/usr/bin/env bash
# setup-browser.sh — Debian's Chromium (+ fonts, so pages render text) for Playwright. Run as root.
# Idempotent and quick when already done. Playwright never downloads a browser here: playwright.config.ts points
# executablePath at /usr/bin/chromium.
#   fonts-dejavu-core  : broad Unicode coverage (the default fontconfig sans/serif/mono on Debian)
#   fonts-liberation   : metric-compatible Arial/Helvetica, Times and Courier — what CSS stacks and pdf.js's
#                        fallback for non-embedded PDF standard fonts (Times-Roman, Helvetica…) ask for
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
CHROMIUM=/usr/bin/chromium
PACKAGES=(chromium fonts-dejavu-core fonts-liberation)

log() { printf '== %s\n' "$*"; }

need=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ! -x "$CHROMIUM" ] || [ ${#need[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || { echo "setup-browser.sh: missing ${need[*]:-chromium}; run as root" >&2; exit 1; }
  [ ${#need[@]} -gt 0 ] || need=(chromium)
  log "apt-get install ${need[*]}"
  APT=(apt-get -o DPkg::Lock::Timeout=300)
  "${APT[@]}" update -qq
  "${APT[@]}" install -y -qq --no-install-recommends "${need[@]}"
else
  log "chromium and fonts already installed"
fi

[ -x "$CHROMIUM" ] || { echo "setup-browser.sh: $CHROMIUM still missing after install" >&2; exit 1; }
log "$("$CHROMIUM" --version 2>/dev/null || echo chromium)"
