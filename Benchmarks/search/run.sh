#!/usr/bin/env bash
# The search benchmark: 10,000 movies (gen_data.py), served from SQLite and then from a throwaway PostgreSQL 15
# cluster, and measured over HTTP with wrk: an indexed list query, a full-text search for two common words, one for a
# rare word, and a vector similarity query (64 dimensions, COSINE, every row scanned), each for DURATION seconds
# alone (one connection, one request at a time) and then loaded (CONNECTIONS connections). Prints one line per
# database and query: the median time alone and its ratio to the list's, then requests/s, p50 and p99 latency
# loaded, and the requests/s as a share of the indexed list's on the same database.
# Usage: Benchmarks/search/run.sh   (from anywhere)
# Environment: DURATION=5, CONNECTIONS=8, BENCH_SKIP_BUILD=1 (reuse the last release build), DATABASES="sqlite postgresql".
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$here/.out"
mkdir -p "$out"
source "$root/Benchmarks/emulator/common.sh"
need wrk wrk

if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
  echo "== build (release)" >&2
  for product in dataconnect pg-cluster; do
    (swift build -c release --package-path "$root" --product "$product" 2>&1 | tail -1) >&2
  done
fi
dataconnect="$root/.build/release/dataconnect"

echo "== generate data" >&2
python3 "$here/gen_data.py" "$out"

# Starts the emulator on the database its arguments name, seeded; sets $url.
start_emulator() {
  local log="$1"; shift
  local start
  start=$(date +%s.%N)
  "$dataconnect" emulator --backend "$out/backend" --port 0 --no-watch --seed "$out/seed.gql" "$@" >"$log" 2>&1 &
  children+=($!)
  for _ in $(seq 1 1200); do grep -q '^ready ' "$log" && break; sleep 0.1; done
  grep -q '^ready ' "$log" || { cat "$log" >&2; exit 1; }
  url=$(sed -n 's/^ready //p' "$log" | head -1)
  echo "seeded 10,000 movies in $(echo "$(date +%s.%N) - $start" | bc) s" >&2
}

path="/v1/projects/p/locations/l/services/bench/connectors/catalog:executeQuery"
# One wrk run: sets $line to its RESULT line.
run_wrk() {
  local name="$1" threads="$2" connections="$3" seconds="$4"
  line=$(BENCH_PATH="$path" BENCH_BODIES="$out/$name.jsonl" \
    wrk -t "$threads" -c "$connections" -d "${seconds}s" -s "$root/Benchmarks/emulator/post.lua" "$url" | grep '^RESULT')
}
measure() {
  local database="$1" list_rate="" list_alone=""
  for name in list search search-rare similar; do
    # Alone: one connection, one request at a time (the time a query takes on an idle server).
    run_wrk "$name" 1 1 "${DURATION:-5}"
    alone=$(sed -E 's/.*p50_us=([0-9]+).*/\1/' <<<"$line")
    [ -n "$list_alone" ] || list_alone=$alone
    run_wrk "$name" 2 "${CONNECTIONS:-8}" "${DURATION:-5}"
    requests=$(sed -E 's/.*requests=([0-9]+).*/\1/' <<<"$line")
    duration=$(sed -E 's/.*duration_us=([0-9]+).*/\1/' <<<"$line")
    status=$(sed -E 's/.* status=([0-9]+).*/\1/' <<<"$line")
    p50=$(sed -E 's/.*p50_us=([0-9]+).*/\1/' <<<"$line")
    p99=$(sed -E 's/.*p99_us=([0-9]+).*/\1/' <<<"$line")
    rate=$(echo "$requests * 1000000 / $duration" | bc -l)
    [ -n "$list_rate" ] || list_rate=$rate
    printf '%-10s %-11s alone %7.2f ms (%5.1fx the list)  loaded %8.0f req/s  p50 %7.2f ms  p99 %7.2f ms  %5.1f%% of the list  non-2xx %s\n' \
      "$database" "$name" "$(echo "$alone / 1000" | bc -l)" "$(echo "$alone / $list_alone" | bc -l)" \
      "$rate" "$(echo "$p50 / 1000" | bc -l)" "$(echo "$p99 / 1000" | bc -l)" "$(echo "100 * $rate / $list_rate" | bc -l)" \
      "$status"
  done
}

for database in ${DATABASES:-sqlite postgresql}; do
  case "$database" in
    sqlite)
      rm -rf "$out/data"
      start_emulator "$out/emulator-sqlite.log" --data-dir "$out/data"
      measure sqlite
      ;;
    postgresql)
      start_cluster "$root/.build/release/pg-cluster" "$out/pg"
      start_emulator "$out/emulator-postgresql.log" --postgres "$server"
      measure postgresql
      ;;
  esac
  for pid in "${children[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  children=()
done
