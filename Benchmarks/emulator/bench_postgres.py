#!/usr/bin/env python3
"""The emulator benchmark on PostgreSQL (run-postgres.sh starts the cluster, seeds it, then calls this).

Measures on loopback, with wrk at bench.py's settings, in interleaved rounds (so that load from elsewhere hits
every target alike):
  the HTTP ceiling (HTTPBench); get-by-key and the 20-row list on the emulator over PostgreSQL and over SQLite
  (the same data); the PostgreSQL floor (the list's own statement, prepared once and executed in a loop through
  libpq, on 1 connection and on as many connections as the emulator's pool holds); single-row inserts on
  PostgreSQL (their own database); and the list served by two emulator processes on one database (one wrk
  against each, half the connections each) against one.
Prints a Markdown table and the ratios against the targets; writes .out/results-postgres.json. Every process it
starts is stopped in `finally`. `--only pg_insert,pg_get` measures only those rows (a short run, e.g. on a busy
machine), `--fsync-report FILE` adds pg_test_fsync's figures for the disk to the report.
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
import threading
import time

import bench
from bench import (CONNECTOR, DISTURBED_CORES, GENRES, MUTATION_PATH, NAME, QUERY_PATH, OutsideCPU,
                   MemorySampler, check_list, log, machine, post, start_server, stop, wrk, write_bodies)

HERE = os.path.dirname(os.path.abspath(__file__))
# The emulator's default readers (3): on PostgreSQL its pool holds one more connection.
POOL_CONNECTIONS = 4
KEYS = ("ceiling", "pg_get", "pg_list", "sqlite_get", "sqlite_list", "floor_1", f"floor_{POOL_CONNECTIONS}",
        "pg_list_two", "pg_insert")


def psql(url, sql):
    return subprocess.run(["psql", url, "-Atqc", sql], capture_output=True, text=True, check=True).stdout.strip()


def floor(args, work, connections):
    with OutsideCPU() as outside:
        out = subprocess.run([args.pg_floor, args.postgres, f"{work}/list.sql", str(args.duration), str(connections)],
                             capture_output=True, text=True, check=True, timeout=args.duration + 30).stdout
    result = {k: float(v) for k, v in (pair.split("=") for pair in out.split())}
    result["rps"] = result["per_second"]
    result["outside_cores"] = outside.cores
    return result


def wrk_pair(ports, path, bodies_file, args):
    """One wrk against each port at the same time, each with half the connections; the sum of their req/s."""
    half = argparse.Namespace(**vars(args))
    half.connections = max(1, args.connections // len(ports))
    results = [None] * len(ports)

    def measure(index, port):
        results[index] = wrk(port, path, bodies_file, half)

    with OutsideCPU() as outside:
        threads = [threading.Thread(target=measure, args=(i, p)) for i, p in enumerate(ports)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    if any(r is None for r in results):
        raise RuntimeError("a wrk run of the pair failed")
    combined = {"rps": sum(r["rps"] for r in results), "requests": sum(r["requests"] for r in results),
                "errors": sum(r["errors"] for r in results), "per_emulator": [r["rps"] for r in results],
                "p50_us": max(r["p50_us"] for r in results), "p99_us": max(r["p99_us"] for r in results)}
    # The wrk processes run under this script: what is outside is outside both.
    combined["outside_cores"] = outside.cores
    return combined


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--render", help="print the table of an earlier results-postgres.json and exit")
    parser.add_argument("--dataconnect")
    parser.add_argument("--ceiling")
    parser.add_argument("--explain")
    parser.add_argument("--pg-floor")
    parser.add_argument("--data", help="the cached SQLite data directory (dataconnect.sqlite), the same data")
    parser.add_argument("--postgres", help="the seeded database's URL")
    parser.add_argument("--postgres-inserts", help="an empty database's URL, for the inserts")
    parser.add_argument("--backend", default=os.path.join(HERE, "backend"))
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", help="measure only these rows, comma-separated: " + ", ".join(KEYS))
    parser.add_argument("--fsync-report", help="pg_test_fsync's output for the cluster's disk, for the report")
    args = parser.parse_args()
    if args.render:
        print(markdown(json.load(open(args.render))))
        return
    missing = [n for n in ("dataconnect", "ceiling", "explain", "pg_floor", "data", "postgres", "postgres_inserts")
               if not getattr(args, n)]
    if missing:
        parser.error("missing " + ", ".join("--" + n.replace("_", "-") for n in missing))
    args.keys = KEYS
    if args.only:
        args.keys = tuple(k for k in KEYS if k in args.only.split(","))
        unknown = set(args.only.split(",")) - set(KEYS)
        if unknown or not args.keys:
            parser.error(f"--only takes {', '.join(KEYS)}; not {', '.join(sorted(unknown)) or args.only}")

    work = tempfile.mkdtemp(prefix="dc-bench-pg-")
    results = {"machine": machine(), "wrk": f"-t{args.threads} -c{args.connections} -d{args.duration}s",
               "date": time.strftime("%Y-%m-%d"), "command": " ".join(sys.argv)}
    results["machine"]["postgresql"] = psql(args.postgres, "SHOW server_version")
    with open(os.path.join(psql(args.postgres, "SHOW data_directory"), "postmaster.pid")) as f:
        bench.OWN_ROOTS.add(int(f.readline()))
    results["postgresql_settings"] = {name: psql(args.postgres, f"SHOW {name}")
                                      for name in ("fsync", "synchronous_commit", "shared_buffers", "wal_sync_method")}
    if args.fsync_report:
        results["pg_test_fsync"] = open(args.fsync_report).read()
    try:
        run(args, work, results)
    finally:
        for process in bench.started:
            stop(process)
        shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(HERE, ".out"), exist_ok=True)
    with open(os.path.join(HERE, ".out", "results-postgres.json"), "w") as f:
        json.dump(results, f, indent=2)
    table = markdown(results)
    with open(os.path.join(HERE, ".out", "results-postgres.md"), "w") as f:
        f.write(table + "\n")
    print(table)


def run(args, work, results):
    data_dir = os.path.join(work, "data")
    shutil.copytree(args.data, data_dir)
    database = os.path.join(data_dir, "dataconnect.sqlite")
    emulator = [args.dataconnect, "emulator", "--backend", args.backend, "--port", "0", "--no-watch"]
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        ids = [r[0] for r in db.execute("SELECT id FROM movie ORDER BY random() LIMIT 1000")]
    counts = psql(args.postgres, "SELECT (SELECT count(*) FROM movie) || ' ' || (SELECT count(*) FROM actor)"
                                 " || ' ' || (SELECT count(*) FROM movie_actor)").split()
    results["data"] = {"movies": int(counts[0]), "actors": int(counts[1]), "links": int(counts[2])}
    schema_dir = os.path.join(args.backend, "schema")
    results["indexes"] = [line.strip().rstrip("{").strip() for name in sorted(os.listdir(schema_dir))
                          for line in open(os.path.join(schema_dir, name))
                          if "@index" in line and not line.lstrip().startswith("#")]

    log("== start servers and check their answers")
    pg, pg_port, pg_ready = start_server(emulator + ["--postgres", args.postgres])
    pg_memory = MemorySampler(pg.pid)
    pg2, pg2_port, _ = start_server(emulator + ["--postgres", args.postgres])
    lite, lite_port, _ = start_server(emulator + ["--data-dir", data_dir])
    writes, writes_port, _ = start_server(emulator + ["--postgres", args.postgres_inserts])
    results["ready_ms_postgres"] = pg_ready * 1000

    get_bodies = [{"name": NAME, "operationName": "getMovieByKey", "variables": {"id": i}} for i in ids]
    list_bodies = [{"name": NAME, "operationName": "listMoviesWithActors", "variables": {"genre": g}}
                   for g in GENRES]
    insert_bodies = [{"name": NAME, "operationName": "insertMovie",
                      "variables": {"title": f"Inserted {i}", "releaseYear": 1950 + i % 75,
                                    "genre": GENRES[i % 10], "rating": 1 + i % 5}} for i in range(1000)]
    answers = {}
    for label, port in (("postgres", pg_port), ("postgres2", pg2_port), ("sqlite", lite_port)):
        status, answer = post(port, QUERY_PATH, get_bodies[0])
        assert status == 200 and json.loads(answer)["data"]["movie"]["id"] == ids[0], (label, answer[:300])
        answers[label + "_get"] = answer
        status, answer = post(port, QUERY_PATH, list_bodies[5])
        assert status == 200, (label, answer[:300])
        answers[label + "_list"] = answer
        check_list(answer, label)
    assert json.loads(answers["postgres_get"]) == json.loads(answers["sqlite_get"]), "get-by-key answers differ"
    pg_movies = json.loads(answers["postgres_list"])["data"]["movies"]
    by_id = {m["id"]: m for m in json.loads(answers["sqlite_list"])["data"]["movies"]}
    shared = [m for m in pg_movies if m["id"] in by_id]
    # Movies of one year tie in the order: the two databases may pick different ones at the cut.
    assert len(shared) >= 10 and all(m == by_id[m["id"]] for m in shared), "PostgreSQL and SQLite answers differ"
    status, body = post(writes_port, MUTATION_PATH, insert_bodies[0])
    assert status == 200 and not json.loads(body).get("errors"), body[:300]
    reply_size = len(answers["postgres_get"])

    ceiling, ceiling_port, _ = start_server([args.ceiling, "--port", "0", "--size", str(reply_size)])
    status, body = post(ceiling_port, QUERY_PATH, get_bodies[0])
    assert status == 200 and len(body) == reply_size, (status, len(body), reply_size)

    # The floor: the exact statement the emulator sends for the list (Engine.explain, PostgreSQL dialect).
    statement = subprocess.run([args.explain, "--dialect", "postgresql", args.backend, CONNECTOR,
                                "listMoviesWithActors", json.dumps({"genre": "Drama"})],
                               capture_output=True, text=True, check=True).stdout
    with open(f"{work}/list.sql", "w") as f:
        f.write(statement)
    results["sql"] = statement.splitlines()[0]
    results["sql_parameters"] = statement.splitlines()[1:]
    results["plan"] = subprocess.run(
        ["psql", args.postgres, "-Atq", "-f", "-"], capture_output=True, text=True, check=True,
        input=explain_script(statement)).stdout.strip().splitlines()

    files = {
        "get": write_bodies(f"{work}/get.txt", get_bodies),
        "list": write_bodies(f"{work}/list.txt", list_bodies),
        "insert": write_bodies(f"{work}/insert.txt", insert_bodies),
    }
    measures = {
        "ceiling": lambda: wrk(ceiling_port, QUERY_PATH, files["get"], args),
        "pg_get": lambda: wrk(pg_port, QUERY_PATH, files["get"], args),
        "pg_list": lambda: wrk(pg_port, QUERY_PATH, files["list"], args),
        "sqlite_get": lambda: wrk(lite_port, QUERY_PATH, files["get"], args),
        "sqlite_list": lambda: wrk(lite_port, QUERY_PATH, files["list"], args),
        "floor_1": lambda: floor(args, work, 1),
        f"floor_{POOL_CONNECTIONS}": lambda: floor(args, work, POOL_CONNECTIONS),
        "pg_list_two": lambda: wrk_pair([pg_port, pg2_port], QUERY_PATH, files["list"], args),
        "pg_insert": lambda: inserts(args, writes_port, files["insert"]),
    }
    rounds = {k: [] for k in args.keys}
    for number in range(1, args.rounds + 1):
        log(f"== round {number}/{args.rounds}: " + ", ".join(args.keys))
        for key in args.keys:
            rounds[key].append(measures[key]())
        for key in rounds:
            rounds[key][-1]["loadavg"] = float(open("/proc/loadavg").read().split()[0])
        log("   req/s: " + ", ".join(f"{k} {v[-1]['rps']:,.0f}" for k, v in rounds.items()))
        log("   outside CPU (cores): " + ", ".join(f"{k} {v[-1]['outside_cores']:.2f}" for k, v in rounds.items()))
    results["rounds"] = rounds
    results["reply_bytes"] = {"get_by_key": reply_size, "list": len(answers["postgres_list"]),
                              "floor": rounds["floor_1"][0]["bytes"] if "floor_1" in rounds else None}
    results["memory"] = {"postgres_reads": pg_memory.finish().summary()}
    for process in (pg, pg2, lite, writes, ceiling):
        stop(process)
    rows = int(psql(args.postgres_inserts, "SELECT count(*) FROM movie"))
    inserted = sum(r["requests"] for r in rounds.get("pg_insert", []))
    results["insert_rows"] = {"rows": rows, "requests_counted_by_wrk": inserted}
    assert rows >= inserted, (rows, inserted)


def inserts(args, port, bodies_file):
    """wrk on the inserts, and the writing transactions per inserted row over the run and its warm-up: the growth
    of the server's next transaction id (every transaction that writes takes one: the inserts' own, the change
    feed's notifications) over the growth of the table."""
    def counters():
        xid, rows = psql(args.postgres_inserts, "SELECT pg_snapshot_xmax(pg_current_snapshot()), "
                                                "(SELECT count(*) FROM movie)").split("|")
        return int(xid), int(rows)

    xid, rows = counters()
    result = wrk(port, MUTATION_PATH, bodies_file, args)
    # The change feed sends its notifications after the answers: let it finish.
    time.sleep(0.5)
    xid_after, rows_after = counters()
    result["transactions_per_insert"] = (xid_after - xid) / max(1, rows_after - rows)
    return result


