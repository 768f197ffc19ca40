#!/usr/bin/env python3
"""The shapes benchmark's driver (run.sh builds everything, then calls this).

Five query shapes on the movies domain, each served by the emulator through two connectors with the same
operations (`shapes`: no client cache; `shapes_cached`: `clientCache`, so responses carry entity ids), and each
measured against its own limit L = 1/(1/C + 1/(2F)):
  C, the HTTP ceiling: http-bench (the emulator's HTTP layer, through the same connection dispatcher) answering a
    fixed reply of the shape's answer size (the mean over its request bodies, without entity ids);
  F, the fastest one-thread floor in C (floor_shapes.c) that returns the same JSON document: the exact statement
    the emulator runs (`sql-explain`, the engine's own `Engine.explain`, with the same parameters), one hand-written
    statement answering the same bytes, or, for the shapes with a relation per row, the batched form (a second
    statement takes the keys of the first one's rows and answers every row's relation at once, as the peers do);
    the fastest of them in each round. The flat rows of the answer (the client assembling the nesting) are
    measured and shown too, but are not a candidate for F: they do not return the answer.
The emulator, the ceilings and the floors share the machine's two cores; 2F is the floor on both.

It checks every answer once (row counts, nested lists, entity ids only from the cached connector, the exact
statement's JSON equal to the emulator's answer and to the hand-written JSON, the flat rows equal to the answer's,
the batched statements' JSON, put together, equal to the answer),
then measures in interleaved rounds (every target once per round, so load from elsewhere hits them alike): wrk on
127.0.0.1 with the emulator benchmark's post.lua, and the floors. Within a round, each shape's two connectors run in
alternating slices (wrk_alternating), so that the entity ids' cost is not decided by the machine's drift between two
runs. Ratios are taken within a round and the median across rounds is reported. The server's CPU per request is
the utime + stime of the emulator's process (/proc/PID/stat) over the measured wrk runs, divided by the requests
wrk counted; the same for each ceiling's http-bench.
Prints a Markdown table; writes .out/results.md and .out/results.json. Every process it starts is stopped.

The servers, the wrk runs, the outside-CPU and process-CPU accounting and the machine line are those of
../emulator/bench.py. bench_shapes_postgres.py runs the same shapes on PostgreSQL.

Usage: bench_shapes.py --dataconnect BIN --ceiling BIN --explain BIN --floor BIN --data DIR --backend DIR
       [--duration 5] [--connections 32] [--rounds 5] [--slices 5]
       bench_shapes.py --render .out/results.json          (print the table of an earlier run)
       bench_shapes.py --write-docs [--docs docs/performance.md] [--results .out/results.md]
"""
import argparse
import json
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "emulator"))
sys.dont_write_bytecode = True  # no __pycache__ in the emulator benchmark's folder
import bench  # noqa: E402  (the emulator benchmark's driver: servers, wrk, outside CPU, machine)

SERVICE = "shapes"
CONNECTORS = {False: "shapes", True: "shapes_cached"}  # by "with entity ids"
DOCS_BEGIN = "<!-- bench-shapes:begin -->"
DOCS_END = "<!-- bench-shapes:end -->"
# The targets: every shape against its L, the cost of entity ids, the server's CPU per get-by-key request (µs).
LIMIT_TARGET = 0.75
IDS_COST_TARGET = 0.10
GET_CPU_TARGET_US = 25
# The floors that return the answer's JSON document, candidates for F; the flat rows are measured beside them.
F_CANDIDATES = ("exact", "json", "batch")
# The floor runs this many variable sets at most, explained one by one; more are derived (see explain_sets).
EXPLAIN_ONE_BY_ONE = 12


def connector_name(cached):
    return f"projects/p/locations/l/services/{SERVICE}/connectors/{CONNECTORS[cached]}"


def query_path(cached):
    return f"/v1/{connector_name(cached)}:executeQuery"


# MARK: - The shapes


def tags(text):
    return None if text is None else json.loads(text)


def rows_get(data):
    m = data["movie"]
    return [[m["id"], m["title"], m["releaseYear"], m["genre"], m["rating"], m["tags"]]]


def rows_index(data):
    return [[m["id"], m["title"], m["releaseYear"]] for m in data["movies"]]


def rows_cast(data):
    rows = []
    for m in data["movies"]:
        head = [m["id"], m["title"], m["releaseYear"], m["tags"]]
        rows += [head + [a["id"], a["name"]] for a in m["actors_via_MovieActor"]] or [head + [None, None]]
    return rows


def rows_stats(data):
    rows = []
    for m in data["movies"]:
        stats = m["reviewStats"][0]
        average = stats["rating_avg"]
        rows.append([m["id"], m["title"], m["releaseYear"], stats["_count"],
                     None if average is None else round(average, 9)])
    return rows


def rows_reviews(data):
    rows = []
    for m in data["movies"]:
        head = [m["id"], m["title"]]
        rows += [head + [r["rating"], r["text"], r["user"]["id"], r["user"]["username"]] for r in m["reviews"]] \
            or [head + [None, None, None, None]]
    return rows


def check_get(data):
    assert data["movie"] and data["movie"]["tags"], "get-by-key: no movie or no tags"


def check_list(data):
    movies = data["movies"]
    assert len(movies) == 20, f"expected 20 movies, got {len(movies)}"
    return movies


def check_index(data):
    check_list(data)


