#!/usr/bin/env bash
# The two HTTP/1.1 implementations of EmulatorHTTP against each other (docs/decisions/0008): server CPU per request
# (utime + stime from /proc/PID/stat over a wrk run, divided by its requests) and requests per second, in pairs run
# back to back so that a busy machine weighs on both alike:
#   1. get-by-key on the emulator: `dataconnect emulator` on a copy of the shapes data, `getMovie` with 1,000 random
#      ids, `wrk -t1 -c$CONNECTIONS -s post.lua`, EMULATOR_HTTP1 chosen per run;
#   2. the HTTP ceiling: two `http-bench` servers (--http1 libmicrohttpd, --http1 native), GET and a 120-byte POST;
#   3. memory per idle kept-alive connection: RSS growth of each http-bench over 2,000 connections.
# Usage: Benchmarks/emulator/http1-ab.sh   (from anywhere; needs the shapes data: run Benchmarks/shapes/run.sh once)
# Environment: PAIRS=5, DURATION=5 (seconds per run), CONNECTIONS=32, BENCH_SKIP_BUILD=1 (reuse the last build),
#   SHAPES_DATA (a seeded data directory of the shapes backend; default Benchmarks/shapes/.out/data-*).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
pairs="${PAIRS:-5}"; duration="${DURATION:-5}"; connections="${CONNECTIONS:-32}"
data="${SHAPES_DATA:-$(ls -d "$root"/Benchmarks/shapes/.out/data-* 2> /dev/null | head -1 || true)}"
[ -n "$data" ] || { echo "http1-ab.sh: no shapes data; run Benchmarks/shapes/run.sh first" >&2; exit 1; }
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
  (swift build -c release --package-path "$root" --product dataconnect 2>&1 | tail -1) >&2
  (swift build -c release --package-path "$root" --product http-bench 2>&1 | tail -1) >&2
fi
dataconnect="$root/.build/release/dataconnect"; httpbench="$root/.build/release/http-bench"
work=$(mktemp -d); pids=()
trap 'for pid in "${pids[@]:-}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"' EXIT
hz=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# run NAME PID URL [wrk args]: one wrk run against the server PID, one result line
run() {
  local name=$1 pid=$2 url=$3; shift 3
  local before after out requests
  before=$(cpu "$pid")
  out=$(wrk -t1 -c"$connections" -d"${duration}s" "$@" "$url")
  after=$(cpu "$pid")
  requests=$(echo "$out" | grep -o '[0-9]* requests in' | awk '{print $1}')
  python3 -c "print(f'$name  {$requests/$duration:9.0f} req/s  {($after-$before)/$hz*1e6/$requests:6.1f} us/request')"
}

echo "== get-by-key on the emulator: $pairs pairs, wrk -c$connections, ${duration} s"
python3 - "$data/dataconnect.sqlite" > "$work/bodies" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for (movie,) in db.execute("select id from movie order by random() limit 1000"):
    print(json.dumps({"name": "projects/p/locations/us-central1/services/shapes/connectors/shapes",
                      "operationName": "getMovie", "variables": {"id": movie}}))
PY
export BENCH_PATH="/v1/projects/p/locations/us-central1/services/shapes/connectors/shapes:executeQuery"
export BENCH_BODIES="$work/bodies"
emulator() { # IMPLEMENTATION: one emulator on a fresh copy of the data, measured once
  rm -rf "$work/data"; cp -r "$data" "$work/data"
  EMULATOR_HTTP1=$1 "$dataconnect" emulator --backend "$root/Benchmarks/shapes/backend" --port 0 --no-watch \
    --data-dir "$work/data" > "$work/log" 2>&1 &
  local pid=$!; pids+=("$pid")
  for _ in $(seq 600); do grep -q '^ready ' "$work/log" && break; sleep 0.05; done
  local port; port=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/log" | head -1 | sed 's/.*://')
  wrk -t1 -c"$connections" -d1s -s "$here/post.lua" "http://127.0.0.1:$port" > /dev/null
  run "$(printf '%-14s' "$1")" "$pid" "http://127.0.0.1:$port" -s "$here/post.lua"
  kill -TERM "$pid"; wait "$pid" || true
}
for _ in $(seq "$pairs"); do emulator libmicrohttpd; emulator native; done

echo "== the HTTP ceiling (http-bench, fixed 200-byte reply): $pairs pairs, wrk -c$connections, ${duration} s"
"$httpbench" --port 0 --http1 libmicrohttpd > "$work/m.log" & pids+=($!); mpid=$!
"$httpbench" --port 0 --http1 native > "$work/n.log" & pids+=($!); npid=$!
sleep 1
murl="http://127.0.0.1:$(grep -o '[0-9]*$' "$work/m.log")/"; nurl="http://127.0.0.1:$(grep -o '[0-9]*$' "$work/n.log")/"
cat > "$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"name":"projects/p/locations/us-central1/services/s/connectors/c","operationName":"getMovie","variables":{"id":"x"}}'
wrk.headers["Content-Type"] = "application/json"
LUA
for _ in $(seq "$pairs"); do run "GET  libmicrohttpd" "$mpid" "$murl"; run "GET  native       " "$npid" "$nurl"; done
for _ in $(seq "$pairs"); do
  run "POST libmicrohttpd" "$mpid" "$murl" -s "$work/post.lua"; run "POST native       " "$npid" "$nurl" -s "$work/post.lua"
done
kill "$mpid" "$npid"; wait "$mpid" "$npid" 2> /dev/null || true

echo "== memory per idle kept-alive connection (2,000 connections, each after one request)"
for implementation in libmicrohttpd native; do
  python3 - "$httpbench" "$implementation" <<'PY'
import resource, socket, subprocess, sys, time
binary, implementation, count = sys.argv[1], sys.argv[2], 2000
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 20000), hard))
server = subprocess.Popen([binary, "--port", "0", "--http1", implementation], stdout=subprocess.PIPE, text=True)
port = int(server.stdout.readline().strip().rsplit(":", 1)[1])
def rss():
    return next(int(line.split()[1]) for line in open(f"/proc/{server.pid}/status") if line.startswith("VmRSS:"))
def exchange(connection):
    connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    data = b""
    while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < 200:
        data += connection.recv(65536)
warm = [socket.create_connection(("127.0.0.1", port)) for _ in range(50)]
for connection in warm: exchange(connection)
time.sleep(0.5); before = rss()
idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
for connection in idle: exchange(connection)
time.sleep(1); after = rss()
print(f"{implementation:14}  {(after - before) * 1024 / count:9.0f} bytes per connection")
for connection in idle + warm: connection.close()
server.terminate(); server.wait()
PY
done
