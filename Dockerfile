# syntax=docker/dockerfile:1
# Lectern's images, from one multi-stage build (docker-compose.yml builds both; README "Running for a lab"):
#   --target app     the web server: Next's standalone output (`node server.js`) with the files it reads at run time
#                    (static assets, public/, the migrations); node_modules only as far as `next build` traced them
#   --target worker  `npm run worker` (the job queue's worker) and every CLI command (`npm run cli -- migrate|sweep|
#                    user …`): they run TypeScript through tsx, so this one holds the source and the whole node_modules
#
#   docker build --target app -t lectern-app .
#   docker build --target worker -t lectern-worker .
#
# Both read their settings from the environment at run time (.env.example); nothing of it is baked in at build time.

# Node 20 on Debian 12: what the project is tested on (the AWS SDK asks for Node 22 in releases from 2027)
ARG NODE_IMAGE=node:20-bookworm-slim

# ── dependencies (dev ones too: next build, and tsx for the worker and CLI) ─────────────────────────────────────────
FROM ${NODE_IMAGE} AS deps
WORKDIR /src
ENV NEXT_TELEMETRY_DISABLED=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
COPY package.json package-lock.json ./
# `npm install`, not `npm ci`: the lockfile is made on machines whose registry mirror lacks other platforms' optional
# binaries, and `npm ci` refuses a lockfile without them (README, CI)
RUN npm install --no-audit --no-fund --loglevel=warn

# ── the build: Next's standalone output ────────────────────────────────────────────────────────────────────────────
FROM deps AS build
COPY . .
# LECTERN_BUILD_STANDALONE=1 sets `output: "standalone"` (next.config.ts); types are checked here as in every build
RUN LECTERN_BUILD_STANDALONE=1 npm run build

# ── the web server ─────────────────────────────────────────────────────────────────────────────────────────────────
FROM ${NODE_IMAGE} AS app
WORKDIR /app
# HOSTNAME: server.js listens on $HOSTNAME:$PORT, and Docker sets HOSTNAME to the container's id. Set
# LECTERN_PUBLIC_URL to the address people use (otherwise it is taken to be http://0.0.0.0:3000).
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOSTNAME=0.0.0.0 PORT=3000 LECTERN_DATA_DIR=/data
RUN mkdir -p /data && chown node:node /data
# server.js serves public/ and .next/static only when they sit beside it; drizzle/ holds the migrations, which every
# start applies (db/index.ts reads them from <cwd>/drizzle, and server.js runs in its own directory)
COPY --from=build --chown=node:node /src/.next/standalone ./
COPY --from=build --chown=node:node /src/.next/static ./.next/static
COPY --from=build --chown=node:node /src/public ./public
COPY --from=build --chown=node:node /src/drizzle ./drizzle
USER node
EXPOSE 3000
# the embedded database (when DATABASE_URL is unset) and the PDFs (when LECTERN_STORAGE_URL is unset); uploads are
# spooled here either way
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/sign-in').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "server.js"]

# ── the worker and the CLI ─────────────────────────────────────────────────────────────────────────────────────────
FROM deps AS worker
WORKDIR /src
ENV NEXT_TELEMETRY_DISABLED=1 LECTERN_DATA_DIR=/data
COPY . .
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# `npm run worker` without npm and sh in between: `docker stop` sends SIGTERM to this process, and npm does not pass it
# on through sh (the worker would be cut off mid-job instead of finishing its running jobs); tsx passes it to the worker
CMD ["node_modules/.bin/tsx", "cli/index.ts", "worker"]
