# syntax=docker/dockerfile:1
# The whole product in one image: ticket office, back office and API on one port (README "Running in production").
# Build: docker build -t ticketing .   Run with a libSQL server: docker compose up (compose.yaml).

FROM node:20-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source where no prebuilt binary can be downloaded.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# The manifests alone first: the installed packages stay cached while only sources change.
COPY package.json package-lock.json ./
COPY scripts/lockfile-platform-entries.mjs scripts/
COPY shared/package.json shared/
COPY db/package.json db/
COPY api/package.json api/
COPY admin/package.json admin/
COPY storefront/package.json storefront/
COPY e2e/package.json e2e/
RUN npm ci
COPY . .
ENV NODE_ENV=production
RUN npm run build

FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production \
  PORT=3000 \
  DATA_DIR=/data
# The server runs its TypeScript through tsx (a development dependency): the installed tree is kept whole.
COPY --from=build --chown=node:node /app /app
# DATA_DIR holds the mail .eml files, and the SQLite file when no DATABASE_URL is given: mount a volume there.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# 200 once the database is reachable and migrated and the server is not draining (routes/health.ts).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/v1/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The server itself, not `npm start`: npm would not pass the orchestrator's SIGTERM on, and the build is done.
# WORKERS=n runs n processes on the port (api/src/cluster.ts).
CMD ["node", "--import", "tsx", "api/src/cluster.ts"]
