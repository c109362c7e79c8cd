# One container: the Remix server, SQLite and local media on the /data volume.
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

# Runtime stage: production dependencies and the build only.
FROM base
ENV NODE_ENV=production \
    PORT=8080 \
    DATABASE_PATH=/data/memorial.db \
    STORAGE_DIR=/data/uploads
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg libheif-examples tini \
  && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/server ./server
COPY --from=build /app/db/migrations ./db/migrations
COPY --from=build /app/scripts ./scripts
EXPOSE 8080
# The entrypoint prepares the volume as root, then runs the site as the
# unprivileged "node" user.
ENTRYPOINT ["tini", "--", "/app/scripts/docker-entrypoint.sh"]
CMD ["npm", "start"]