def explain_script(statement):
    """A psql script printing the plan of the statement, prepared as the emulator prepares it (the server infers
    the parameter types from the casts), for the printed parameters."""
    lines = statement.splitlines()
    sql, parameters = lines[0], lines[1:]
    values = ", ".join("NULL" if p.startswith("n:") else "'" + p[2:].replace("'", "''") + "'" for p in parameters)
    prepare = f"PREPARE floor AS {sql};"
    execute = f"EXECUTE floor ({values})" if parameters else "EXECUTE floor"
    return f"{prepare}\nEXPLAIN (COSTS OFF) {execute};\n"


def median_of(rounds, key="rps"):
    return statistics.median(r[key] for r in rounds)


def fsync_lines(r):
    """pg_test_fsync's one-8kB-write figures, the ones a commit's WAL flush is closest to."""
    text = r.get("pg_test_fsync")
    if not text:
        return []
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if "using one 8kB write" in line), None)
    if start is None:
        return ["pg_test_fsync printed no figures:", "", "```", *lines[-5:], "```"]
    figures = []
    for line in lines[start + 2:]:
        if not line.strip():
            break
        figures.append(line.strip())
    return [f"The disk, `pg_test_fsync -s 2` in the cluster's directory (one 8kB write; the server syncs its WAL "
            f"with `{r['postgresql_settings'].get('wal_sync_method', '?')}`):", "", "```", *figures, "```"]


