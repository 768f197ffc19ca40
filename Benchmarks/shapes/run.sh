#!/usr/bin/env bash
# The shapes benchmark, end to end: build (release), generate and seed the data once (cached in .out/), then
# bench_shapes.py checks every answer and measures every shape (with and without entity ids), the HTTP ceiling
# and each shape's database floors in interleaved rounds, and prints the Markdown table for
# docs/performance.md (also in .out/results.md; raw figures in .out/results.json).
# Usage: Benchmarks/shapes/run.sh [--write-docs]   (from anywhere; --write-docs then puts the table into
#   docs/performance.md between the bench-shapes markers)
# Environment: DURATION=5 (seconds per run), CONNECTIONS=32, ROUNDS=5 (interleaved rounds), SLICES=5 (alternating
#   slices per round for the emulator without and with entity ids),
#   BENCH_SKIP_BUILD=1 (reuse the last build), BENCH_COMMAND (how the table names the command; default run.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
emulator_bench="$root/Benchmarks/emulator"
out="$here/.out"
mkdir -p "$out"

write_docs=0
for argument in "$@"; do
  case "$argument" in
    --write-docs) write_docs=1 ;;
    *) echo "usage: run.sh [--write-docs]" >&2; exit 2 ;;
  esac
done

# Fail before measuring when the table would have nowhere to go.
if [ "$write_docs" = 1 ]; then
  for marker in '<!-- bench-shapes:begin -->' '<!-- bench-shapes:end -->'; do
    grep -qF -- "$marker" "$root/docs/performance.md" ||
      { echo "run.sh: docs/performance.md has no $marker line: add the markers where the table goes" >&2; exit 1; }
  done
fi

source "$root/Benchmarks/emulator/common.sh"
# wrk's 32 connections, the emulator's and the servers' sockets: stay clear of a low default limit.
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 4096 ]; then ulimit -n 4096 2>/dev/null || true; fi

echo "== build (release)" >&2
build --package-path "$root" --product dataconnect
dataconnect="$root/.build/release/dataconnect"
# sql-explain: the emulator benchmark's tool (Engine.explain), used from its folder.
build --package-path "$emulator_bench/tools" --product sql-explain
explain="$emulator_bench/tools/.build/release/sql-explain"
# The HTTP ceiling: HTTPBench, a fixed reply from the emulator's own HTTP layer.
build --package-path "$root/Packages/DataConnectEmulator" --product http-bench
ceiling="$root/Packages/DataConnectEmulator/.build/release/http-bench"
for binary in "$dataconnect" "$explain" "$ceiling"; do
  [ -x "$binary" ] || { echo "run.sh: $binary is missing: run without BENCH_SKIP_BUILD=1" >&2; exit 1; }
done
gcc -O2 -Wall -o "$out/floor_shapes" "$here/floor_shapes.c" $(pkg-config --cflags --libs sqlite3) -lm

# The data: seeded once per (generator, schema, emulator build), through the emulator's --seed.
backend="$here/backend"
data=$("$emulator_bench/seed-data.sh" "$dataconnect" "$backend" "$here/gen_data.py" "$out" "$emulator_bench/gen_data.py")

echo "== measure" >&2
settings="DURATION=${DURATION:-5} ROUNDS=${ROUNDS:-5} SLICES=${SLICES:-5} CONNECTIONS=${CONNECTIONS:-32}"
BENCH_COMMAND="${BENCH_COMMAND:-Benchmarks/shapes/run.sh} ($settings)" python3 "$here/bench_shapes.py" \
  --dataconnect "$dataconnect" --ceiling "$ceiling" --explain "$explain" --floor "$out/floor_shapes" \
  --data "$data" --backend "$backend" \
  --duration "${DURATION:-5}" --connections "${CONNECTIONS:-32}" --rounds "${ROUNDS:-5}" --slices "${SLICES:-5}" &
children+=($!)
wait "${children[-1]}"
if [ "$write_docs" = 1 ]; then
  python3 "$here/bench_shapes.py" --write-docs --results "$out/results.md"
fi
