#!/usr/bin/env bash
# Instructions per execution of the 3-level shape's statement on SQLite, by how its entity ids travel (callgrind;
# deterministic). Needs gcc, libsqlite3-dev, valgrind and the data Benchmarks/shapes/run.sh seeds.
# Usage: Benchmarks/shapes/ids-carriers/run.sh [RUNS]   (default 200)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
runs="${1:-200}"
database=$(ls "$here"/../.out/data-*/dataconnect.sqlite 2>/dev/null | head -1)
[ -n "$database" ] || { echo "run.sh: no seeded data: run Benchmarks/shapes/run.sh (or make bench-shapes) once" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -o "$work/carriers" "$here/carriers.c" -lsqlite3
count() {  # instructions of one process: carriers DATABASE SQL RUNS
  valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/carriers" "$database" "$1" "$2" 2>&1 \
    | sed -n 's/.*Collected : //p'
}
echo "| statement | answer bytes | instructions per execution | beside no ids |"
echo "|---|---:|---:|---:|"
base=""
for variant in none hidden-named hidden-empty aggregate aggregate-keyed concatenated; do
  sql="$here/$variant.sql"
  total=$(count "$sql" "$runs") start=$(count "$sql" 0)
  per=$(( (total - start) / runs ))
  [ -n "$base" ] || base=$per
  bytes=$("$work/carriers" "$database" "$sql" 1 | sed 's/answer_bytes=\([0-9]*\).*/\1/')
  printf '| %s | %s | %s | %+d |\n' "$variant" "$bytes" "$per" $(( per - base ))
done
