#!/usr/bin/env bash
# The search benchmark: 10,000 movies (gen_data.py) on SQLite, then over HTTP with wrk an indexed list query, a
# full-text search and a vector similarity query (64 dimensions, COSINE, every row scanned), each for DURATION
# seconds on CONNECTIONS connections. Prints one line per query: requests/s, p50 and p99 latency.
# Usage: Benchmarks/search/run.sh   (from anywhere)
# Environment: DURATION=5, CONNECTIONS=8, BENCH_SKIP_BUILD=1 (reuse the last release build).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$here/.out"
mkdir -p "$out"
command -v wrk >/dev/null || { echo "run.sh: wrk is missing (apt-get install -y wrk)" >&2; exit 1; }

children=()
cleanup() {
  for pid in "${children[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
  echo "== build (release)" >&2
  (swift build -c release --package-path "$root" --product dataconnect 2>&1 | tail -1) >&2
fi
dataconnect="$root/.build/release/dataconnect"

echo "== generate data" >&2
python3 "$here/gen_data.py" "$out"
rm -rf "$out/data"
start=$(date +%s.%N)
"$dataconnect" emulator --backend "$out/backend" --port 0 --no-watch --data-dir "$out/data" \
  --seed "$out/seed.gql" >"$out/emulator.log" 2>&1 &
children+=($!)
for _ in $(seq 1 1200); do grep -q '^ready ' "$out/emulator.log" && break; sleep 0.1; done
grep -q '^ready ' "$out/emulator.log" || { cat "$out/emulator.log" >&2; exit 1; }
url=$(sed -n 's/^ready //p' "$out/emulator.log" | head -1)
echo "seeded 10,000 movies in $(echo "$(date +%s.%N) - $start" | bc) s" >&2

path="/v1/projects/p/locations/l/services/bench/connectors/catalog:executeQuery"
for name in list search similar; do
  line=$(BENCH_PATH="$path" BENCH_BODIES="$out/$name.jsonl" \
    wrk -t 2 -c "${CONNECTIONS:-8}" -d "${DURATION:-5}s" -s "$root/Benchmarks/emulator/post.lua" "$url" | grep '^RESULT')
  requests=$(sed -E 's/.*requests=([0-9]+).*/\1/' <<<"$line")
  duration=$(sed -E 's/.*duration_us=([0-9]+).*/\1/' <<<"$line")
  status=$(sed -E 's/.* status=([0-9]+).*/\1/' <<<"$line")
  p50=$(sed -E 's/.*p50_us=([0-9]+).*/\1/' <<<"$line")
  p99=$(sed -E 's/.*p99_us=([0-9]+).*/\1/' <<<"$line")
  printf '%-8s %8.0f req/s  p50 %6.2f ms  p99 %6.2f ms  non-2xx %s\n' "$name" \
    "$(echo "$requests * 1000000 / $duration" | bc -l)" "$(echo "$p50 / 1000" | bc -l)" "$(echo "$p99 / 1000" | bc -l)" "$status"
done
