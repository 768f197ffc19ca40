# Sourced by the benchmarks' run scripts: the processes they start (`children+=($!)`), stopped on exit or
# Ctrl-C, `build` (a release build, skipped with BENCH_SKIP_BUILD=1), and the checks for the tools every
# SQLite benchmark needs (wrk, gcc, libsqlite3-dev).
children=()
cleanup() {
  for pid in "${children[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

need() { command -v "$1" >/dev/null || { echo "run.sh: $1 is missing (apt-get install -y $2)" >&2; exit 1; }; }
need wrk wrk
need gcc gcc
pkg-config --exists sqlite3 || { echo "run.sh: libsqlite3-dev is missing" >&2; exit 1; }

build() { [ "${BENCH_SKIP_BUILD:-0}" = 1 ] || (swift build -c release "$@" 2>&1 | tail -1) >&2; }
