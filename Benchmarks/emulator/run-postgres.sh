#!/usr/bin/env bash
# The emulator benchmark on PostgreSQL, end to end: build (release), start a throwaway PostgreSQL 15 cluster in
# .out/pg (durable: fsync on; stopped and removed at exit, also on failure or Ctrl-C), seed it with the data of
# run.sh (gen_data.py through `dataconnect emulator --postgres ... --seed`; the SQLite copy is run.sh's cache),
# then bench_postgres.py measures every target on 127.0.0.1 and prints the Markdown table, and realtime-bench
# measures realtime fan-out across two emulators on one database.
# Usage: Benchmarks/emulator/run-postgres.sh   (from anywhere)
# Environment: DURATION=5 (seconds per wrk run), CONNECTIONS=32, ROUNDS=3 (interleaved rounds),
#   BENCH_INDEX=composite (default) or genre, as run.sh; BENCH_SKIP_BUILD=1 (reuse the last build);
#   BENCH_REALTIME=0 (skip the realtime measurement); BENCH_ONLY=pg_insert,pg_get (a short run: only those
#   rows, see bench_postgres.py --only); BENCH_FSYNC=0 (skip pg_test_fsync).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$here/.out"
mkdir -p "$out"

source "$here/common.sh"
need_sqlite_tools
need_postgres_tools

# BENCH_SKIP_BUILD=1 reuses the binaries of the last build. The emulator's executables (and pg-cluster) are
# built from the root package, so the libraries are compiled once.
echo "== build (release)" >&2
for product in dataconnect pg-cluster http-bench realtime-bench; do
  build --package-path "$root" --product "$product"
done
dataconnect="$root/.build/release/dataconnect"
pgcluster="$root/.build/release/pg-cluster"
ceiling="$root/.build/release/http-bench"
realtime="$root/.build/release/realtime-bench"
build --package-path "$here/tools" --product sql-explain
explain="$here/tools/.build/release/sql-explain"
gcc -O2 -o "$out/pg_floor" "$here/pg_floor.c" $(pkg-config --cflags --libs libpq) -lpthread

backend=$(composite_backend "$here/backend" "$out")

seed() { seed_emulator "$dataconnect" "$backend" "$out/seed.gql" "$@"; }

# The SQLite data: run.sh's cache (the same key), made here when missing.
key=$(cat "$here/gen_data.py" "$backend"/schema/*.gql "$dataconnect" | sha256sum | cut -c1-16)
data="$out/data-$key"
if [ ! -f "$data/dataconnect.sqlite" ] || [ ! -f "$out/seed.gql" ]; then
  echo "== generate data ($data)" >&2
  rm -rf "$out"/data-* "$out/seed.gql"
  python3 "$here/gen_data.py" "$out/seed.gql" >&2
  rm -rf "$data.tmp"
  seed "$out/seed.log" --data-dir "$data.tmp"
  mv "$data.tmp" "$data"
fi

echo "== start PostgreSQL (.out/pg)" >&2
start_cluster "$pgcluster" "$out/pg"
url() { echo "${server%%/postgres\?*}/$1?sslmode=disable"; }
for database in bench inserts realtime; do psql "$server" -qc "CREATE DATABASE $database" >&2; done
echo "== seed PostgreSQL ($(url bench))" >&2
start=$(date +%s.%N)
seed "$out/seed-postgres.log" --postgres "$(url bench)"
echo "   seeded in $(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')") s" >&2
psql "$(url bench)" -qc "VACUUM ANALYZE" >&2

# What a commit with fsync on waits for: the disk's sync rate where the cluster's WAL lives (pg_test_fsync, 2 s per
# test, about 30 s), for the report.
fsync_report="$out/pg_test_fsync.txt"
rm -f "$fsync_report"
if [ "${BENCH_FSYNC:-1}" = 1 ]; then
  bindir=$(pg_config --bindir 2>/dev/null || true)
  [ -x "$bindir/pg_test_fsync" ] || bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  if [ -x "$bindir/pg_test_fsync" ]; then
    echo "== pg_test_fsync -s 2 on the cluster's disk" >&2
    "$bindir/pg_test_fsync" -s 2 -f "$cluster/pg_test_fsync.tmp" >"$fsync_report" 2>&1 || true
    rm -f "$cluster/pg_test_fsync.tmp"
  else
    echo "run-postgres.sh: pg_test_fsync not found; the report goes without it" >&2
  fi
fi

echo "== measure" >&2
only=()
[ -n "${BENCH_ONLY:-}" ] && only=(--only "$BENCH_ONLY")
fsync=()
[ -f "$fsync_report" ] && fsync=(--fsync-report "$fsync_report")
python3 "$here/bench_postgres.py" --dataconnect "$dataconnect" --ceiling "$ceiling" --explain "$explain" \
  --pg-floor "$out/pg_floor" --data "$data" --backend "$backend" --postgres "$(url bench)" \
  --postgres-inserts "$(url inserts)" "${only[@]}" "${fsync[@]}" \
  --duration "${DURATION:-5}" --connections "${CONNECTIONS:-32}" --rounds "${ROUNDS:-3}" &
children+=($!)
wait "${children[-1]}"

if [ "${BENCH_REALTIME:-1}" = 1 ]; then
  echo "== realtime across two emulators on one database" >&2
  echo
  echo "Realtime across emulators: \`realtime-bench --postgres URL --subscribers-on-second-emulator\`"
  "$realtime" --backend "$root/Backend/movies" --postgres "$(url realtime)" --subscribers-on-second-emulator &
  children+=($!)
  wait "${children[-1]}"
fi
