#!/usr/bin/env bash
# Server CPU per request of two emulator builds on one shape, in alternating rounds on the same machine: the
# figure target 2 asks for (`/proc/PID/stat` under `wrk -t1 -c32`), compared where the machine's speed, which moves
# by 10-20% between runs here, moves both alike. Each build serves its own copy of the shapes data (seeded by
# run.sh); in each round, each build in turn gets a 1 s warm-up and then SECONDS of wrk; its CPU over the measured
# run is divided by the requests wrk counted. Prints each round and the medians.
# Usage: Benchmarks/shapes/ab-cpu.sh OLD_DATACONNECT NEW_DATACONNECT [SHAPE [CONNECTOR [ROUNDS [SECONDS]]]]
#   (SHAPE: getMovie (default), listByIndex, listWithCast, listWithReviewStats, listWithReviews; CONNECTOR: shapes
#   (default) or shapes_cached; ROUNDS 12, SECONDS 2)
# Needs wrk and the data run.sh seeds (Benchmarks/shapes/.out/data-*).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
[ $# -ge 2 ] || { echo "usage: ab-cpu.sh OLD_DATACONNECT NEW_DATACONNECT [SHAPE [CONNECTOR [ROUNDS [SECONDS]]]]" >&2; exit 2; }
builds=("$1" "$2")
shape="${3:-getMovie}" connector="${4:-shapes}" rounds="${5:-12}" seconds="${6:-2}"
data=$(ls -d "$here"/.out/data-* 2>/dev/null | head -1)
[ -n "$data" ] || { echo "ab-cpu.sh: no seeded data: run Benchmarks/shapes/run.sh (or make bench-shapes) once" >&2; exit 1; }
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
ports=()
for index in 0 1; do
  cp -r "$data" "$work/data$index"
  "${builds[$index]}" emulator --backend "$here/backend" --port 0 --no-watch --data-dir "$work/data$index" \
    >"$work/log$index" 2>&1 &
  pids+=($!)
  for _ in $(seq 600); do grep -q '^ready ' "$work/log$index" && break; sleep 0.1; done
  grep -q '^ready ' "$work/log$index" || { cat "$work/log$index" >&2; exit 1; }
  ports+=("$(grep -o 'http://127.0.0.1:[0-9]*' "$work/log$index" | head -1 | sed 's/.*://')")
done
name="projects/p/locations/us-central1/services/shapes/connectors/$connector"
python3 "$here/bodies.py" "$work/data0/dataconnect.sqlite" "$shape" "$name" >"$work/bodies"
export BENCH_PATH="/v1/$name:executeQuery" BENCH_BODIES="$work/bodies"
echo "$shape on $connector, $rounds rounds of ${seconds} s each; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "old: ${builds[0]}"
echo "new: ${builds[1]}"
echo "| round | old req/s | old server CPU µs/req | new req/s | new server CPU µs/req |"
echo "|---:|---:|---:|---:|---:|"
for round in $(seq "$rounds"); do
  line="| $round"
  for index in 0 1; do
    pid=${pids[$index]} url="http://127.0.0.1:${ports[$index]}"
    wrk -t1 -c32 -d1s -s "$root/Benchmarks/emulator/post.lua" "$url" >/dev/null
    before=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    result=$(wrk -t1 -c32 -d"${seconds}s" -s "$root/Benchmarks/emulator/post.lua" "$url" | grep RESULT)
    after=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    requests=$(sed 's/.*requests=\([0-9]*\).*/\1/' <<<"$result")
    line+=$(python3 -c "t = $(getconf CLK_TCK); print(f' | {$requests / $seconds:,.0f} | {($after - $before) / t / $requests * 1e6:.1f}')")
  done
  echo "$line |" | tee -a "$work/rounds"
done
python3 - "$work/rounds" <<'PY'
import statistics, sys
rows = [[float(cell.replace(",", "")) for cell in line.strip(" |\n").split("|")[1:]] for line in open(sys.argv[1])]
medians = [statistics.median(row[i] for row in rows) for i in range(4)]
ratio = statistics.median(row[3] / row[1] for row in rows)
print(f"| median | {medians[0]:,.0f} | {medians[1]:.1f} | {medians[2]:,.0f} | {medians[3]:.1f} |")
print(f"new CPU per request / old, median of the rounds' ratios: {ratio:.3f}")
PY
