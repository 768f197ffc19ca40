#!/usr/bin/env bash
# The shapes benchmark, end to end: build (release), generate and seed the data once (cached in .out/), then
# bench_shapes.py checks every answer and measures every shape (with and without entity ids), each shape's HTTP
# ceiling (C) and database floors (F) in interleaved rounds, and prints the Markdown table for
# docs/performance.md (also in .out/results.md; raw figures in .out/results.json).
# With --postgres: the same shapes on the emulator serving from a throwaway PostgreSQL cluster in .out/pg (durable:
# fsync on; seeded with the same data; stopped and removed at exit, also on failure or Ctrl-C), against their libpq
# floors (bench_shapes_postgres.py; .out/results-postgres.md and .json).
# With --postgres --split: on the same cluster, where a get-by-key request's time goes instead (pg_split.py: the
# floor on 1, 2 and 4 connections, the emulator's and PostgreSQL's CPU, transactions and context switches per
# request, a perf profile of the emulator).
# Usage: Benchmarks/shapes/run.sh [--postgres [--split]] [--write-docs]   (from anywhere; --write-docs then puts the
#   table into docs/performance.md between the bench-shapes markers, or the bench-shapes-postgres ones)
# Environment: DURATION=5 (seconds per run), CONNECTIONS=32, ROUNDS=5 (interleaved rounds), SLICES=5 (alternating
#   slices per round for the emulator without and with entity ids),
#   BENCH_SKIP_BUILD=1 (reuse the last build), BENCH_COMMAND (how the table names the command; default run.sh),
#   SPLIT_OPERATION=getMovie (with --split: or listByIndex, the index-served list).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
emulator_bench="$root/Benchmarks/emulator"
out="$here/.out"
mkdir -p "$out"

write_docs=0 postgres=0 split=0
for argument in "$@"; do
  case "$argument" in
    --write-docs) write_docs=1 ;;
    --postgres) postgres=1 ;;
    --split) split=1 ;;
    *) echo "usage: run.sh [--postgres [--split]] [--write-docs]" >&2; exit 2 ;;
  esac
done
[ "$split" = 0 ] || [ "$postgres" = 1 ] || { echo "run.sh: --split goes with --postgres" >&2; exit 2; }
markers=bench-shapes
[ "$postgres" = 1 ] && markers=bench-shapes-postgres

# Fail before measuring when the table would have nowhere to go.
if [ "$write_docs" = 1 ]; then
  for marker in "<!-- $markers:begin -->" "<!-- $markers:end -->"; do
    grep -qF -- "$marker" "$root/docs/performance.md" ||
      { echo "run.sh: docs/performance.md has no $marker line: add the markers where the table goes" >&2; exit 1; }
  done
fi

source "$root/Benchmarks/emulator/common.sh"
need_sqlite_tools
# wrk's 32 connections, the emulator's and the servers' sockets: stay clear of a low default limit.
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 4096 ]; then ulimit -n 4096 2>/dev/null || true; fi

echo "== build (release)" >&2
# The emulator's executables are built from the root package, so the libraries are compiled once.
build --package-path "$root" --product dataconnect
dataconnect="$root/.build/release/dataconnect"
# sql-explain: the emulator benchmark's tool (Engine.explain), used from its folder.
build --package-path "$emulator_bench/tools" --product sql-explain
explain="$emulator_bench/tools/.build/release/sql-explain"
backend="$here/backend"
settings="DURATION=${DURATION:-5} ROUNDS=${ROUNDS:-5} SLICES=${SLICES:-5} CONNECTIONS=${CONNECTIONS:-32}"
measure=(--duration "${DURATION:-5}" --connections "${CONNECTIONS:-32}" --rounds "${ROUNDS:-5}"
  --slices "${SLICES:-5}")

if [ "$postgres" = 0 ]; then
  # C: HTTPBench, a fixed reply from the emulator's own HTTP layer.
  build --package-path "$root" --product http-bench
  ceiling="$root/.build/release/http-bench"
  for binary in "$dataconnect" "$explain" "$ceiling"; do
    [ -x "$binary" ] || { echo "run.sh: $binary is missing: run without BENCH_SKIP_BUILD=1" >&2; exit 1; }
  done
  gcc -O2 -Wall -o "$out/floor_shapes" "$here/floor_shapes.c" $(pkg-config --cflags --libs sqlite3) -lm

  # The data: seeded once per (generator, schema, emulator build), through the emulator's --seed.
  data=$("$emulator_bench/seed-data.sh" "$dataconnect" "$backend" "$here/gen_data.py" "$out" "$emulator_bench/gen_data.py")

  echo "== measure" >&2
  BENCH_COMMAND="${BENCH_COMMAND:-Benchmarks/shapes/run.sh} ($settings)" python3 "$here/bench_shapes.py" \
    --dataconnect "$dataconnect" --ceiling "$ceiling" --explain "$explain" --floor "$out/floor_shapes" \
    --data "$data" --backend "$backend" "${measure[@]}" &
  children+=($!)
  wait "${children[-1]}"
  if [ "$write_docs" = 1 ]; then
    python3 "$here/bench_shapes.py" --write-docs --results "$out/results.md"
  fi
  exit 0
fi

need_postgres_tools
build --package-path "$root" --product pg-cluster
pgcluster="$root/.build/release/pg-cluster"
for binary in "$dataconnect" "$explain" "$pgcluster"; do
  [ -x "$binary" ] || { echo "run.sh: $binary is missing: run without BENCH_SKIP_BUILD=1" >&2; exit 1; }
done
gcc -O2 -Wall -o "$out/pg_floor_shapes" "$here/pg_floor_shapes.c" $(pkg-config --cflags --libs libpq) -lpthread

# The same data as the SQLite run: the generator is deterministic, its file is written again for every run.
python3 "$here/gen_data.py" "$out/seed-postgres.gql" >&2

echo "== start PostgreSQL (.out/pg)" >&2
start_cluster "$pgcluster" "$out/pg"
url="${server%%/postgres\?*}/shapes?sslmode=disable"
psql "$server" -qc "CREATE DATABASE shapes" >&2

echo "== seed PostgreSQL ($url)" >&2
start=$(date +%s.%N)
seed_emulator "$dataconnect" "$backend" "$out/seed-postgres.gql" "$out/seed-postgres.log" --postgres "$url"
echo "   seeded in $(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')") s" >&2
psql "$url" -qc "VACUUM ANALYZE" >&2

if [ "$split" = 1 ]; then
  echo "== where a get-by-key request's time goes" >&2
  python3 "$here/pg_split.py" --dataconnect "$dataconnect" --explain "$explain" --pg-floor "$out/pg_floor_shapes" \
    --postgres "$url" --backend "$backend" --duration "${DURATION:-5}" --rounds "${ROUNDS:-3}" \
    --operation "${SPLIT_OPERATION:-getMovie}" &
  children+=($!)
  wait "${children[-1]}"
  exit 0
fi

echo "== measure" >&2
BENCH_COMMAND="${BENCH_COMMAND:-Benchmarks/shapes/run.sh --postgres} ($settings)" \
  python3 "$here/bench_shapes_postgres.py" --dataconnect "$dataconnect" --explain "$explain" \
  --pg-floor "$out/pg_floor_shapes" --postgres "$url" --backend "$backend" "${measure[@]}" &
children+=($!)
wait "${children[-1]}"
if [ "$write_docs" = 1 ]; then
  python3 "$here/bench_shapes_postgres.py" --write-docs --results "$out/results-postgres.md"
fi
