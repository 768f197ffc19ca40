#!/usr/bin/env bash
# Seeds a SQLite data directory once and caches it: prints the directory's path.
# Usage: seed-data.sh DATACONNECT BACKEND GENERATOR OUT [KEY_FILE...]
#   DATACONNECT  the dataconnect binary; BACKEND  the folder holding dataconnect.yaml;
#   GENERATOR    a Python script writing the seed file given as its argument; OUT  the cache folder;
#   KEY_FILE...  further files whose contents decide when the cache is stale (the generator, the backend's
#                schema and the binary always do).
# The data is seeded through `dataconnect emulator --seed` into OUT/data-<hash>; older caches are removed.
set -euo pipefail
dataconnect="$1" backend="$2" generator="$3" out="$4"
shift 4
key=$(cat "$generator" "$@" "$backend"/schema/*.gql "$dataconnect" | sha256sum | cut -c1-16)
data="$out/data-$key"
if [ ! -f "$data/dataconnect.sqlite" ]; then
  echo "== generate data ($data)" >&2
  rm -rf "$out"/data-* "$out/seed.gql"
  python3 "$generator" "$out/seed.gql" >&2
  tmp="$data.tmp"
  rm -rf "$tmp"
  "$dataconnect" emulator --backend "$backend" --port 0 --no-watch --data-dir "$tmp" --seed "$out/seed.gql" \
    >"$out/seed.log" 2>&1 &
  pid=$!
  trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
  for _ in $(seq 1 1200); do grep -q '^ready ' "$out/seed.log" && break; sleep 0.1; done
  grep -q '^ready ' "$out/seed.log" || { cat "$out/seed.log" >&2; exit 1; }
  kill -TERM "$pid" && wait "$pid" || true
  trap - EXIT
  mv "$tmp" "$data"
fi
echo "$data"
