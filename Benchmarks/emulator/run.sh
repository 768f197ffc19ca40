#!/usr/bin/env bash
# The emulator benchmark, end to end: build (release), generate the data once (cached in .out/), then
# bench.py measures every target on 127.0.0.1 and prints the Markdown table for docs/performance.md.
# Usage: Benchmarks/emulator/run.sh   (from anywhere)
# Environment: DURATION=5 (seconds per wrk run), CONNECTIONS=32, ROUNDS=3 (interleaved rounds),
#   BENCH_INDEX=composite (default: `@index(fields: ["genre", "releaseYear"])` on Movie, the index this list needs) or genre (the schema's `genre: String @index`)
#   BENCH_SKIP_BUILD=1 (reuse the last build).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$here/.out"
mkdir -p "$out"

source "$here/common.sh"
need_sqlite_tools

echo "== build (release)" >&2
build --package-path "$root" --product dataconnect
dataconnect="$root/.build/release/dataconnect"
build --package-path "$here/tools" --product sql-explain
explain="$here/tools/.build/release/sql-explain"
# The HTTP ceiling: HTTPBench, a fixed reply from the emulator's own HTTP layer.
build --package-path "$root/Packages/DataConnectEmulator" --product http-bench
ceiling="$root/Packages/DataConnectEmulator/.build/release/http-bench"
gcc -O2 -o "$out/floor" "$here/floor.c" $(pkg-config --cflags --libs sqlite3)

echo "== python venv" >&2
if ! "$here/.venv/bin/python" -c 'import ariadne, uvicorn, uvloop' 2>/dev/null; then
  python3 -m venv "$here/.venv"
  "$here/.venv/bin/pip" install -q -r "$here/requirements.txt" >&2
fi

backend=$(composite_backend "$here/backend" "$out")

# The data: seeded once per (generator, schema, emulator build), through the emulator's --seed.
data=$("$here/seed-data.sh" "$dataconnect" "$backend" "$here/gen_data.py" "$out")

echo "== measure" >&2
"$here/.venv/bin/python" "$here/bench.py" --dataconnect "$dataconnect" --ceiling "$ceiling" --explain "$explain" \
  --floor "$out/floor" --python "$here/.venv/bin/python" --data "$data" --backend "$backend" \
  --duration "${DURATION:-5}" --connections "${CONNECTIONS:-32}" --rounds "${ROUNDS:-3}" &
children+=($!)
wait "${children[-1]}"