def check_cast(data):
    for m in check_list(data):
        assert 1 <= len(m["actors_via_MovieActor"]) <= 3, f"movie {m['id']}: {len(m['actors_via_MovieActor'])} actors"
        assert isinstance(m["tags"], list) and m["tags"], f"movie {m['id']}: no tags"


def check_stats(data):
    for m in check_list(data):
        assert len(m["reviewStats"]) == 1 and m["reviewStats"][0]["_count"] >= 3, f"movie {m['id']}: {m['reviewStats']}"


def check_reviews(data):
    for m in check_list(data):
        assert m["reviews"] and all(r["user"] and r["user"]["id"] for r in m["reviews"]), f"movie {m['id']}: reviews"


# Each shape: its operation (backend/shapes/queries.gql), the variable it takes, two hand-written candidates for
# the best SQL (?1: the variable in storage form), how to read the answer as rows, and the answer's checks.
# `rows_sql` returns flat rows, the client assembling the nesting; `json_sql` returns the answer's JSON itself,
# byte for byte, one `json_object` per row aggregated straight over the ordered rows. `batch` (shapes with a
# relation per row): two statements, the first answering each row's key and its object without the relation, the
# second taking those keys (?1, a JSON array) and answering the relation's objects with their row's key, which the
# client puts into their rows (`member`; `one`: the relation is one object per row, `empty` where none). The
# best-SQL floor is the fastest of them.
SHAPES = [
    {
        "key": "get", "label": "get-by-key", "operation": "getMovie", "variable": "id", "list": False,
        "what": "`movie(id:)`: every scalar column and the `tags` list",
        "rows_sql": ["SELECT id, title, release_year, genre, rating, tags FROM movie WHERE id = ?1"],
        "json_sql": "SELECT json_object('id', id, 'title', title, 'releaseYear', release_year, 'genre', genre, "
                    "'rating', rating, 'tags', json(tags)) FROM movie WHERE id = ?1",
        "rows": rows_get, "check": check_get, "best_row": lambda r: [r[0], r[1], r[2], r[3], r[4], tags(r[5])],
    },
    {
        "key": "index", "label": "list served by the index", "operation": "listByIndex", "variable": "genre",
        "list": True, "what": "20 movies of a genre, newest first: filter and order are the index's columns",
        "rows_sql": ["SELECT id, title, release_year FROM movie WHERE genre = ?1 ORDER BY release_year DESC LIMIT 20"],
        "json_sql": "SELECT coalesce(json_group_array(json_object('id', id, 'title', title, 'releaseYear', "
                    "release_year)), '[]') FROM (SELECT id, title, release_year FROM movie WHERE genre = ?1 "
                    "ORDER BY release_year DESC LIMIT 20)",
        "rows": rows_index, "check": check_index, "best_row": list,
    },
    {
        "key": "cast", "label": "two-key sort, list column, many-to-many", "operation": "listWithCast",
        "variable": "genre", "list": True,
        "what": "20 movies ordered by year then title (the index covers the year only), `tags`, the cast "
                "through the join table ordered by `billing`",
        "rows_sql": ["SELECT m.id, m.title, m.release_year, m.tags, a.id, a.name FROM "
                     "(SELECT id, title, release_year, tags FROM movie WHERE genre = ?1 "
                     "ORDER BY release_year DESC, title LIMIT 20) AS m "
                     "LEFT JOIN movie_actor AS ma ON ma.movie_id = m.id LEFT JOIN actor AS a ON a.id = ma.actor_id "
                     "ORDER BY m.release_year DESC, m.title, ma.billing"],
        "json_sql": "SELECT coalesce(json_group_array(json_object('id', m.id, 'title', m.title, 'releaseYear', "
                    "m.release_year, 'tags', json(m.tags), 'actors_via_MovieActor', "
                    "(SELECT coalesce(json_group_array(json_object('id', a.id, 'name', a.name)), '[]') FROM "
                    "(SELECT a.id, a.name FROM movie_actor AS ma JOIN actor AS a ON a.id = ma.actor_id "
                    "WHERE ma.movie_id = m.id ORDER BY ma.billing) AS a))), '[]') FROM "
                    "(SELECT id, title, release_year, tags FROM movie WHERE genre = ?1 "
                    "ORDER BY release_year DESC, title LIMIT 20) AS m",
        "batch": {
            "sql": ["SELECT m.id, json_object('id', m.id, 'title', m.title, 'releaseYear', m.release_year, 'tags', "
                    "json(m.tags)) FROM movie AS m WHERE m.genre = ?1 ORDER BY m.release_year DESC, m.title LIMIT 20",
                    "SELECT ma.movie_id, json_object('id', a.id, 'name', a.name) FROM movie_actor AS ma "
                    "JOIN actor AS a ON a.id = ma.actor_id WHERE ma.movie_id IN (SELECT value FROM json_each(?1)) "
                    "ORDER BY ma.movie_id, ma.billing"],
            "member": "actors_via_MovieActor", "one": False,
        },
        "rows": rows_cast, "check": check_cast, "best_row": lambda r: [r[0], r[1], r[2], tags(r[3]), r[4], r[5]],
    },
    {
        "key": "stats", "label": "one-to-many, aggregate per row", "operation": "listWithReviewStats",
        "variable": "genre", "list": True, "what": "20 movies, each with its review count and average rating",
        "rows_sql": ["SELECT m.id, m.title, m.release_year, "
                     "(SELECT count(*) FROM review AS r WHERE r.movie_id = m.id), "
                     "(SELECT avg(r.rating) FROM review AS r WHERE r.movie_id = m.id) "
                     "FROM movie AS m WHERE m.genre = ?1 ORDER BY m.release_year DESC LIMIT 20"],
        "json_sql": "SELECT coalesce(json_group_array(json_object('id', m.id, 'title', m.title, 'releaseYear', "
                    "m.release_year, 'reviewStats', json_array((SELECT json_object('_count', count(*), "
                    "'rating_avg', json(dataconnect_float(avg(r.rating)))) FROM review AS r "
                    "WHERE r.movie_id = m.id)))), '[]') FROM (SELECT id, title, release_year FROM movie "
                    "WHERE genre = ?1 ORDER BY release_year DESC LIMIT 20) AS m",
        "batch": {
            "sql": ["SELECT m.id, json_object('id', m.id, 'title', m.title, 'releaseYear', m.release_year) "
                    "FROM movie AS m WHERE m.genre = ?1 ORDER BY m.release_year DESC LIMIT 20",
                    "SELECT r.movie_id, json_object('_count', count(*), 'rating_avg', "
                    "json(dataconnect_float(avg(r.rating)))) FROM review AS r "
                    "WHERE r.movie_id IN (SELECT value FROM json_each(?1)) GROUP BY r.movie_id"],
            "member": "reviewStats", "one": True, "empty": {"_count": 0, "rating_avg": None},
        },
        "rows": rows_stats, "check": check_stats,
        "best_row": lambda r: [r[0], r[1], r[2], r[3], None if r[4] is None else round(r[4], 9)],
    },
    {
        "key": "nested", "label": "3-level nesting", "operation": "listWithReviews", "variable": "genre",
        "list": True, "what": "20 movies, their reviews (about 5 each), each review's author",
        "rows_sql": ["SELECT m.id, m.title, r.rating, r.text, u.id, u.username FROM "
                     "(SELECT id, title FROM movie WHERE genre = ?1 ORDER BY release_year DESC LIMIT 20) AS m "
                     "LEFT JOIN review AS r ON r.movie_id = m.id LEFT JOIN user AS u ON u.id = r.user_id"],
        "json_sql": "SELECT coalesce(json_group_array(json_object('id', m.id, 'title', m.title, 'reviews', "
                    "(SELECT coalesce(json_group_array(json_object('rating', r.rating, 'text', r.text, 'user', "
                    "json_object('id', u.id, 'username', u.username))), '[]') FROM review AS r "
                    "JOIN user AS u ON u.id = r.user_id WHERE r.movie_id = m.id))), '[]') FROM "
                    "(SELECT id, title FROM movie WHERE genre = ?1 ORDER BY release_year DESC LIMIT 20) AS m",
        "batch": {
            "sql": ["SELECT m.id, json_object('id', m.id, 'title', m.title) FROM movie AS m WHERE m.genre = ?1 "
                    "ORDER BY m.release_year DESC LIMIT 20",
                    "SELECT r.movie_id, json_object('rating', r.rating, 'text', r.text, 'user', "
                    "json_object('id', u.id, 'username', u.username)) FROM review AS r JOIN user AS u "
                    "ON u.id = r.user_id WHERE r.movie_id IN (SELECT value FROM json_each(?1)) ORDER BY r.movie_id"],
            "member": "reviews", "one": False,
        },
        "rows": rows_reviews, "check": check_reviews, "best_row": list,
    },
]


