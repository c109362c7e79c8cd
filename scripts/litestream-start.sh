#!/bin/sh
# Runs the site's command (node server/index.mjs) under Litestream when the
# database is replicated (docs/backups.md, docs/decisions/032-litestream-as-parent.md):
#   1. on a volume without the database, restores it from the replica, checks
#      it with PRAGMA integrity_check, and refuses to start when the replica
#      cannot be read (an empty database would become its newest copy);
#   2. becomes Litestream, which replicates the database every second and runs
#      the command as its child: signals reach Litestream, which passes them
#      on, and when the site exits Litestream ships the last writes and exits
#      with it.
# Without a replica it becomes the command itself.
# Usage: scripts/litestream-start.sh node server/index.mjs
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)

# Not replicated (LITESTREAM_REPLICA_URL unset or off, no bucket): the site alone; it says so in its log.
url_setting=$(printf '%s' "${LITESTREAM_REPLICA_URL:-}" | tr -d ' \t')
bucket_setting=$(printf '%s' "${BUCKET_NAME:-}" | tr -d ' \t')
case "$url_setting" in
  [Oo][Ff][Ff]) exec "$@" ;;
esac
if [ -z "$url_setting" ] && [ -z "$bucket_setting" ]; then exec "$@"; fi

# The binary `npm install` brings (@flydotio/litestream's package for this
# platform), else litestream on the PATH; never npm's node_modules/.bin
# wrapper, which neither passes signals on nor returns Litestream's exit code.
litestream=""
for candidate in "$root"/node_modules/@flydotio/litestream-*/litestream; do
  if [ -x "$candidate" ]; then
    litestream=$candidate
    break
  fi
done
if [ -z "$litestream" ]; then
  litestream=$(command -v litestream || true)
  case "$litestream" in */node_modules/*) litestream="" ;; esac
fi
if [ -z "$litestream" ]; then
  echo "LITESTREAM_REPLICA_URL or BUCKET_NAME asks for the database to be replicated, but there is no Litestream binary for this machine: install it (https://litestream.io/install/) or set LITESTREAM_REPLICA_URL=off." >&2
  exit 1
fi

# The replica as Litestream writes it, the database's absolute path, and where
# the copies go without credentials (server/replication.mjs checks the settings).
settings=$(node "$root/server/replication.mjs" settings) || exit 1
LITESTREAM_URL=$(printf '%s\n' "$settings" | sed -n 1p)
DATABASE_PATH=$(printf '%s\n' "$settings" | sed -n 2p)
description=$(printf '%s\n' "$settings" | sed -n 3p)
LITESTREAM_METRICS_PORT=${LITESTREAM_METRICS_PORT:-9090}
export LITESTREAM_URL DATABASE_PATH LITESTREAM_METRICS_PORT
config="$root/litestream.yml"

if [ ! -e "$DATABASE_PATH" ]; then
  # Leftovers of a database that is gone: SQLite would replay an old WAL into
  # the restored file, and Litestream would take its stale shadow WAL for this
  # database's.
  data_dir=$(dirname "$DATABASE_PATH")
  rm -f "$DATABASE_PATH-wal" "$DATABASE_PATH-shm" "$DATABASE_PATH.tmp" "$DATABASE_PATH.tmp-wal" "$DATABASE_PATH.tmp-shm"
  rm -rf "$data_dir/.$(basename "$DATABASE_PATH")-litestream"
  mkdir -p "$data_dir"
  started=$(date +%s)
  if ! "$litestream" restore -config "$config" -if-db-not-exists -if-replica-exists "$DATABASE_PATH"; then
    rm -f "$DATABASE_PATH"
    echo "Could not restore the database from $description (Litestream's error is above)." >&2
    echo "Refusing to start with an empty database, which would be replicated as the newest copy. Fix the replica settings (docs/backups.md), or set LITESTREAM_REPLICA_URL=off to start without replication." >&2
    exit 1
  fi
  rm -f "$DATABASE_PATH.tmp-wal" "$DATABASE_PATH.tmp-shm"
  if [ -e "$DATABASE_PATH" ]; then
    node "$root/server/replication.mjs" restored "$DATABASE_PATH" "$description" "$(($(date +%s) - started))" || exit 1
    # The Exports tab says when this machine brought the database back.
    LITESTREAM_RESTORED_AT=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    export LITESTREAM_RESTORED_AT
  fi
fi

# The site checks that Litestream, this process once exec'd, is its parent.
LITESTREAM_PID=$$
export LITESTREAM_PID
exec "$litestream" replicate -config "$config" -exec "$*"
