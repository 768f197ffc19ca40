#!/usr/bin/env python3
"""The shapes benchmark on PostgreSQL (run.sh --postgres starts a throwaway cluster, seeds it, then calls this).

The five shapes of bench_shapes.py, served by the emulator from the seeded PostgreSQL database through the same
two connectors (without and with entity ids, in alternating slices), each against its libpq floor
(pg_floor_shapes.c): the emulator's exact statement for the shape (`sql-explain --dialect postgresql`, the
parameters cycling as the HTTP bodies do), prepared once per connection and executed on as many connections as
the emulator's pool holds (POOL_CONNECTIONS), every column of every row read.

It checks every answer once (the shape's checks, entity ids only from the cached connector, the same data from
both, the exact statement's JSON through libpq equal to the emulator's answer), then measures in interleaved
rounds, per shape: the emulator without and with entity ids, then the floor. The server's CPU per request is the
utime + stime of the emulator's process and the CPU of the PostgreSQL server's processes (the postmaster and
everything under it, backends included) over the measured runs, per request wrk counted; the floor's the same
per query. Outside CPU counts the PostgreSQL server as part of the measurement.
Prints a Markdown table; writes .out/results-postgres.md and .out/results-postgres.json. Every process it starts
is stopped.

Usage: bench_shapes_postgres.py --dataconnect BIN --explain BIN --pg-floor BIN --postgres URL --backend DIR
       [--duration 5] [--connections 32] [--rounds 5] [--slices 5]
       bench_shapes_postgres.py --render .out/results-postgres.json
       bench_shapes_postgres.py --write-docs [--docs docs/performance.md] [--results .out/results-postgres.md]
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import bench_shapes  # noqa: E402  (the shapes, their checks, the alternating slices; it imports bench.py)
from bench_shapes import (TableFormats, SHAPES, answer_sizes, check_answers, connector_name, cost_of, explain_sets,  # noqa: E402
                          per_round, query_path, request_bodies, slice_seconds, spread_of, write_plan)

bench = bench_shapes.bench
import bench_postgres  # noqa: E402  (the emulator benchmark on PostgreSQL: psql, the server's CPU as its own)

DOCS_BEGIN = "<!-- bench-shapes-postgres:begin -->"
DOCS_END = "<!-- bench-shapes-postgres:end -->"
# The emulator's pool on PostgreSQL holds Emulator.Options.readers + 1 connections (StoreConfiguration); readers
# is 3 by default and `dataconnect emulator` has no option for it.
POOL_CONNECTIONS = 4
FLOOR_TARGET = 0.5


def psql(url, sql):
    return bench_postgres.psql(url, sql)


def run_floor(args, plan, postgres_cpu):
    with bench.OutsideCPU() as outside, bench.ProcessCPU(postgres_cpu) as cpu:
        out = subprocess.run([args.pg_floor, args.postgres, plan, str(args.duration), str(POOL_CONNECTIONS)],
                             capture_output=True, text=True, check=True, timeout=args.duration + 120).stdout
    result = {k: float(v) for k, v in (pair.split("=") for pair in out.split())}
    result["rps"] = result["per_second"]
    result["outside_cores"] = outside.cores
    result["cpu_s"] = cpu.seconds
    return result


def backends(url):
    """The client connections to the database other than the one asking."""
    return int(psql(url, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                         "AND backend_type = 'client backend' AND pid <> pg_backend_pid()"))


def run(args, work, results, postmaster):
    # Keys as the emulator writes and binds them: a UUID's 32 hex digits.
    ids = psql(args.postgres, "SELECT replace(id::text, '-', '') FROM movie ORDER BY id LIMIT 1000").split()
    genres = psql(args.postgres, "SELECT DISTINCT genre FROM movie ORDER BY genre").split()
    counts = psql(args.postgres, "SELECT (SELECT count(*) FROM movie) || ' ' || (SELECT count(*) FROM actor) || ' ' "
                                 "|| (SELECT count(*) FROM movie_actor) || ' ' || (SELECT count(*) FROM \"user\") "
                                 "|| ' ' || (SELECT count(*) FROM review)").split()
    results["data"] = dict(zip(("movies", "actors", "links", "users", "reviews"), map(int, counts)))

    bench.log("== start the emulator on PostgreSQL and check every answer")
    emulator, port, _ = bench.start_server(
        [args.dataconnect, "emulator", "--backend", args.backend, "--port", "0", "--no-watch", "--postgres",
         args.postgres])
    results["backends_at_start"] = backends(args.postgres)
    results["shapes"], files, plans = {}, {}, {}
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
        check_answers(shape, answers)
        exact = explain_sets(args, shape["operation"], name, values, dialect="postgresql")
        plans[key] = write_plan(f"{work}/{key}-exact.plan", [([e["sql"]], [e["parameters"]]) for e in exact])
        printed = subprocess.run([args.pg_floor, args.postgres, plans[key], "--print"], capture_output=True,
                                 text=True, check=True, timeout=60).stdout
        root = next(iter(answers[False]["data"]))
        assert json.loads(printed) == answers[False]["data"][root], \
            f"{shape['label']}: the exact statement's JSON differs from the answer:\n{printed[:300]}"
        sizes = answer_sizes(port, shape, values)
        results["shapes"][key] = {
            "label": shape["label"], "operation": shape["operation"], "bytes": sizes[False],
            "bytes_with_ids": sizes[True], "variants": len(values), "exact_sql": exact[0]["sql"],
            "exact_parameters": exact[0]["parameters"]}
        bench.log(f"   {shape['label']}: ok (mean {sizes[False]:,} / {sizes[True]:,} B)")

    postgres_cpu = {"postgres": lambda: bench.tree_ticks(postmaster)}
    emulator_cpu = dict(bench_shapes.server_cpu(emulator), **postgres_cpu)
    rounds = {f"{s['key']}.{t}": [] for s in SHAPES for t in ("emulator", "emulator_ids", "floor")}
    for number in range(1, args.rounds + 1):
        bench.log(f"== round {number}/{args.rounds}: per shape: the emulator without and with ids, the floor "
                  f"({POOL_CONNECTIONS} connections)")
        for shape in SHAPES:
            key = shape["key"]
            plain, with_ids = bench_shapes.wrk_alternating(port, [(query_path(False), files[key, False]),
                                                                  (query_path(True), files[key, True])], args,
                                                           cpu=emulator_cpu)
            rounds[f"{key}.emulator"].append(plain)
            rounds[f"{key}.emulator_ids"].append(with_ids)
            rounds[f"{key}.floor"].append(run_floor(args, plans[key], postgres_cpu))
            bench.log("   " + shape["label"] + ": " + ", ".join(
                f"{t} {rounds[f'{key}.{t}'][-1]['rps']:,.0f}/s" for t in ("emulator", "emulator_ids", "floor")))
        results.setdefault("backends_during", []).append(backends(args.postgres))
    results["rounds"] = rounds
    bench.stop(emulator)


# MARK: - The table


def per_request_us(run, name, count="requests"):
    return run["cpu_s"][name] / run[count] * 1e6 if run[count] else float("nan")


def ratios(r):
    rounds, out = r["rounds"], {}
    for key in r["shapes"]:
        out[f"{key}.vs_floor"] = per_round(rounds, f"{key}.emulator", f"{key}.floor")
        out[f"{key}.ids"] = per_round(rounds, f"{key}.emulator_ids", f"{key}.emulator")
        for target in ("emulator", "emulator_ids"):
            for name in ("server", "postgres"):
                out[f"{key}.{target}.{name}_us"] = spread_of(
                    [per_request_us(x, name) for x in rounds[f"{key}.{target}"]])
        out[f"{key}.floor.postgres_us"] = spread_of(
            [per_request_us(x, "postgres", "queries") for x in rounds[f"{key}.floor"]])
    return out


def markdown(r):
    rounds, q = r["rounds"], ratios(r)
    keys = list(r["shapes"])
    table = TableFormats(r)
    rps, spread, percent, verdict = table.rps, table.spread, TableFormats.percent, TableFormats.verdict

    def us(key):
        return f"{q[key]['median']:.0f}"

    m, s, d = r["machine"], r["postgresql_settings"], r["data"]
    measured = [x for v in rounds.values() for x in v]
    disturbed = sum(1 for x in measured if x.get("outside_cores", 0) > bench.DISTURBED_CORES)
    errors = sum(x["errors"] for k, v in rounds.items() if not k.endswith(".floor") for x in v)
    lines = [
        f"Machine: {m['cores']} cores ({m['cpu']}), {m['memory_gib']} GiB, Debian {m['debian']}, {m['swift']}, "
        f"PostgreSQL {m['postgresql']} (a throwaway cluster: fsync {s['fsync']}, synchronous_commit "
        f"{s['synchronous_commit']}, shared_buffers {s['shared_buffers']}), {m['wrk']}; load average at start "
        f"{' '.join(m['loadavg_at_start'])}.",
        f"Date: {r['date']}. Command: `{r['command']}`. wrk `{r['wrk']}` on 127.0.0.1 after a 1 s warm-up "
        f"(the emulator benchmark's `post.lua`), {table.count} interleaved round{'s' if table.count != 1 else ''}; in each round, per "
        f"shape: the emulator (`--postgres`) without and with entity ids in {r['slices']} alternating slices of "
        f"{slice_seconds(r['duration'], r['slices'])} s each (AB BA …, after a warm-up and one uncounted slice of "
        f"each), their requests summed, then the floor: `pg_floor_shapes` (gcc -O2), the emulator's exact "
        f"statement prepared once per connection on {r['pool_connections']} connections, one thread each (the "
        f"emulator's pool; PostgreSQL counted {r['backends_at_start']} client connections from the emulator at its "
        f"start and at most {max(r['backends_during'])} after a round, the pool's among them), {r['duration']} s. "
        f"Data: {d['movies']:,} "
        f"movies, {d['actors']:,} actors, {d['links']:,} cast links, {d['users']:,} users, {d['reviews']:,} "
        f"reviews.",
        f"Figures are medians of the rounds; ratios are taken within each round, then the median (min–max) across "
        f"rounds. CPU per request: utime + stime over the measured runs of the emulator's process and of the "
        f"PostgreSQL server's processes (postmaster, backends, background workers), per request wrk counted (the "
        f"floor's: per query). Outside CPU (the PostgreSQL server counted as measured): {disturbed} of "
        f"{len(measured)} runs had other processes using more than {bench.DISTURBED_CORES} cores.",
        "",
        f"| shape | req/s | floor q/s ({r['pool_connections']} connections) | req/s / floor "
        "| with entity ids req/s | ids cost | emulator CPU µs/req without / with ids "
        "| PostgreSQL CPU µs/req without / with ids | floor's PostgreSQL CPU µs/query "
        "| mean answer bytes without / with ids |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for key, shape in r["shapes"].items():
        lines.append(
            f"| {shape['label']} (`{shape['operation']}`) | {rps(f'{key}.emulator'):,.0f} "
            f"| {rps(f'{key}.floor'):,.0f} | {spread(q[f'{key}.vs_floor'], percent)} "
            f"| {rps(f'{key}.emulator_ids'):,.0f} | {spread(cost_of(q[f'{key}.ids']), percent)} "
            f"| {us(f'{key}.emulator.server_us')} / {us(f'{key}.emulator_ids.server_us')} "
            f"| {us(f'{key}.emulator.postgres_us')} / {us(f'{key}.emulator_ids.postgres_us')} "
            f"| {us(f'{key}.floor.postgres_us')} | {shape['bytes']:,} / {shape['bytes_with_ids']:,} |")
    lines += [
        "",
        "| target | measured (median of the per-round ratios) | req/s | verdict |",
        "|---|---|---|---|",
    ]
    for key, shape in r["shapes"].items():
        value = q[f"{key}.vs_floor"]["median"]
        lines.append(f"| {shape['label']} ≥ {FLOOR_TARGET:.0%} of its libpq floor ({r['pool_connections']} "
                     f"connections) | {value:.0%} | {rps(f'{key}.emulator'):,.0f} against "
                     f"{rps(f'{key}.floor'):,.0f} | {verdict(value >= FLOOR_TARGET)} |")
    for key, shape in r["shapes"].items():
        cost = cost_of(q[f"{key}.ids"])["median"]
        lines.append(f"| {shape['label']}: entity ids cost ≤ {bench_shapes.IDS_COST_TARGET:.0%} | {cost:.0%} "
                     f"| {rps(f'{key}.emulator'):,.0f} → {rps(f'{key}.emulator_ids'):,.0f} "
                     f"| {verdict(cost <= bench_shapes.IDS_COST_TARGET)} |")
    lines += [
        "",
        f"wrk errors (connect/read/write/non-2xx/timeout) across all runs: {errors:.0f}. The floor is the `shapes` "
        "connector's statement (`Engine.explain` compiles without entity ids), every parameter bound as text as the "
        "emulator binds it, every column of every row read.",
    ]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    bench_shapes.add_common_arguments(parser, "results-postgres")
    parser.add_argument("--pg-floor")
    parser.add_argument("--postgres", help="the seeded database's URL")

    def measure(args, work, results):
        results["pool_connections"] = POOL_CONNECTIONS
        results["machine"]["postgresql"] = psql(args.postgres, "SHOW server_version")
        results["postgresql_settings"] = {name: psql(args.postgres, f"SHOW {name}")
                                          for name in ("fsync", "synchronous_commit", "shared_buffers")}
        with open(os.path.join(psql(args.postgres, "SHOW data_directory"), "postmaster.pid")) as f:
            postmaster = int(f.readline())
        # What the PostgreSQL server does for the measured requests is part of the measurement, not outside load.
        bench.OWN_ROOTS.add(postmaster)
        run(args, work, results, postmaster)

    bench_shapes.drive(parser, "bench_shapes_postgres.py", ("dataconnect", "explain", "pg_floor", "postgres"),
                       "results-postgres", markdown, ratios, (DOCS_BEGIN, DOCS_END), measure)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    main()
