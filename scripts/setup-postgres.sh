#!/usr/bin/env bash
# setup-postgres.sh — Debian 12 (bookworm), run as root: PostgreSQL 15 + pgvector + Lectern's role and database.
#
# Idempotent and quick (about a second) when everything is already in place; no TTY needed (CI); no systemd needed
# (pg_ctlcluster is called directly). Only plain HTTP to deb.debian.org is used — no GitHub.
#
#   1. apt-get install postgresql-15 postgresql-server-dev-15 build-essential   (only the missing ones)
#   2. pgvector built from Debian trixie's *source* package                     (only if vector.so/.control missing)
#   3. cluster 15/main created if absent, started if not online
#   4. role lectern (LOGIN CREATEDB, password lectern), database lectern owned by it,
#      CREATE EXTENSION vector in template1 (so test databases get it) and in lectern — as superuser, because
#      vector is not a trusted extension and the app role cannot create it
#   5. smoke test over TCP with the app's credentials, then prints DATABASE_URL
#
# Env overrides: DB_NAME DB_USER DB_PASS PG_PORT (only used when creating the cluster) WORKDIR FORCE_PGVECTOR_BUILD=1
set -euo pipefail

PG_MAJOR=15
DB_NAME="${DB_NAME:-lectern}"
DB_USER="${DB_USER:-lectern}"
DB_PASS="${DB_PASS:-lectern}"
PG_PORT="${PG_PORT:-5432}"
WORKDIR="${WORKDIR:-/var/tmp/lectern-pgvector-build}"
PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config"
VECTOR_SO="/usr/lib/postgresql/${PG_MAJOR}/lib/vector.so"
VECTOR_CONTROL="/usr/share/postgresql/${PG_MAJOR}/extension/vector.control"
export DEBIAN_FRONTEND=noninteractive
# Wait for a concurrent apt/dpkg instead of failing at once.
APT=(apt-get -o DPkg::Lock::Timeout=300)

log() { printf '== %s\n' "$*"; }
die() { printf 'setup-postgres.sh: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (sudo bash scripts/setup-postgres.sh)"
case "$DB_NAME$DB_USER" in *[!a-z0-9_]*) die "DB_NAME and DB_USER must match [a-z0-9_]+" ;; esac
case "$DB_PASS" in *"'"*) die "DB_PASS must not contain a single quote" ;; esac

# --- 1. Packages ---------------------------------------------------------------------------------------------------
need=()
for p in "postgresql-${PG_MAJOR}" "postgresql-server-dev-${PG_MAJOR}" build-essential; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  log "apt-get install ${need[*]}"
  "${APT[@]}" update -qq
  "${APT[@]}" install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  log "packages already installed"
fi

# --- 2. pgvector -----------------------------------------------------------------------------------------------------
# Not packaged for bookworm; trixie's source package builds against PG 15 in seconds. A private sources list and
# private apt lists keep the system's apt configuration untouched.
if [ -f "$VECTOR_SO" ] && [ -f "$VECTOR_CONTROL" ] && [ "${FORCE_PGVECTOR_BUILD:-0}" != 1 ]; then
  log "pgvector already installed ($(grep -o "default_version = '[^']*'" "$VECTOR_CONTROL"))"