# MARK: - Checks


def entity_ids(answer):
    """The entity-id entries of an answer's `extensions.dataConnect`."""
    entries = (answer.get("extensions") or {}).get("dataConnect") or []
    return [e for e in entries if "entityId" in e or "entityIds" in e]


def python_float(value):
    """The engine's `dataconnect_float`, for running its statements in Python."""
    if isinstance(value, float):
        return repr(value) if value == value and value not in (float("inf"), float("-inf")) else None
    if isinstance(value, int):
        return str(value)
    return None


def for_python(sql):
    """The engine's statement as Python's sqlite3 can run it: the functions that mark JSON text with SQLite's JSON
    subtype (which Python functions cannot set) become json() around the same text, which gives the same JSON."""
    sql = sql.replace("dataconnect_embed(", "json(").replace("dataconnect_stored_json(", "json(")
    out, i, name = [], 0, "dataconnect_float("
    while (j := sql.find(name, i)) >= 0:
        k, depth = j + len(name), 1
        while depth:
            depth += {"(": 1, ")": -1}.get(sql[k], 0)
            k += 1
        out.append(sql[i:j] + "json(" + name + for_python(sql[j + len(name):k - 1]) + "))")
        i = k
    return "".join(out) + sql[i:]


def parameter_value(line):
    kind, _, value = line.partition(":")
    return {"i": int, "r": float, "t": str}.get(kind, lambda _: None)(value)


def check_answers(shape, answers):
    """Checks a shape's answers (uncached and cached, by `with entity ids`): no errors, the shape's own checks,
    entity ids from the cached connector only, the same data from both."""
    label = shape["label"]
    plain, cached = answers[False], answers[True]
    for answer, with_ids in ((plain, False), (cached, True)):
        assert not answer.get("errors"), f"{label}: errors {answer['errors']}"
        shape["check"](answer["data"])
        ids = entity_ids(answer)
        assert bool(ids) == with_ids, f"{label}: entity ids {'missing' if with_ids else 'present'} " \
                                      f"({CONNECTORS[with_ids]})"
    assert plain["data"] == cached["data"], f"{label}: the two connectors' data differ"


