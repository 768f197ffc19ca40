#!/usr/bin/env bash
# Instructions per request, counted by valgrind's callgrind: deterministic where wall-clock and CPU-time figures are
# not (a busy machine, frequency scaling), so two builds compare within a fraction of a percent. For each build and
# each shape: the release emulator on the shapes data (seeded by run.sh) under callgrind, WARMUP requests, the
# counters zeroed, then REQUESTS requests one at a time on one kept-alive connection (`sender.py`), and the
# instructions of the threads that serve requests (the threads EmulatorHTTP starts: its event loops, which parse,
# run the engine and SQLite and write, their standbys and the handover watchdog) and of the whole process, divided by
# REQUESTS. The whole process also counts what runs beside the requests (the
# database's integrity probe every few seconds, the watchdogs), so its figure moves more between runs.
# Usage: Benchmarks/shapes/instructions.sh [DATACONNECT...]   (default: the root package's release build; name two
#   builds, e.g. one of an earlier commit, to compare them)
# Environment: SHAPES="getMovie:shapes getMovie:shapes_cached listByIndex:shapes listByIndex:shapes_cached"
#   (shape:connector pairs), REQUESTS=2000, WARMUP=300, KEEP=DIR (also keep each run's callgrind dump there, as
#   <checkout>-<shape>-<connector>.callgrind, for `callgrind_annotate` function by function).
# Needs valgrind and the data run.sh seeds (Benchmarks/shapes/.out/data-*).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
builds=("$@")
[ ${#builds[@]} -gt 0 ] || builds=("$root/.build/release/dataconnect")
shapes="${SHAPES:-getMovie:shapes getMovie:shapes_cached listByIndex:shapes listByIndex:shapes_cached}"
requests="${REQUESTS:-2000}" warmup="${WARMUP:-300}"
data=$(ls -d "$here"/.out/data-* 2>/dev/null | head -1)
[ -n "$data" ] || { echo "instructions.sh: no seeded data: run Benchmarks/shapes/run.sh (or make bench-shapes) once" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is missing (apt install valgrind)" >&2; exit 1; }
work=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

echo "Instructions per request (callgrind), $requests requests after $warmup, one at a time on one connection."
echo "Machine: $(nproc) cores, $(valgrind --version), load average at the start $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| build | shape | connector | request threads | whole process |"
echo "|---|---|---|---:|---:|"
for pair in $shapes; do
  shape="${pair%%:*}" connector="${pair##*:}"
  name="projects/p/locations/us-central1/services/shapes/connectors/$connector"
  for dataconnect in "${builds[@]}"; do
    rm -rf "$work/data" "$work"/callgrind.*
    cp -r "$data" "$work/data"
    python3 "$here/bodies.py" "$work/data/dataconnect.sqlite" "$shape" "$name" >"$work/bodies"
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.%p" --dump-line=no --compress-strings=no \
      "$dataconnect" emulator --backend "$here/backend" --port 0 --no-watch --data-dir "$work/data" \
      >"$work/log" 2>"$work/valgrind.log" &
    pid=$!
    for _ in $(seq 1200); do grep -q '^ready ' "$work/log" && break; sleep 0.2; done
    grep -q '^ready ' "$work/log" || { cat "$work/log" "$work/valgrind.log" >&2; exit 1; }
    port=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/log" | head -1 | sed 's/.*://')
    path="/v1/$name:executeQuery"
    python3 "$here/sender.py" "$port" "$path" "$work/bodies" "$warmup"
    callgrind_control -z "$pid" >/dev/null 2>&1
    python3 "$here/sender.py" "$port" "$path" "$work/bodies" "$requests"
    callgrind_control -d "$pid" >/dev/null 2>&1
    kill -TERM "$pid" && wait "$pid" || true
    pid=""
    dump=$(ls "$work"/callgrind.*.1 | head -1)
    if [ -n "${KEEP:-}" ]; then
      mkdir -p "$KEEP"
      cp "$dump" "$KEEP/$(basename "$(dirname "$(dirname "$(dirname "$dataconnect")")")")-$shape-$connector.callgrind"
    fi
    counts=$(callgrind_annotate --threshold=100 --inclusive=yes "$dump" 2>/dev/null | swift demangle --simplified |
      python3 -c '
import re, sys
requests = int(sys.argv[1])
total, loops = 0, 0
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(.*)", line)
    if not m:
        continue
    count = int(m.group(1).replace(",", ""))
    if "PROGRAM TOTALS" in m.group(2):
        total = count
    elif not loops and "closure #1 in static EventLoop.startThread" in m.group(2):
        loops = count
print(f"{loops / requests:,.0f} | {total / requests:,.0f}")
' "$requests")
    checkout=$(dirname "$(dirname "$(dirname "$dataconnect")")")
    label=$(git -C "$checkout" rev-parse --short HEAD 2>/dev/null || basename "$checkout")
    echo "| \`$label\` | $shape | $connector | $counts |"
  done
done
