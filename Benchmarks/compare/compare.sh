#!/usr/bin/env bash
# Before and after, interleaved: the emulator's rows of bench-shapes and the four bench-realtime invocations,
# measured on two checkouts' release builds in alternation (B, A, B, A …), medians of the runs, a row more than 5%
# worse after is a REGRESSION. Prints the Markdown table for docs/performance.md (also in .out/compare.md; raw
# figures in .out/compare.json). See compare.py for what is measured and how.
# Usage: Benchmarks/compare/compare.sh BEFORE_ROOT AFTER_ROOT   (two checkouts of this repository; from anywhere)
# Environment: DURATION=5 (seconds per wrk run), CONNECTIONS=32, REPEATS=5 (runs of each row on each build),
#   PARTS=shapes,realtime (or one of them), REALTIME_SUBSCRIBERS=10000 (the two --subscribers invocations),
#   BENCH_SKIP_BUILD=1 (use the checkouts' release builds as they are; they must exist),
#   BENCH_COMMAND (how the table names the command; default compare.sh with the settings).
# Without BENCH_SKIP_BUILD, each checkout gets `swift build -c release` of `dataconnect` (root package) and
# `realtime-bench` (Packages/DataConnectEmulator): made when missing, brought up to date otherwise.
# The data is the shapes benchmark's, seeded once with the BEFORE build and cached in .out/.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$here/.out"

[ $# = 2 ] || { echo "usage: compare.sh BEFORE_ROOT AFTER_ROOT" >&2; exit 2; }
before="$(cd "$1" && pwd)" && after="$(cd "$2" && pwd)" ||
  { echo "compare.sh: $1 or $2 is not a directory" >&2; exit 2; }
for checkout in "$before" "$after"; do
  [ -f "$checkout/Package.swift" ] && [ -d "$checkout/Packages/DataConnectEmulator" ] ||
    { echo "compare.sh: $checkout is not a checkout of this repository" >&2; exit 2; }
done
parts="${PARTS:-shapes,realtime}"
mkdir -p "$out"

source "$root/Benchmarks/emulator/common.sh"
need_sqlite_tools
# wrk's connections and the emulators' sockets; realtime-bench raises its own limit to the hard one (10,000
# subscribers need about 10,500 descriptors in each of its two processes).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

for checkout in "$before" "$after"; do
  echo "== build (release): $checkout" >&2
  case "$parts" in *shapes*) build --package-path "$checkout" --product dataconnect ;; esac
  case "$parts" in *realtime*)
    build --package-path "$checkout/Packages/DataConnectEmulator" --product realtime-bench ;; esac
done

data=""
case "$parts" in *shapes*)
  shapes="$root/Benchmarks/shapes"
  data=$("$root/Benchmarks/emulator/seed-data.sh" "$before/.build/release/dataconnect" "$shapes/backend" \
    "$shapes/gen_data.py" "$out" "$root/Benchmarks/emulator/gen_data.py") ;;
esac

settings="DURATION=${DURATION:-5} REPEATS=${REPEATS:-5} CONNECTIONS=${CONNECTIONS:-32}"
BENCH_COMMAND="${BENCH_COMMAND:-Benchmarks/compare/compare.sh BEFORE AFTER} ($settings)" python3 "$here/compare.py" \
  --before-root "$before" --after-root "$after" ${data:+--data "$data"} --parts "$parts" \
  --duration "${DURATION:-5}" --connections "${CONNECTIONS:-32}" --repeats "${REPEATS:-5}" \
  --realtime-subscribers "${REALTIME_SUBSCRIBERS:-10000}" &
children+=($!)
wait "${children[-1]}"
