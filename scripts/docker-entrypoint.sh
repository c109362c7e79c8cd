#!/bin/sh
# The container's entrypoint. Fly mounts the volume owned by root: give it to
# the unprivileged user that runs the site, drop root for good, and run the
# site (node server/index.mjs) through scripts/litestream-start.sh, which
# restores and replicates the database with Litestream as the site's parent
# when a replica is configured, and is the site itself otherwise.
set -e
data_dir="$(dirname "${DATABASE_PATH:-/data/memorial.db}")"
mkdir -p "$data_dir" "${STORAGE_DIR:-/data/uploads}"
chown -R node:node "$data_dir" "${STORAGE_DIR:-/data/uploads}"
# The site's own command only: another one (`sleep inf` while a database is
# put in place by hand, docs/backups.md) must neither restore nor replicate.
if [ "$*" = "node server/index.mjs" ]; then set -- "$(dirname "$0")/litestream-start.sh" "$@"; fi
exec setpriv --reuid=node --regid=node --init-groups "$@"