def check_shape(shape, answers, db, exact, value):
    """Checks a shape's answers (uncached and cached) against each other and against every floor's SQL."""
    label = shape["label"]
    check_answers(shape, answers)
    plain = answers[False]
    # The exact statement answers the emulator's JSON.
    statement = exact[0]
    root = next(iter(plain["data"]))
    exact_text = db.execute(for_python(statement["sql"]),
                            [parameter_value(p) for p in statement["parameters"]]).fetchone()[0]
    assert json.loads(exact_text) == plain["data"][root], f"{label}: the exact statement's JSON differs from the answer"
    # The hand-written JSON is the same JSON, byte for byte.
    text = db.execute(shape["json_sql"], [value]).fetchone()[0]
    assert text == exact_text, f"{label}: the hand-written JSON differs from the exact statement's:\n{text[:300]}\n" \
                               f"{exact_text[:300]}"
    # The flat rows are the answer's rows, in the same order.
    rows = []
    for sql in shape["rows_sql"]:
        rows += [shape["best_row"](r) for r in db.execute(sql, [value])]
    expected = shape["rows"](plain["data"])
    assert rows == expected, f"{label}: the flat rows differ from the answer:\n{rows[:3]}\n{expected[:3]}"
    # The batched statements' JSON, put together by key, is the answer.
    if "batch" in shape:
        batched = assemble_batch(shape["batch"], db, value)
        assert batched == plain["data"][root], f"{label}: the batched JSON differs from the answer:\n" \
                                               f"{batched[:2]}\n{plain['data'][root][:2]}"


def assemble_batch(batch, db, value):
    """What a client of the batched statements does: each row's relation, from the second statement's objects
    with that row's key, put into the row's object."""
    first, second = batch["sql"]
    rows = db.execute(first, [value]).fetchall()
    related = {}
    for key, text in db.execute(second, [json.dumps([key for key, _ in rows])]):
        related.setdefault(key, []).append(json.loads(text))
    out = []
    for key, text in rows:
        row = json.loads(text)
        found = related.get(key, [])
        row[batch["member"]] = (found[:1] or [batch["empty"]]) if batch["one"] else found
        out.append(row)
    return out


# MARK: - Floors


def explain(args, operation, variables, dialect="sqlite"):
    """The exact statement the engine runs for the `shapes` connector's operation, and its parameters."""
    out = subprocess.run([args.explain, "--dialect", dialect, args.backend, CONNECTORS[False], operation,
                          json.dumps(variables)], capture_output=True, text=True, check=True).stdout.splitlines()
    return {"sql": out[0], "parameters": out[1:]}


