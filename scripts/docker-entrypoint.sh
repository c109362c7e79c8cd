#!/bin/sh
# Fly mounts the volume owned by root: give it to the unprivileged user that
# runs the site, then drop root for good.
set -e
data_dir="$(dirname "${DATABASE_PATH:-/data/memorial.db}")"
mkdir -p "$data_dir" "${STORAGE_DIR:-/data/uploads}"
chown -R node:node "$data_dir" "${STORAGE_DIR:-/data/uploads}"
exec setpriv --reuid=node --regid=node --init-groups "$@"
