# One container: the Remix server, SQLite and local media on the /data volume,
# and Litestream, which replicates the database with the server as its child
# (docs/backups.md).
FROM node:22-bookworm-slim AS base
WORKDIR /app

# Build stage: all dependencies (better-sqlite3 compiles here), then the build.
FROM base AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev
# Litestream comes from the production dependency @flydotio/litestream, whose
# optional package for this platform holds the binary: fail the build if the
# prune left it out.
RUN node_modules/@flydotio/litestream-*/litestream version

# Runtime stage: production dependencies and the build only.
FROM base
# glibc's allocator set to give memory back: two heaps instead of eight per
# core, and blocks from 128 KB up (a photo's pixels) mapped on their own and
# unmapped when freed. Node's RSS after three 100 MP photos: 333 MB without,
# 153-166 MB with (docs/decisions/029-fly-box.md). No LD_PRELOAD: ffmpeg and
# the other tools run under an address-space cap that a preloaded allocator broke.
ENV NODE_ENV=production \
    PORT=8080 \
    DATABASE_PATH=/data/memorial.db \
    STORAGE_DIR=/data/uploads \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    MALLOC_TRIM_THRESHOLD_=131072
# ca-certificates: Litestream (Go) checks the bucket's TLS certificate against
# the system's roots, which the slim image removes (Node carries its own).
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates ffmpeg libheif-examples tini \
  && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/server ./server
COPY --from=build /app/db/migrations ./db/migrations
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/litestream.yml ./litestream.yml
EXPOSE 8080
# The entrypoint prepares the volume as root, then runs the site as the
# unprivileged "node" user, under Litestream when the database is replicated
# (scripts/litestream-start.sh: Litestream restores the database on an empty
# volume, then runs the server as its child). tini stays PID 1 (it passes
# signals on and reaps ffmpeg's children); node itself is the server: `npm
# start` would keep npm's own process resident beside it (56 MB) for the
# server's whole life.
ENTRYPOINT ["tini", "--", "/app/scripts/docker-entrypoint.sh"]
CMD ["node", "server/index.mjs"]
