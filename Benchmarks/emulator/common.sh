# Sourced by the benchmarks' run scripts: the processes they start (`children+=($!)`) and the PostgreSQL cluster
# they start (`start_cluster`), stopped on exit or Ctrl-C; `build` (a release build, skipped with
# BENCH_SKIP_BUILD=1); `need` and `need_sqlite_tools` (the checks for the tools a benchmark needs); `seed_emulator`
# (an emulator started with a seed file until it is ready); `composite_backend` (the backend variant with the
# composite index).
script="$(basename "$0")"
children=()
cluster=""
pgcluster=""
cleanup() {
  for pid in "${children[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [ -n "$cluster" ]; then
    "$pgcluster" stop "$cluster" >/dev/null 2>&1 || true
    rm -rf "$cluster"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

need() { command -v "$1" >/dev/null || { echo "$script: $1 is missing (apt-get install -y $2)" >&2; exit 1; }; }
# What every SQLite benchmark with a C floor needs: wrk, gcc, libsqlite3-dev.
need_sqlite_tools() {
  need wrk wrk
  need gcc gcc
  pkg-config --exists sqlite3 || { echo "$script: libsqlite3-dev is missing" >&2; exit 1; }
}
# What a PostgreSQL benchmark needs on top: psql, libpq-dev.
need_postgres_tools() {
  need psql postgresql-client
  pkg-config --exists libpq || { echo "$script: libpq-dev is missing" >&2; exit 1; }
}

build() { [ "${BENCH_SKIP_BUILD:-0}" = 1 ] || (swift build -c release "$@" 2>&1 | tail -1) >&2; }

# start_cluster PG_CLUSTER DIR: a throwaway PostgreSQL cluster in DIR (durable: fsync on) on a free port, stopped and
# removed at exit; sets $server to the server's URL (its `postgres` database). Not in a subshell: the exit trap needs
# $cluster.
start_cluster() {
  pgcluster="$1"
  "$pgcluster" stop "$2" >/dev/null 2>&1 || true
  rm -rf "$2"
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  cluster="$2"
  server=$("$pgcluster" start "$cluster" --port "$port")
}

# seed_emulator DATACONNECT BACKEND SEED LOG ARGS...: starts `dataconnect emulator` with the seed file and ARGS (the
# database), waits for it to be ready, and stops it. A seed is one transaction of tens of thousands of rows: on
# PostgreSQL it takes longer than the default 30 s request limit on a busy machine.
seed_emulator() {
  local dataconnect="$1" backend="$2" seed="$3" log="$4"
  shift 4
  "$dataconnect" emulator --backend "$backend" --port 0 --no-watch --request-timeout 600 --seed "$seed" "$@" \
    >"$log" 2>&1 &
  children+=($!)
  for _ in $(seq 1 6000); do
    grep -q '^ready ' "$log" && break
    kill -0 "${children[-1]}" 2>/dev/null || break
    sleep 0.1
  done
  grep -q '^ready ' "$log" || { cat "$log" >&2; exit 1; }
  kill -TERM "${children[-1]}" && wait "${children[-1]}" || true
}

# composite_backend BACKEND OUT: prints BENCH_INDEX's backend: BACKEND itself for `genre`, or (the default,
# `composite`) a copy in OUT/backend-composite whose Movie has the composite index (genre, releaseYear DESC) instead
# of the index on genre.
composite_backend() {
  if [ "${BENCH_INDEX:-composite}" != composite ]; then
    echo "$1"
    return
  fi
  local backend="$2/backend-composite"
  rm -rf "$backend" && cp -r "$1" "$backend"
  sed -i -e 's/^type Movie @table {/type Movie @table @index(fields: ["genre", "releaseYear"], order: [ASC, DESC]) {/' \
    -e 's/^  genre: String @index$/  genre: String/' "$backend/schema/schema.gql"
  grep -q '@index(fields' "$backend/schema/schema.gql" || { echo "$script: cannot make the composite variant" >&2; exit 1; }
  echo "$backend"
}