def transactions_per_insert(rounds):
    values = [x["transactions_per_insert"] for x in rounds["pg_insert"] if "transactions_per_insert" in x]
    return f"{statistics.median(values):.2f}" if values else "n/a"


def markdown_only(r):
    """The table of a short run (--only): the rows measured, and the insert target when inserts were."""
    rounds = r["rounds"]
    m, settings = r["machine"], r["postgresql_settings"]
    lines = [
        f"Machine: {m['cores']} cores ({m['cpu']}), {m['memory_gib']} GiB, Debian {m['debian']}, {m['swift']}, "
        f"PostgreSQL {m['postgresql']} (fsync {settings['fsync']}, synchronous_commit "
        f"{settings['synchronous_commit']}). Short run (`--only`): {len(next(iter(rounds.values())))} rounds of "
        f"wrk `{r['wrk']}`, rows {', '.join(rounds)}.",
        "",
        "| row | median (min–max) per second | p50 / p99 latency (median round) | outside CPU per round |",
        "|---|---|---|---|",
    ]
    for key, runs in rounds.items():
        values = [x["rps"] for x in runs]
        latency = (f"{median_of(runs, 'p50_us') / 1000:.2f} / {median_of(runs, 'p99_us') / 1000:.2f} ms"
                   if "p50_us" in runs[0] else "")
        outside = " / ".join(f"{x.get('outside_cores', float('nan')):.2f}" for x in runs)
        lines.append(f"| {key} | {median_of(runs):,.0f} ({min(values):,.0f}–{max(values):,.0f}) | {latency} | "
                     f"{outside} |")
    if "pg_insert" in rounds:
        clean = [x["rps"] for x in rounds["pg_insert"] if x.get("outside_cores", 0) <= DISTURBED_CORES]
        verdict = ("inconclusive: every run was disturbed" if not clean
                   else "met" if statistics.median(clean) >= 3000 else "**missed**")
        lines += ["", f"Inserts ≥ 3,000/s: {verdict} (undisturbed runs: "
                      f"{', '.join(f'{v:,.0f}' for v in clean) or 'none'}); writing transactions per insert "
                      f"(median of the rounds): {transactions_per_insert(rounds)}."]
    return "\n".join(lines + [""] + fsync_lines(r))


