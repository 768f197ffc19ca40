#!/bin/sh
# usage: scripts/with-emulator.sh PORT COMMAND [ARGUMENTS...]
#
# Starts `dataconnect emulator` on PORT (0 picks a free port) with dataconnect/seed_data.gql, runs COMMAND
# with FIREBASE_DATA_CONNECT_EMULATOR_HOST set to the emulator's host:port, then stops the emulator.
# The exit status is COMMAND's. DATACONNECT names the tool (default: `dataconnect` on PATH).
set -eu
port=$1
shift
dataconnect=${DATACONNECT:-dataconnect}
cd "$(dirname "$0")/.."
log=$(mktemp)
"$dataconnect" emulator --backend dataconnect --seed dataconnect/seed_data.gql --port "$port" --no-watch >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
trap 'exit 130' INT TERM
tries=0
url=""
while [ -z "$url" ]; do
  url=$(sed -n 's/^ready //p' "$log")
  [ -n "$url" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "the emulator did not start:" >&2
    cat "$log" >&2
    exit 1
  fi
  tries=$((tries + 1))
  if [ "$tries" -gt 300 ]; then
    echo "the emulator did not get ready within 30 s:" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 0.1
done
FIREBASE_DATA_CONNECT_EMULATOR_HOST=${url#http://}
export FIREBASE_DATA_CONNECT_EMULATOR_HOST
echo "emulator ready at $url (seeded from dataconnect/seed_data.gql)"
"$@"