def explain_sets(args, operation, name, values, dialect="sqlite"):
    """The exact statement and its parameters for each value of the variable `name`.

    Up to EXPLAIN_ONE_BY_ONE values are explained one by one. For more, two are explained: parameters equal in
    both are constants, and each one that differs must be the variable's value (`t:<value>`); the others are
    derived from these, and a third explained value checks the derivation.
    """
    if len(values) <= EXPLAIN_ONE_BY_ONE:
        return [explain(args, operation, {name: v}, dialect) for v in values]
    first, second = (explain(args, operation, {name: v}, dialect) for v in values[:2])
    assert first["sql"] == second["sql"] and len(first["parameters"]) == len(second["parameters"])
    slots = [i for i, (a, b) in enumerate(zip(first["parameters"], second["parameters"])) if a != b]
    assert all(first["parameters"][i] == f"t:{values[0]}" for i in slots), f"{operation}: cannot derive parameters"

    def derive(value):
        return {"sql": first["sql"], "parameters": [f"t:{value}" if i in slots else p
                                                    for i, p in enumerate(first["parameters"])]}

    probe = values[len(values) // 2]
    assert derive(probe) == explain(args, operation, {name: probe}, dialect), f"{operation}: derived parameters differ"
    return [derive(v) for v in values]


def write_plan(path, statements_per_set):
    """A floor_shapes plan: the statements (the same in every set), then one parameter set per query variant."""
    with open(path, "w") as f:
        for sql in statements_per_set[0][0]:
            assert "\n" not in sql
            f.write(f"S {sql}\n")
        for statements, parameters in statements_per_set:
            f.write("V\n")
            for k, values in enumerate(parameters, start=1):
                for value in values:
                    assert "\n" not in value
                    f.write(f"P {k} {value}\n")
    return path


def slice_seconds(duration, slices):
    """The length of one alternating slice: the run's duration shared among the slices, at least 1 s."""
    return max(1, round(duration / max(1, slices)))


def wrk_alternating(port, targets, args, cpu=None):
    """The targets (path, bodies) measured on one server in alternating slices, for a ratio between them that the
    machine's drift from second to second does not decide.

    After a 1 s warm-up and one uncounted slice of each, every target runs `args.slices` slices of
    `slice_seconds(args)` seconds, in turn, reversing the order every other slice (AB BA AB …) so that a steady
    drift reaches them alike. Returns one result per target: its requests and time summed over its slices (`rps` from those),
    its errors summed, the outside CPU of its busiest slice, and with `cpu` (bench.ProcessCPU counters) the CPU
    seconds of each counted process summed over its slices (`cpu_s`).
    """
    slice_args = argparse.Namespace(**dict(vars(args), duration=slice_seconds(args.duration, args.slices)))
    for path, bodies in targets:
        bench.wrk(port, path, bodies, slice_args)  # a 1 s warm-up and one slice, neither counted
    slices = [[] for _ in targets]
    for number in range(max(1, args.slices)):
        order = range(len(targets)) if number % 2 == 0 else reversed(range(len(targets)))
        for index in order:
            path, bodies = targets[index]
            slices[index].append(bench.wrk(port, path, bodies, slice_args, warmup=False, cpu=cpu))
    results = []
    for runs in slices:
        total = {k: sum(run[k] for run in runs) for k in ("requests", "duration_us", "errors")}
        total["rps"] = total["requests"] / (total["duration_us"] / 1e6)
        total["outside_cores"] = max(run["outside_cores"] for run in runs)
        total["slices"] = [run["rps"] for run in runs]
        if cpu:
            total["cpu_s"] = {name: sum(run["cpu_s"][name] for run in runs) for name in cpu}
        results.append(total)
    return results


def run_floor(args, database, plan):
    with bench.OutsideCPU() as outside:
        out = subprocess.run([args.floor, database, plan, str(args.duration)], capture_output=True, text=True,
                             check=True, timeout=args.duration + 60).stdout
    result = {k: float(v) for k, v in (pair.split("=") for pair in out.split())}
    result["rps"] = result["per_second"]
    result["outside_cores"] = outside.cores
    return result


def fastest(results, candidates):
    """The fastest of a round's results among the candidates, marked with the candidate's name."""
    best = max(((results[c], c) for c in candidates), key=lambda x: x[0]["rps"])
    return dict(best[0], candidate=best[1])


def answer_sizes(port, shape, values):
    """The mean size in bytes of the shape's answers over its request bodies, without and with entity ids."""
    sizes = {}
    for cached in (False, True):
        total = 0
        for value in values:
            status, body = bench.post(port, query_path(cached), {
                "name": connector_name(cached), "operationName": shape["operation"],
                "variables": {shape["variable"]: value}})
            assert status == 200, body[:300]
            total += len(body)
        sizes[cached] = round(total / len(values))
    return sizes


def request_bodies(work, shape, values):
    """The shape's wrk bodies (one per value, in turn) for each connector: {with entity ids: file}."""
    return {cached: bench.write_bodies(f"{work}/{shape['key']}-{int(cached)}.txt", [
        {"name": connector_name(cached), "operationName": shape["operation"],
         "variables": {shape["variable"]: v}} for v in values]) for cached in (False, True)}


def server_cpu(process):
    """bench.ProcessCPU counters for a server process: its utime + stime."""
    return {"server": lambda: bench.process_ticks(process.pid)}


# MARK: - The run


def run(args, work, results):
    data_dir = os.path.join(work, "data")
    shutil.copytree(args.data, data_dir)
    database = os.path.join(data_dir, "dataconnect.sqlite")
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    db.create_function("dataconnect_float", 1, python_float, deterministic=True)
    ids = [r[0] for r in db.execute("SELECT id FROM movie ORDER BY id LIMIT 1000")]
    genres = [r[0] for r in db.execute("SELECT DISTINCT genre FROM movie ORDER BY genre")]
    counts = db.execute("SELECT (SELECT count(*) FROM movie), (SELECT count(*) FROM actor), "
                        "(SELECT count(*) FROM movie_actor), (SELECT count(*) FROM user), "
                        "(SELECT count(*) FROM review)").fetchone()
    results["data"] = dict(zip(("movies", "actors", "links", "users", "reviews"), counts))

    bench.log("== start the emulator and check every answer")
    emulator, port, _ = bench.start_server(
        [args.dataconnect, "emulator", "--backend", args.backend, "--port", "0", "--no-watch", "--data-dir",
         data_dir])
    results["shapes"] = {}
    files, plans = {}, {}
    for shape in SHAPES:
        key, name = shape["key"], shape["variable"]
        values = ids if name == "id" else genres
        for cached, path in request_bodies(work, shape, values).items():
            files[key, cached] = path
        answers = {}
        for cached in (False, True):
            status, body = bench.post(port, query_path(cached), {
                "name": connector_name(cached), "operationName": shape["operation"], "variables": {name: values[0]}})
            assert status == 200, body[:300]
            answers[cached] = json.loads(body)
        exact = explain_sets(args, shape["operation"], name, values)
        check_shape(shape, answers, db, exact, values[0])
        sizes = answer_sizes(port, shape, values)
        plans[key, "exact"] = write_plan(f"{work}/{key}-exact.plan",
                                         [([e["sql"]], [e["parameters"]]) for e in exact])
        plans[key, "json"] = write_plan(f"{work}/{key}-json.plan",
                                        [([shape["json_sql"]], [[f"t:{v}"]]) for v in values])
        plans[key, "rows"] = write_plan(f"{work}/{key}-rows.plan",
                                        [(shape["rows_sql"], [[f"t:{v}"]] * len(shape["rows_sql"])) for v in values])
        if "batch" in shape:
            plans[key, "batch"] = write_plan(f"{work}/{key}-batch.plan",
                                             [(shape["batch"]["sql"], [[f"t:{v}"], ["k:1"]]) for v in values])
        results["shapes"][key] = {
            "label": shape["label"], "operation": shape["operation"], "what": shape["what"],
            "bytes": sizes[False], "bytes_with_ids": sizes[True], "variants": len(values),
            "exact_sql": exact[0]["sql"], "exact_parameters": exact[0]["parameters"], "json_sql": shape["json_sql"],
            "rows_sql": shape["rows_sql"], "batch_sql": shape.get("batch", {}).get("sql"),
        }
        bench.log(f"   {shape['label']}: ok (mean {sizes[False]:,} / {sizes[True]:,} B)")
    db.close()

    # C: a ceiling per shape, answering a fixed reply of the shape's mean answer size (without entity ids).
    ceilings = {}
    for shape in SHAPES:
        key, size = shape["key"], results["shapes"][shape["key"]]["bytes"]
        process, ceiling_port, _ = bench.start_server([args.ceiling, "--port", "0", "--size", str(size)])
        status, body = bench.post(ceiling_port, query_path(False), {})
        assert status == 200 and len(body) == size, (status, len(body), size)
        ceilings[key] = (process, ceiling_port)

    rounds = {}
    for shape in SHAPES:
        for target in ("ceiling", "emulator", "emulator_ids", "floor_exact", "floor_json", "floor_rows", "floor_f") + \
                (("floor_batch",) if "batch" in shape else ()):
            rounds[f"{shape['key']}.{target}"] = []
    for number in range(1, args.rounds + 1):
        bench.log(f"== round {number}/{args.rounds}: per shape: its ceiling, the emulator without and with ids, "
                  "the floors (exact SQL, hand-written JSON, flat rows, batched)")
        for shape in SHAPES:
            key = shape["key"]
            ceiling, ceiling_port = ceilings[key]
            rounds[f"{key}.ceiling"].append(bench.wrk(ceiling_port, query_path(False), files[key, False], args,
                                                      cpu=server_cpu(ceiling)))
            plain, with_ids = wrk_alternating(port, [(query_path(False), files[key, False]),
                                                     (query_path(True), files[key, True])], args,
                                              cpu=server_cpu(emulator))
            rounds[f"{key}.emulator"].append(plain)
            rounds[f"{key}.emulator_ids"].append(with_ids)
            measured = {}
            for candidate in ("exact", "json", "rows", "batch"):
                if (key, candidate) in plans:
                    measured[candidate] = run_floor(args, database, plans[key, candidate])
                    rounds[f"{key}.floor_{candidate}"].append(measured[candidate])
            rounds[f"{key}.floor_f"].append(fastest(measured, [c for c in F_CANDIDATES if c in measured]))
            bench.log("   " + shape["label"] + ": " + ", ".join(
                f"{t} {rounds[f'{key}.{t}'][-1]['rps']:,.0f}/s"
                for t in ["ceiling", "emulator", "emulator_ids"] + [f"floor_{c}" for c in measured]))
    results["rounds"] = rounds
    for process in [emulator] + [p for p, _ in ceilings.values()]:
        bench.stop(process)


# MARK: - The table

CANDIDATE_NAMES = {"exact": "exact SQL", "json": "JSON", "rows": "rows", "batch": "batched"}


def per_round(rounds, a, b):
    """The ratio a/b of each round, and their median."""
    return spread_of([x["rps"] / y["rps"] for x, y in zip(rounds[a], rounds[b])])


def spread_of(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "rounds": values}


def limit(c, f):
    """L: the HTTP ceiling and the floor on two cores, one after the other for each request."""
    return 1 / (1 / c + 1 / (2 * f))


def cpu_us(run):
    """The server's CPU per request of a wrk run (or of summed slices), in µs."""
    return run["cpu_s"]["server"] / run["requests"] * 1e6 if run["requests"] else float("nan")


def ratios(r):
    rounds, out = r["rounds"], {}
    for key in r["shapes"]:
        limits = [limit(c["rps"], f["rps"]) for c, f in zip(rounds[f"{key}.ceiling"], rounds[f"{key}.floor_f"])]
        out[f"{key}.L"] = spread_of(limits)
        out[f"{key}.vs_L"] = spread_of([e["rps"] / l for e, l in zip(rounds[f"{key}.emulator"], limits)])
        out[f"{key}.ids"] = per_round(rounds, f"{key}.emulator_ids", f"{key}.emulator")
        out[f"{key}.exact_vs_F"] = per_round(rounds, f"{key}.floor_exact", f"{key}.floor_f")
        for target in ("emulator", "emulator_ids", "ceiling"):
            out[f"{key}.{target}.cpu_us"] = spread_of([cpu_us(x) for x in rounds[f"{key}.{target}"]])
    return out


def cost_of(ids):
    """The entity ids' cost from the with/without ratios: 1 - ratio, its range reversed."""
    return {"median": 1 - ids["median"], "min": 1 - ids["max"], "max": 1 - ids["min"]}


class TableFormats:
    """How both shapes tables (this one's and bench_shapes_postgres.py's) show their figures."""

    def __init__(self, r):
        self.rounds = r["rounds"]
        self.count = len(self.rounds[f"{next(iter(r['shapes']))}.emulator"])

    def rps(self, key):
        """The median requests per second of a row's rounds."""
        return statistics.median(x["rps"] for x in self.rounds[key])

    def spread(self, value, fmt):
        """A median with its (min–max) range when there is more than one round."""
        text = fmt(value["median"])
        return text if self.count == 1 else f"{text} ({fmt(value['min'])}–{fmt(value['max'])})"

    @staticmethod
    def percent(v):
        return f"{v:.0%}"

    @staticmethod
    def verdict(ok):
        return "met" if ok else "**missed**"


def markdown(r):
    rounds, q = r["rounds"], ratios(r)
    keys = list(r["shapes"])
    table = TableFormats(r)
    rps, spread, percent, verdict = table.rps, table.spread, TableFormats.percent, TableFormats.verdict

    def times(v):
        return f"{v:.2f}x"

    def floor_f(key):
        """F's median and the candidate that won most rounds."""
        winners = [x["candidate"] for x in rounds[f"{key}.floor_f"]]
        winner = max(set(winners), key=winners.count)
        return f"{rps(f'{key}.floor_f'):,.0f} ({CANDIDATE_NAMES[winner]})"

    m = r["machine"]
    measured = [x for k, v in rounds.items() if not k.endswith(".floor_f") for x in v]
    disturbed = sum(1 for x in measured if x.get("outside_cores", 0) > bench.DISTURBED_CORES)
    errors = sum(x["errors"] for k, v in rounds.items() if ".floor" not in k for x in v)
    d = r["data"]
    lines = [
        f"Machine: {m['cores']} cores ({m['cpu']}), {m['memory_gib']} GiB, Debian {m['debian']}, {m['swift']}, "
        f"SQLite {m['sqlite']}, {m['wrk']}; load average at start {' '.join(m['loadavg_at_start'])}.",
        f"Date: {r['date']}. Command: `{r['command']}`. wrk `{r['wrk']}` on 127.0.0.1 after a 1 s warm-up "
        f"(the emulator benchmark's `post.lua`), {table.count} interleaved round{'s' if table.count != 1 else ''}; in each round, per "
        f"shape: its ceiling, then the emulator without and with entity ids in {r['slices']} alternating slices of "
        f"{slice_seconds(r['duration'], r['slices'])} s each (AB BA …, after a warm-up and one uncounted slice "
        f"of each), their requests summed, then the floors: `floor_shapes` (gcc -O2), one thread, "
        f"{r['duration']} s each. Data: {d['movies']:,} movies, {d['actors']:,} actors, {d['links']:,} cast links, "
        f"{d['users']:,} users, {d['reviews']:,} reviews.",
        f"L = 1/(1/C + 1/(2F)): C, `http-bench` (the emulator's HTTP layer and connection dispatcher) answering a "
        f"fixed reply of the shape's mean answer size; F, the fastest one-thread floor returning the same JSON "
        f"document (exact SQL, hand-written JSON or batched), on the two cores. Figures are medians of the rounds; "
        f"ratios are taken within each round, then the median (min–max) across rounds. Server CPU: utime + stime "
        f"of the server's process over the measured runs, per request wrk counted. Outside CPU: {disturbed} of "
        f"{len(measured)} runs had other processes using more than {bench.DISTURBED_CORES} cores.",
        "",
        "| shape | req/s | C req/s | F q/s (floor) | L req/s | req/s / L | with entity ids req/s | ids cost "
        "| server CPU µs/req without / with ids | ceiling CPU µs/req | mean answer bytes without / with ids |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for key, shape in r["shapes"].items():
        lines.append(
            f"| {shape['label']} (`{shape['operation']}`) | {rps(f'{key}.emulator'):,.0f} "
            f"| {rps(f'{key}.ceiling'):,.0f} | {floor_f(key)} | {q[f'{key}.L']['median']:,.0f} "
            f"| {spread(q[f'{key}.vs_L'], percent)} | {rps(f'{key}.emulator_ids'):,.0f} "
            f"| {spread(cost_of(q[f'{key}.ids']), percent)} "
            f"| {q[f'{key}.emulator.cpu_us']['median']:.0f} / {q[f'{key}.emulator_ids.cpu_us']['median']:.0f} "
            f"| {q[f'{key}.ceiling.cpu_us']['median']:.0f} | {shape['bytes']:,} / {shape['bytes_with_ids']:,} |")
    lines += [
        "",
        "| target | measured (median of the per-round figures) | req/s | verdict |",
        "|---|---|---|---|",
    ]
    for key, shape in r["shapes"].items():
        value = q[f"{key}.vs_L"]["median"]
        lines.append(f"| {shape['label']} ≥ {LIMIT_TARGET:.0%} of its L | {value:.0%} "
                     f"| {rps(f'{key}.emulator'):,.0f} against L {q[f'{key}.L']['median']:,.0f} "
                     f"(C {rps(f'{key}.ceiling'):,.0f}, F {rps(f'{key}.floor_f'):,.0f}) "
                     f"| {verdict(value >= LIMIT_TARGET)} |")
    for key, shape in r["shapes"].items():
        cost = cost_of(q[f"{key}.ids"])["median"]
        lines.append(f"| {shape['label']}: entity ids cost ≤ {IDS_COST_TARGET:.0%} | {cost:.0%} "
                     f"| {rps(f'{key}.emulator'):,.0f} → {rps(f'{key}.emulator_ids'):,.0f} "
                     f"| {verdict(cost <= IDS_COST_TARGET)} |")
    get = q["get.emulator.cpu_us"]["median"] if "get" in r["shapes"] else None
    if get is not None:
        lines.append(f"| get-by-key: server CPU ≤ {GET_CPU_TARGET_US} µs per request | {get:.1f} µs (with entity "
                     f"ids {q['get.emulator_ids.cpu_us']['median']:.1f} µs; the ceiling "
                     f"{q['get.ceiling.cpu_us']['median']:.1f} µs) | {rps('get.emulator'):,.0f} "
                     f"| {verdict(get <= GET_CPU_TARGET_US)} |")
    lines += [
        "",
        "| floors, one thread (q/s) | exact SQL (the engine's statement) | hand-written JSON (same bytes) "
        "| batched JSON (client puts together) | flat rows (client assembles; not F) | exact SQL / F |",
        "|---|---|---|---|---|---|",
    ]
    for key, shape in r["shapes"].items():
        batched = f"{rps(f'{key}.floor_batch'):,.0f}" if rounds.get(f"{key}.floor_batch") else "—"
        lines.append(
            f"| {shape['label']} | {rps(f'{key}.floor_exact'):,.0f} | {rps(f'{key}.floor_json'):,.0f} "
            f"| {batched} | {rps(f'{key}.floor_rows'):,.0f} | {spread(q[f'{key}.exact_vs_F'], times)} |")
    lines += [
        "",
        f"wrk errors (connect/read/write/non-2xx/timeout) across all runs: {errors:.0f}. F is, in each round, the "
        "fastest of the exact SQL, the hand-written JSON and the batched JSON (two statements, the second taking the "
        "keys of the first one's rows; shapes with a relation per row); the flat rows do not return the answer and "
        "are shown for comparison only. The exact-SQL floor is the `shapes` connector's statement (`Engine.explain` "
        "compiles without entity ids).",
    ]
    return "\n".join(lines)


def write_docs(docs, table, begin_marker=DOCS_BEGIN, end_marker=DOCS_END, name="bench_shapes.py"):
    text = open(docs).read()
    begin, end = text.find(begin_marker), text.find(end_marker)
    if begin < 0 or end < 0 or end < begin:
        sys.exit(f"{name}: {docs} has no `{begin_marker}` ... `{end_marker}` markers: add them where the "
                 "table goes")
    text = text[:begin + len(begin_marker)] + "\n" + table.strip() + "\n" + text[end:]
    with open(docs, "w") as f:
        f.write(text)
    print(f"{name}: wrote the table into {docs}", file=sys.stderr)


def add_common_arguments(parser, results_stem):
    """The arguments both shapes benchmarks take (this one and bench_shapes_postgres.py)."""
    parser.add_argument("--render", help=f"print the table of an earlier {results_stem}.json and exit")
    parser.add_argument("--write-docs", action="store_true",
                        help="replace the text between the benchmark's markers in --docs with --results, and exit")
    parser.add_argument("--docs", default=os.path.join(ROOT, "docs", "performance.md"))
    parser.add_argument("--results", default=os.path.join(HERE, ".out", f"{results_stem}.md"))
    parser.add_argument("--dataconnect")
    parser.add_argument("--explain")
    parser.add_argument("--backend", default=os.path.join(HERE, "backend"))
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--slices", type=int, default=5,
                        help="alternating slices per round for the emulator with and without entity ids")


def drive(parser, name, required, results_stem, markdown_of, ratios_of, markers, measure):
    """What both shapes benchmarks do around their measurements: --write-docs and --render, the required
    arguments, the results' header, every started process stopped, then .out/<results_stem>.json and .md written
    and the table printed. `measure(args, work, results)` runs the benchmark into `results`; `ratios_of` and
    `markdown_of` make its ratios and its table."""
    args = parser.parse_args()
    if args.write_docs:
        if not os.path.exists(args.results):
            sys.exit(f"{name}: no {args.results}: run the benchmark first")
        write_docs(args.docs, open(args.results).read(), *markers, name)
        return
    if args.render:
        print(markdown_of(json.load(open(args.render))))
        return
    missing = [n for n in required if not getattr(args, n)]
    if missing:
        parser.error("missing " + ", ".join("--" + n.replace("_", "-") for n in missing))

    work = tempfile.mkdtemp(prefix=f"dc-{name.removesuffix('.py')}-")
    command = os.environ.get("BENCH_COMMAND") or " ".join(sys.argv)
    results = {"machine": bench.machine(), "wrk": f"-t{args.threads} -c{args.connections} -d{args.duration}s",
               "duration": args.duration, "slices": args.slices, "date": time.strftime("%Y-%m-%d"),
               "command": command}
    try:
        measure(args, work, results)
    finally:
        for process in bench.started:
            bench.stop(process)
        shutil.rmtree(work, ignore_errors=True)
    out = os.path.join(HERE, ".out")
    os.makedirs(out, exist_ok=True)
    results["ratios"] = ratios_of(results)
    with open(os.path.join(out, f"{results_stem}.json"), "w") as f:
        json.dump(results, f, indent=2)
    table = markdown_of(results)
    with open(os.path.join(out, f"{results_stem}.md"), "w") as f:
        f.write(table + "\n")
    print(table)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_common_arguments(parser, "results")
    parser.add_argument("--ceiling")
    parser.add_argument("--floor")
    parser.add_argument("--data", help="the cached data directory (dataconnect.sqlite)")
    drive(parser, "bench_shapes.py", ("dataconnect", "ceiling", "explain", "floor", "data"), "results", markdown,
          ratios, (DOCS_BEGIN, DOCS_END), run)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    main()