def markdown(r):
    rounds = r["rounds"]
    if set(rounds) != set(KEYS):
        return markdown_only(r)
    floor_n = next(k for k in rounds if k.startswith("floor_") and k != "floor_1")
    connections = floor_n.split("_")[1]
    rps = {k: median_of(v) for k, v in rounds.items()}

    def clean(key):
        return [x for x in rounds[key] if x.get("outside_cores", 0) <= DISTURBED_CORES]

    def spread(key):
        values = [x["rps"] for x in rounds[key]]
        return f"{rps[key]:,.0f} ({min(values):,.0f}–{max(values):,.0f})"

    def outside(key):
        return " / ".join(f"{x.get('outside_cores', float('nan')):.2f}" for x in rounds[key])

    def lat(key):
        return f"{median_of(rounds[key], 'p50_us') / 1000:.2f} / {median_of(rounds[key], 'p99_us') / 1000:.2f} ms"

    def ratio(a, b):
        """The ratio of the best undisturbed runs (outside load only ever slows a run down), or None."""
        if not clean(a) or not clean(b):
            return None
        return max(x["rps"] for x in clean(a)) / max(y["rps"] for y in clean(b))

    def per_round(a, b):
        values = [x["rps"] / y["rps"] for x, y in zip(rounds[a], rounds[b])]
        return f"{statistics.median(values):.0%} ({min(values):.0%}–{max(values):.0%})"

    def verdict(value, ok):
        if value is None:
            return "inconclusive: every run was disturbed"
        return "met" if ok(value) else "**missed**"

    def show(value, fmt):
        return "n/a" if value is None else fmt(value)

    m, size = r["machine"], r["reply_bytes"]
    get_ratio = ratio("pg_get", "ceiling")
    floor_ratio, floor1_ratio = ratio("pg_list", floor_n), ratio("pg_list", "floor_1")
    two_ratio = ratio("pg_list_two", "pg_list")
    inserts = [x["rps"] for x in clean("pg_insert")]
    insert_value = statistics.median(inserts) if inserts else None
    errors = sum(x["errors"] for k, v in rounds.items() if not k.startswith("floor") for x in v)
    n = len(rounds["pg_list"])
    disturbed = sum(1 for v in rounds.values() for x in v if x.get("outside_cores", 0) > DISTURBED_CORES)
    total = sum(len(v) for v in rounds.values())
    per_emulator = [statistics.median(x["per_emulator"][i] for x in rounds["pg_list_two"]) for i in range(2)]
    settings = r["postgresql_settings"]
    lines = [
        f"Machine: {m['cores']} cores ({m['cpu']}), {m['memory_gib']} GiB, Debian {m['debian']}, {m['swift']}, "
        f"PostgreSQL {m['postgresql']} (fsync {settings['fsync']}, synchronous_commit "
        f"{settings['synchronous_commit']}, shared_buffers {settings['shared_buffers']}), SQLite {m['sqlite']}, "
        f"{m['wrk']}. Everything (wrk, the emulators, PostgreSQL) shares these cores.",
        f"Date: {r['date']}. wrk `{r['wrk']}` on 127.0.0.1 after a 1 s warm-up, {n} interleaved rounds. Data: "
        f"{r['data']['movies']:,} movies, {r['data']['actors']:,} actors, {r['data']['links']:,} cast links; index: "
        + ", ".join(f"`{i}`" for i in r["indexes"]) + ".",
        f"Outside CPU: the cores other processes (not wrk, the emulators, the floor or the PostgreSQL server) used "
        f"during each run; {disturbed} of {total} runs had more than "
        f"{DISTURBED_CORES} and are left out of the verdicts.",
        "",
        "| benchmark | result: median (min–max) of the rounds | p50 / p99 latency (median round) | reply | outside CPU per round |",
        "|---|---|---|---|---|",
        f"| 1. HTTP ceiling: HTTPBench, fixed reply, same HTTP layer | {spread('ceiling')} req/s | {lat('ceiling')} | {size['get_by_key']} B | {outside('ceiling')} |",
        f"| 2. get-by-key (`getMovieByKey`), PostgreSQL | {spread('pg_get')} req/s | {lat('pg_get')} | {size['get_by_key']} B | {outside('pg_get')} |",
        f"| 3. 20-row list + many-to-many (`listMoviesWithActors`), PostgreSQL | {spread('pg_list')} req/s | {lat('pg_list')} | {size['list']:,} B | {outside('pg_list')} |",
        f"| 4. get-by-key, SQLite (`--data-dir`, same data) | {spread('sqlite_get')} req/s | {lat('sqlite_get')} | | {outside('sqlite_get')} |",
        f"| 5. 20-row list, SQLite (`--data-dir`, same data) | {spread('sqlite_list')} req/s | {lat('sqlite_list')} | | {outside('sqlite_list')} |",
        f"| 6. PostgreSQL floor: the list's statement, prepared, libpq, 1 connection | {spread('floor_1')} runs/s ({median_of(rounds['floor_1'], 'mean_us'):.0f} µs each) | | {size['floor']:,.0f} B | {outside('floor_1')} |",
        f"| 7. PostgreSQL floor: the same on {connections} connections (the emulator's pool), one thread each | {spread(floor_n)} runs/s ({median_of(rounds[floor_n], 'mean_us'):.0f} µs each) | | | {outside(floor_n)} |",
        f"| 8. 20-row list, two emulator processes on one database (wrk `-c{r['wrk'].split('-c')[1].split()[0]}` split over both) | {spread('pg_list_two')} req/s ({per_emulator[0]:,.0f} + {per_emulator[1]:,.0f}) | {lat('pg_list_two')} (worse of the two) | | {outside('pg_list_two')} |",
        f"| 9. single-row inserts (`insertMovie`), PostgreSQL | {spread('pg_insert')} inserts/s | {lat('pg_insert')} | | {outside('pg_insert')} |",
        f"| writing transactions per insert (the insert's own, and its share of the change feed's notifications) | {transactions_per_insert(rounds)} | | | |",
        f"| ready after start, on the seeded database (one start) | {r['ready_ms_postgres']:.0f} ms | | | |",
        f"| peak resident memory (VmHWM), reads emulator | {r['memory']['postgres_reads']['hwm_kb'] / 1024:.1f} MB | | | |",
        "",
        "| target | measured: best undisturbed runs | per-round ratios, median (min–max), all runs | verdict |",
        "|---|---|---|---|",
        f"| get-by-key ≥ 50% of the HTTP ceiling | {show(get_ratio, lambda v: f'{v:.0%}')} | {per_round('pg_get', 'ceiling')} | {verdict(get_ratio, lambda v: v >= 0.5)} |",
        f"| 20-row list ≥ 50% of the PostgreSQL floor, {connections} connections | {show(floor_ratio, lambda v: f'{v:.0%}')} | {per_round('pg_list', floor_n)} | {verdict(floor_ratio, lambda v: v >= 0.5)} |",
        f"| (20-row list against the 1-connection floor) | {show(floor1_ratio, lambda v: f'{v:.0%}')} | {per_round('pg_list', 'floor_1')} | |",
        f"| inserts ≥ 3,000/s | {show(insert_value, lambda v: f'{v:,.0f}/s (median)')} | | {verdict(insert_value, lambda v: v >= 3000)} |",
        f"| (two emulators against one, 20-row list) | {show(two_ratio, lambda v: f'{v:.0%}')} | {per_round('pg_list_two', 'pg_list')} | |",
        f"| (PostgreSQL against SQLite: get-by-key / list) | {show(ratio('pg_get', 'sqlite_get'), lambda v: f'{v:.0%}')} / {show(ratio('pg_list', 'sqlite_list'), lambda v: f'{v:.0%}')} | {per_round('pg_get', 'sqlite_get')} / {per_round('pg_list', 'sqlite_list')} | |",
        "",
        f"wrk errors (connect/read/write/non-2xx/timeout) across all runs: {errors:.0f}. Movies in the insert database "
        f"afterwards: {r['insert_rows']['rows']:,}, at least the {r['insert_rows']['requests_counted_by_wrk']:,.0f} "
        "inserts wrk counted (the rest are warm-ups).",
        "",
        "The list's plan (`EXPLAIN` of the prepared statement, for genre Drama):",
        "",
        "```",
        *r["plan"],
        "```",
    ]
    fsync = fsync_lines(r)
    return "\n".join(lines + ([""] + fsync if fsync else []))


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    main()
