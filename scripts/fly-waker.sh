#!/bin/sh
# Creates the hourly wake-up of the memorial on Fly.io (docs/decisions/034-waking-on-time.md):
# a small Machine, in an app of its own, that Fly starts once an hour. It asks
# the site for /healthz, which makes Fly's proxy start the site's stopped
# machine (auto_start_machines in fly.toml), and exits. The site then sends
# the e-mail due within the hour (a daily summary, a reminder) at its minute,
# and stops again a minute after when nothing is due.
# Run it once after the first deploy; run it again after renaming the app or
# changing its address. Nothing else runs it.
# Usage: scripts/fly-waker.sh [site-app] [site-address]
#   site-app      the site's Fly app (default: `app` in fly.toml)
#   site-address  what to ask (default: https://<site-app>.fly.dev)
# To stop the wake-ups: fly apps destroy <site-app>-waker
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
setting() { sed -n "s/^$1 = \"\(.*\)\"/\1/p" "$root/fly.toml"; }

site_app=${1:-$(setting app)}
site_address=${2:-https://$site_app.fly.dev}
region=$(setting primary_region)
waker_app="$site_app-waker"

# An app of its own: `fly deploy` and `fly scale count 1` of the site never see the waker,
# and the waker has no service, so no visitor's request ever reaches it.
fly apps create "$waker_app" || echo "Using the existing app $waker_app."

# curl retries for about a minute: a site woken at the shared CPU's baseline can take 30 s to answer.
fly machine run curlimages/curl:8.11.1 \
  --app "$waker_app" \
  --name wake-hourly \
  --region "$region" \
  --schedule hourly \
  --restart no \
  --vm-size shared-cpu-1x \
  --vm-memory 256 \
  -- curl --silent --show-error --fail --output /dev/null \
  --retry 5 --retry-delay 10 --retry-all-errors --max-time 60 \
  "$site_address/healthz"

echo "The site at $site_address is woken once an hour (fly machine list --app $waker_app)."
