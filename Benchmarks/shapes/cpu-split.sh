#!/usr/bin/env bash
# Where the emulator's CPU goes on one shape: the release emulator on the shapes data (seeded by run.sh), wrk -t1 -c32
# on the shape's requests, the process's CPU time over the run from /proc/PID/stat divided by the requests wrk
# counted, and a `perf record --call-graph dwarf` of the same run split into the parts of a request by
# ../emulator/cpu_split.py.
# Usage: Benchmarks/shapes/cpu-split.sh [SHAPE [CONNECTOR [SECONDS]]]   (SHAPE: getMovie (default), listByIndex,
#   listWithCast, listWithReviewStats, listWithReviews; CONNECTOR: shapes (default) or shapes_cached)
# Environment: DATACONNECT (default: the root package's release build), EMULATOR_ARGS (more `dataconnect emulator`
#   options), FREQUENCY (perf's sampling rate, 499).
# Needs perf (linux-perf) and wrk, and the data run.sh seeds (Benchmarks/shapes/.out/data-*).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
shape="${1:-getMovie}" connector="${2:-shapes}" seconds="${3:-5}"
dataconnect="${DATACONNECT:-$root/.build/release/dataconnect}"
data=$(ls -d "$here"/.out/data-* 2>/dev/null | head -1)
[ -n "$data" ] || { echo "cpu-split.sh: no seeded data: run Benchmarks/shapes/run.sh (or make bench-shapes) once" >&2; exit 1; }
command -v perf >/dev/null || { echo "cpu-split.sh: perf is missing (apt install linux-perf)" >&2; exit 1; }
work=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
cp -r "$data" "$work/data"
# shellcheck disable=SC2086
"$dataconnect" emulator --backend "$here/backend" --port 0 --no-watch --data-dir "$work/data" ${EMULATOR_ARGS:-} \
  >"$work/log" 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q '^ready ' "$work/log" && break; sleep 0.1; done
grep -q '^ready ' "$work/log" || { cat "$work/log" >&2; exit 1; }
port=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/log" | head -1 | sed 's/.*://')
name="projects/p/locations/us-central1/services/shapes/connectors/$connector"
python3 "$here/bodies.py" "$work/data/dataconnect.sqlite" "$shape" "$name" >"$work/bodies"
export BENCH_PATH="/v1/$name:executeQuery" BENCH_BODIES="$work/bodies"
wrk -t1 -c32 -d1s -s "$root/Benchmarks/emulator/post.lua" "http://127.0.0.1:$port" >/dev/null
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
before=$(ticks)
perf record -q -F "${FREQUENCY:-499}" --call-graph dwarf,32768 -o "$work/perf.data" -p "$pid" -- sleep "$seconds" \
  2>/dev/null &
recorder=$!
result=$(wrk -t1 -c32 -d"${seconds}s" -s "$root/Benchmarks/emulator/post.lua" "http://127.0.0.1:$port" | grep RESULT)
after=$(ticks)
wait "$recorder" || true
requests=$(sed 's/.*requests=\([0-9]*\).*/\1/' <<<"$result")
cpu=$(python3 -c "print(($after - $before) / $(getconf CLK_TCK))")
echo "$shape on $connector: $requests requests in ${seconds} s ($((requests / seconds)) req/s), server CPU ${cpu} s"
echo "Machine: $(nproc) cores, load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
echo
perf script -i "$work/perf.data" 2>/dev/null | swift demangle --simplified |
  python3 "$root/Benchmarks/emulator/cpu_split.py" --requests "$requests" --cpu-seconds "$cpu"
