#!/usr/bin/env bash
# check-deploy.sh — checks the deployment files (Dockerfile, docker-compose.yml, deploy/) without building an image or
# pulling one (no image registry is reachable on the project's machines; README "Running for a lab"):
#   1. `docker compose config` (Compose v2, else Debian's docker-compose 1.29) parses and validates the compose file
#      with placeholder passwords, and refuses it without them
#   2. the files the compose file mounts exist
#   3. scripts/check-dockerfile.mjs: the Dockerfile's instructions, stages, COPY sources and targets
#   4. `docker build --check` (Dockerfile lint by BuildKit) where buildx and a daemon are there; skipped otherwise
# Needs node and one of the two compose commands (`sudo apt-get install -y docker-compose`); no daemon, no root.
# Not part of .ci/run: CI does not install docker.
set -euo pipefail
cd "$(dirname "$0")/.."

if docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
elif command -v docker-compose >/dev/null 2>&1; then
  compose=(docker-compose)
else
  echo "check-deploy.sh: neither 'docker compose' nor 'docker-compose' is installed (Debian: sudo apt-get install -y docker-compose)" >&2
  exit 1
fi
echo "[check-deploy] compose: $("${compose[@]}" version --short 2>/dev/null || "${compose[@]}" version | head -1)"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# the compose file's required settings, and nothing from the caller's shell or .env
printf 'POSTGRES_PASSWORD=check-deploy-placeholder\nMINIO_ROOT_PASSWORD=check-deploy-placeholder\n' >"$tmp/ok.env"
: >"$tmp/empty.env"
clean_env=(env -u POSTGRES_PASSWORD -u MINIO_ROOT_PASSWORD -u COMPOSE_FILE -u COMPOSE_PROJECT_NAME)

# 1. valid with the passwords, refused without them
services="$("${clean_env[@]}" "${compose[@]}" --env-file "$tmp/ok.env" -f docker-compose.yml config --services | sort | tr '\n' ' ')"
echo "[check-deploy] docker-compose.yml is valid; services: $services"
for s in db minio minio-bucket migrate app worker proxy; do
  case " $services " in *" $s "*) ;; *) echo "check-deploy.sh: service $s is missing from docker-compose.yml" >&2; exit 1 ;; esac
done
if "${clean_env[@]}" "${compose[@]}" --env-file "$tmp/empty.env" -f docker-compose.yml config >/dev/null 2>"$tmp/refused.txt"; then
  echo "check-deploy.sh: docker-compose.yml was accepted without POSTGRES_PASSWORD and MINIO_ROOT_PASSWORD" >&2
  exit 1
fi
echo "[check-deploy] refused without the passwords: $(grep -o 'set [A-Z_]*PASSWORD' "$tmp/refused.txt" | head -1)…"

# 2. bind-mounted files (Compose creates a missing source as an empty directory, and nginx then fails at start)
while read -r src; do
  [ -e "$src" ] || { echo "check-deploy.sh: docker-compose.yml mounts $src, which does not exist" >&2; exit 1; }
done < <(grep -oE '^\s+- \./[^:]+' docker-compose.yml | sed -E 's/^\s+- //')
echo "[check-deploy] mounted files exist"

# 3. the Dockerfile, statically
node scripts/check-dockerfile.mjs Dockerfile docker-compose.yml

# 4. BuildKit's own lint, when it can run here (it needs buildx and a daemon, and may pull its frontend)
if docker buildx version >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
  docker build --check .
  echo "[check-deploy] docker build --check: ok"
else
  echo "[check-deploy] docker build --check skipped (no buildx or no docker daemon here)"
fi
echo "[check-deploy] ok"
