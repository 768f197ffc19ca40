#!/usr/bin/env bash
# The gRPC benchmark, end to end: build (release), seed the shapes benchmark's data once (cached in .out/), then
# bench_grpc.py starts one emulator and measures get-by-key and the 20-row list over REST (wrk) and over gRPC
# (h2load, several connections x streams layouts of the same concurrency), in interleaved rounds, counting only
# the gRPC calls the server finished with OK (see bench_grpc.py), and prints the table and the commands.
# Usage: Benchmarks/grpc/run.sh   (from anywhere)
# Environment: DURATION=5 (seconds per run), CONNECTIONS=32 (calls in flight on both protocols), ROUNDS=3,
#   STREAMS=32x1,4x8,1x32 (h2load -c x -m layouts; each must make CONNECTIONS), CONNECTOR=shapes (or shapes_cached:
#   answers with entity ids), BENCH_SKIP_BUILD=1 (reuse the last build).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
shapes="$root/Benchmarks/shapes"
out="$here/.out"
mkdir -p "$out"

source "$root/Benchmarks/emulator/common.sh"
need_sqlite_tools
need h2load nghttp2-client
python="$root/.build/venv/bin/python"
"$python" -c 'import grpc, grpc_tools' 2>/dev/null ||
  { echo "run.sh: the test venv (.build/venv with grpcio and grpcio-tools) is missing: run make venv" >&2; exit 1; }
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 4096 ]; then ulimit -n 4096 2>/dev/null || true; fi

echo "== build (release)" >&2
build --package-path "$root" --product dataconnect
dataconnect="$root/.build/release/dataconnect"
[ -x "$dataconnect" ] || { echo "run.sh: $dataconnect is missing: run without BENCH_SKIP_BUILD=1" >&2; exit 1; }

# The data of the shapes benchmark (10,000 movies), seeded once per (generator, schema, emulator build).
backend="$shapes/backend"
data=$("$root/Benchmarks/emulator/seed-data.sh" "$dataconnect" "$backend" "$shapes/gen_data.py" "$out" \
  "$root/Benchmarks/emulator/gen_data.py")

echo "== measure" >&2
"$python" "$here/bench_grpc.py" --dataconnect "$dataconnect" --data "$data" --backend "$backend" \
  --connector "${CONNECTOR:-shapes}" --duration "${DURATION:-5}" --connections "${CONNECTIONS:-32}" \
  --streams "${STREAMS:-32x1,4x8,1x32}" --rounds "${ROUNDS:-3}" &
children+=($!)
wait "${children[-1]}"
