#!/usr/bin/env bash
# Damages the SQLite file under a running `dataconnect emulator --data-dir` and prints what a user sees: the
# acknowledged write, the 503 answers once the damage is found, /emulator/info, the log line, and the refusal at
# the next start naming what the write-ahead log still holds.
#
# Usage: scripts/corruption-transcript.sh   (from the repository root; builds nothing: set DATACONNECT to the CLI,
# .build/debug/dataconnect by default)
set -u
cd "$(dirname "$0")/.."
dataconnect=${DATACONNECT:-.build/debug/dataconnect}
work=$(mktemp -d /tmp/dataconnect-corrupt.XXXXXX)
data=$work/data
file=$data/dataconnect.sqlite
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url=http://127.0.0.1:$port
graphql=$url/v1/projects/p/locations/l/services/library:executeGraphql

show() { printf '$ %s\n' "$*"; "$@"; local status=$?; echo; return $status; }
gql() { curl -s -w ' [HTTP %{http_code}]\n' -H 'Content-Type: application/json' -d "{\"query\": \"$1\"}" "$graphql"; }
serve() {
    "$dataconnect" emulator --backend Tests/Backends/library --data-dir "$data" --port "$port" >>"$work/log" 2>&1 &
    pid=$!
    for _ in $(seq 100); do curl -s "$url/emulator/info" >/dev/null && return 0; kill -0 $pid 2>/dev/null || return 1; sleep 0.1; done
}

echo "# 1. Start, fill a table and stop cleanly (the file holds everything)"
serve
gql 'mutation { member_insertMany(data: [{id: \"uid-1\", name: \"Ada\"}, {id: \"uid-2\", name: \"Ben\"}]) }'
python3 - "$file" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, body TEXT)")
db.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) "
           "INSERT INTO filler SELECT i, hex(randomblob(60)) FROM n")
db.commit()
db.close()
PY
kill -INT $pid; wait $pid
echo
echo "# 2. Start again, then damage pages of the file under the running emulator"
serve
python3 - "$file" <<'PY'
import sys
path = sys.argv[1]
with open(path, "r+b") as f:
    size = f.seek(0, 2)
    for page in range(size // 4096 // 2, size // 4096 // 2 + 8):  # 8 pages in the middle
        f.seek(page * 4096)
        f.write(b"\xa5" * 4096)
print(f"overwrote 8 pages in the middle of {path}")
PY
echo
echo "# 3. A write is still acknowledged (it goes to the write-ahead log)"
show gql 'mutation { member_insert(data: {id: \"uid-3\", name: \"Cleo\"}) }'
echo "# 4. Within 5 seconds the integrity probe finds the damage; every request is refused"
for _ in $(seq 100); do curl -s "$url/emulator/info" | grep -q '"failed"' && break; sleep 0.1; done
show gql 'query { members { id name } }'
show gql 'mutation { member_insert(data: {id: \"uid-4\", name: \"Dan\"}) }'
printf '$ curl -s %s/emulator/info\n' "$url"; curl -s "$url/emulator/info" | python3 -m json.tool; echo
echo "# 5. The log says it once"
show grep -c "is damaged" "$work/log"
grep "is damaged" "$work/log"; echo
kill -INT $pid; wait $pid
echo "# 6. The next start refuses the file and says what the write-ahead log still holds"
show "$dataconnect" emulator --backend Tests/Backends/library --data-dir "$data" --port "$port"
echo "exit status $?"
rm -rf "$work"
