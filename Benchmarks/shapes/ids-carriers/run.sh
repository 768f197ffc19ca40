#!/usr/bin/env bash
# Instructions per execution of the 3-level shape's statement on SQLite, by how its entity ids travel (callgrind;
# deterministic), and of the same document written in C from a statement's flat rows, without and with the ids
# (rows.c). Needs gcc, libsqlite3-dev, valgrind and the data Benchmarks/shapes/run.sh seeds.
# Usage: Benchmarks/shapes/ids-carriers/run.sh [RUNS]   (default 200; DATABASE=FILE for other data of the schema;
#   DATACONNECT=.build/release/dataconnect also compares rows.c's answer with the emulator's, on a copy of the data)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
runs="${1:-200}"
database=${DATABASE:-$(ls "$here"/../.out/data-*/dataconnect.sqlite 2>/dev/null | head -1)}
[ -n "$database" ] || { echo "run.sh: no seeded data: run Benchmarks/shapes/run.sh (or make bench-shapes) once" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -Wall -Wextra -o "$work/carriers" "$here/carriers.c" -lsqlite3
gcc -O2 -Wall -Wextra -o "$work/rows" "$here/rows.c" -lsqlite3

# The check: rows.c writes the bytes none.sql answers, and its ids are the document's keys (movies, users) and
# hidden-empty.sql's hidden members (reviews), in the same order.
fail() { echo "run.sh: $1" >&2; exit 1; }
"$work/rows" --check-escaping >/dev/null || fail "rows.c escapes strings otherwise than json_quote"
"$work/carriers" "$database" "$here/none.sql" 1 "$work/none.json" >/dev/null
"$work/carriers" "$database" "$here/hidden-empty.sql" 1 "$work/hidden.json" >/dev/null
"$work/rows" "$database" "$here/rows.sql" 1 "$work/rows.json" >/dev/null
"$work/rows" "$database" "$here/rows-ids.sql" 1 "$work/rows-ids.json" "$work/ids.json" >/dev/null
cmp -s "$work/none.json" "$work/rows.json" || fail "rows.sql's document differs from none.sql's answer"
cmp -s "$work/none.json" "$work/rows-ids.json" || fail "rows-ids.sql's document differs from none.sql's answer"
ids() {  # the ids of a type in the properties, without the type, in order: ids TYPE
  grep -o "\"$1/[^\"]*\"" "$work/ids.json" | cut -d/ -f2 | tr -d '"'
}
cmp -s <(grep -o '{"id":"[^"]*","title":' "$work/none.json" | cut -d'"' -f4) <(ids Movie) ||
  fail "the Movie ids differ from the movies' keys in the document"
cmp -s <(grep -o '"user":{"id":"[^"]*"' "$work/none.json" | cut -d'"' -f6) <(ids User) ||
  fail "the User ids differ from the users' keys in the document"
cmp -s <(grep -o ',"":"[^"]*"}' "$work/hidden.json" | cut -d'"' -f4) <(ids Review) ||
  fail "the Review ids differ from hidden-empty.sql's hidden members"
reviews=$(grep -o '{"rating":' "$work/none.json" | wc -l)
[ "$reviews" -gt 0 ] && [ "$(ids Review | wc -l)" = "$reviews" ] || fail "not one Review id per review"
if [ -n "${DATACONNECT:-}" ]; then
  # The emulator's answers, without and with a client cache, are the document, and the document and the ids.
  mkdir "$work/data" && cp "$database" "$work/data/dataconnect.sqlite"
  "$DATACONNECT" emulator --backend "$here/../backend" --port 0 --no-watch --no-console --no-auth \
    --data-dir "$work/data" >"$work/emulator.log" 2>&1 &
  emulator=$!
  trap 'kill "$emulator" 2>/dev/null; rm -rf "$work"' EXIT
  port=""
  for _ in $(seq 300); do
    port=$(sed -n 's|^ready http://127.0.0.1:\([0-9]*\).*|\1|p' "$work/emulator.log")
    [ -z "$port" ] || break
    sleep 0.1
  done
  [ -n "$port" ] || fail "the emulator did not start: $(cat "$work/emulator.log")"
  for connector in shapes shapes_cached; do
    name="projects/p/locations/l/services/shapes/connectors/$connector"
    curl -s "http://127.0.0.1:$port/v1/$name:executeQuery" -H 'Content-Type: application/json' \
      -d "{\"name\":\"$name\",\"operationName\":\"listWithReviews\",\"variables\":{\"genre\":\"ACTION\"}}" \
      >"$work/$connector.answer"
  done
  kill "$emulator"
  wait "$emulator" || true
  answer() {  # the emulator's answer from rows.c's document and the ids given
    printf '{"data":{"movies":%s},"errors":[],"extensions":{"dataConnect":[%s]}}' "$(cat "$work/rows-ids.json")" "$1"
  }
  cmp -s <(answer "") "$work/shapes.answer" || fail "the emulator's answer without ids is not rows.c's document"
  cmp -s <(answer "$(cat "$work/ids.json")") "$work/shapes_cached.answer" ||
    fail "the emulator's answer with ids is not rows.c's document and ids"
  echo "check: the emulator answers rows.c's document, and with a client cache its ids" >&2
fi
echo "check: rows.sql and rows-ids.sql write none.sql's $(wc -c <"$work/none.json") bytes;" \
  "the ids agree with the document's keys and hidden-empty.sql's $reviews hidden members" >&2

count() {  # instructions of one process, its callgrind file kept as $work/NAME: count NAME PROGRAM ARGUMENTS...
  local name=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file="$work/$name" "$@" 2>&1 | sed -n 's/.*Collected : //p'
}
sqlite_part() {  # instructions in SQLite's functions called by rows.c, their callees included: sqlite_part NAME
  callgrind_annotate --tree=calling --inclusive=yes --threshold=100 "$work/$1" | awk -v mine="[$work/rows]" '
    / \* / { inMine = index($0, mine) > 0; next }
    / > / && inMine && /libsqlite3/ { gsub(",", "", $1); sum += $1 }
    END { print sum + 0 }'
}
echo "| statement | answer bytes | instructions per execution | beside no ids |"
echo "|---|---:|---:|---:|"
base="" splits=()
for variant in none hidden-named hidden-empty aggregate aggregate-keyed concatenated rows rows-ids; do
  sql="$here/$variant.sql"
  program="$work/carriers"
  [[ $variant == rows* ]] && program="$work/rows"
  total=$(count many "$program" "$database" "$sql" "$runs") start=$(count none "$program" "$database" "$sql" 0)
  per=$(( (total - start) / runs ))
  [ -n "$base" ] || base=$per
  printed=$("$program" "$database" "$sql" 1)
  bytes=$(sed 's/answer_bytes=\([0-9]*\).*/\1/' <<<"$printed")
  # rows-ids writes its ids beside the document.
  id_bytes=$(sed -n 's/.*ids_bytes=\([0-9]*\).*/\1/p' <<<"$printed")
  [ "${id_bytes:-0}" = 0 ] || bytes="$bytes + $id_bytes of ids"
  printf '| %s | %s | %s | %+d |\n' "$variant" "$bytes" "$per" $(( per - base ))
  if [ "$program" = "$work/rows" ]; then
    in_sqlite=$(( ($(sqlite_part many) - $(sqlite_part none)) / runs ))
    splits+=("| $variant | $per | $in_sqlite | $(( per - in_sqlite )) |")
  fi
done
echo
echo "| from rows | instructions per execution | in SQLite (steps, column reads, bind, reset) | in the assembly |"
echo "|---|---:|---:|---:|"
printf '%s\n' "${splits[@]}"