else
  log "building pgvector from Debian trixie's source package"
  mkdir -p "$WORKDIR/lists/partial"
  # apt downloads as the unprivileged _apt user; let it write here (else a "download is performed unsandboxed" warning).
  if id _apt >/dev/null 2>&1; then chown _apt:root "$WORKDIR"; fi
  echo "deb-src http://deb.debian.org/debian trixie main" >"$WORKDIR/sources.list"
  APTSRC=("${APT[@]}" -o "Dir::Etc::sourcelist=$WORKDIR/sources.list" -o "Dir::Etc::sourceparts=-"
          -o "Dir::State::Lists=$WORKDIR/lists" -o "APT::Get::List-Cleanup=0")
  "${APTSRC[@]}" update -qq
  (
    cd "$WORKDIR"
    rm -rf pgvector-*/ pgvector_*
    "${APTSRC[@]}" source --download-only -qq pgvector
    tar xzf pgvector_*.orig.tar.gz
    cd "$(ls -d pgvector-*/ | head -1)"
    # OPTFLAGS="": no -march=native, so the library also runs if this machine image moves to another CPU.
    make -s -j"$(nproc)" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" >/dev/null
    make -s install PG_CONFIG="$PG_CONFIG" OPTFLAGS="" >/dev/null
  )
  [ -f "$VECTOR_SO" ] && [ -f "$VECTOR_CONTROL" ] || die "pgvector build finished but $VECTOR_SO is missing"
  log "installed pgvector ($(grep -o "default_version = '[^']*'" "$VECTOR_CONTROL"))"
fi

# --- 3. Cluster ------------------------------------------------------------------------------------------------------
cluster_field() { pg_lsclusters -h | awk -v v="$PG_MAJOR" -v f="$1" '$1==v && $2=="main" {print $f}'; }
if [ -z "$(cluster_field 2)" ]; then
  log "creating cluster ${PG_MAJOR}/main on port ${PG_PORT}"
  pg_createcluster "$PG_MAJOR" main --port="$PG_PORT" >/dev/null
fi
if [ "$(cluster_field 4)" = online ]; then
  log "cluster ${PG_MAJOR}/main online"
else
  log "starting cluster ${PG_MAJOR}/main"
  # --skip-systemctl-redirect: containers and CI have no systemd.
  pg_ctlcluster --skip-systemctl-redirect "$PG_MAJOR" main start
fi
PORT="$(cluster_field 3)"
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p "$PORT" && break
  sleep 1
done
pg_isready -q -h 127.0.0.1 -p "$PORT" || die "PostgreSQL ${PG_MAJOR}/main does not accept connections on 127.0.0.1:${PORT}"

# --- 4. Role, database, extension ------------------------------------------------------------------------------------
# As the postgres superuser over the local socket; SQL on stdin (no quoting games, no TTY). cd / so psql does not
# complain that it cannot access the caller's working directory.
psql_su() { (cd / && runuser -u postgres -- psql -p "$PORT" -X -q -t -A -v ON_ERROR_STOP=1 "$@"); }

log "role ${DB_USER}, database ${DB_NAME}, extension vector"
psql_su -d postgres <<SQL
SET client_min_messages = warning;
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${DB_USER}') THEN
    CREATE ROLE ${DB_USER} LOGIN CREATEDB PASSWORD '${DB_PASS}';
  ELSE
    ALTER ROLE ${DB_USER} LOGIN CREATEDB PASSWORD '${DB_PASS}';
  END IF;
END
\$\$;
SQL
# CREATE DATABASE cannot run inside DO; \gexec runs it only when the database is missing.
psql_su -d postgres <<SQL
SELECT 'CREATE DATABASE ${DB_NAME} OWNER ${DB_USER}' WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = '${DB_NAME}')
\gexec
ALTER DATABASE ${DB_NAME} OWNER TO ${DB_USER};
SQL
for db in template1 "$DB_NAME"; do
  psql_su -d "$db" -c "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS vector;"
done

# --- 5. Smoke test over TCP with the app's credentials ---------------------------------------------------------------
PGPASSWORD="$DB_PASS" psql -X -h 127.0.0.1 -p "$PORT" -U "$DB_USER" -d "$DB_NAME" -v ON_ERROR_STOP=1 -q -t -A \
  -c "SELECT 'pgvector ' || extversion || ', cosine distance check ' || ('[1,2,3]'::vector <=> '[1,2,4]'::vector)::numeric(6,4) FROM pg_extension WHERE extname = 'vector'" |
  sed 's/^/== /'

echo "DATABASE_URL=postgres://${DB_USER}:${DB_PASS}@127.0.0.1:${PORT}/${DB_NAME}"
