#!/usr/bin/env python3
"""Where a get-by-key request's time goes on PostgreSQL (run.sh --postgres --split starts a throwaway cluster, seeds
it, then calls this), or an index-served list's (`--operation listByIndex`).

Three measurements of the shapes data's get-by-key (`getMovie`, 1,000 ids in turn; or the list, the genres in turn),
in interleaved rounds:
- the libpq floor (pg_floor_shapes.c: the emulator's exact statement, prepared once per connection) on 1, 2 and 4
  connections (the emulator's pool holds 4): queries per second and the PostgreSQL server's CPU per query, which
  depends on how often its backends sleep between queries;
- the emulator on PostgreSQL under wrk -t1 -c32: requests per second, the CPU per request of the emulator's process
  and of the PostgreSQL server's processes, the transactions PostgreSQL committed per request
  (`pg_stat_database.xact_commit`, which counts each statement run outside a transaction as one), and the
  emulator's context switches per request (its threads' `voluntary_ctxt_switches` and `nonvoluntary_ctxt_switches`);
- with perf installed, a `perf record` of the emulator's process during one more such run: the share of its CPU in the
  kernel, and the symbols that take the most.

Prints Markdown; every process it starts is stopped.

Usage: pg_split.py --dataconnect BIN --explain BIN --pg-floor BIN --postgres URL --backend DIR
       [--duration 5] [--rounds 3] [--operation getMovie|listByIndex]
"""
import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import bench_shapes  # noqa: E402
from bench_shapes import connector_name, explain_sets, query_path, write_plan  # noqa: E402

bench = bench_shapes.bench
import bench_postgres  # noqa: E402

FLOOR_CONNECTIONS = (1, 2, 4)


def psql(url, sql):
    return bench_postgres.psql(url, sql)


def context_switches(pid):
    """The voluntary and involuntary context switches of every thread of `pid` so far."""
    total = 0
    for thread in os.listdir(f"/proc/{pid}/task"):
        try:
            status = open(f"/proc/{pid}/task/{thread}/status").read()
        except OSError:
            continue
        total += sum(int(n) for n in re.findall(r"ctxt_switches:\s+(\d+)", status))
    return total


def committed(url):
    return int(psql(url, "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"))


def floor(args, plan, connections, postgres_cpu):
    with bench.ProcessCPU(postgres_cpu) as cpu:
        out = subprocess.run([args.pg_floor, args.postgres, plan, str(args.duration), str(connections)],
                             capture_output=True, text=True, check=True, timeout=args.duration + 120).stdout
    result = {k: float(v) for k, v in (pair.split("=") for pair in out.split())}
    return {"qps": result["per_second"], "postgres_us": cpu.seconds["postgres"] / result["queries"] * 1e6}


def emulator_run(args, port, bodies, emulator, postgres_cpu):
    counters = dict(bench_shapes.server_cpu(emulator), **postgres_cpu)
    switches, commits = context_switches(emulator.pid), committed(args.postgres)
    result = bench.wrk(port, query_path(False), bodies, args, warmup=False, cpu=counters)
    # Backends report their counts within a second of going idle; the first psql call's own transaction counts.
    time.sleep(1.5)
    commits = committed(args.postgres) - commits - 1
    switches = context_switches(emulator.pid) - switches
    n = result["requests"]
    return {"rps": result["rps"], "emulator_us": result["cpu_s"]["server"] / n * 1e6,
            "postgres_us": result["cpu_s"]["postgres"] / n * 1e6, "transactions": commits / n,
            "switches": switches / n, "errors": result["errors"]}


def perf_profile(args, port, bodies, emulator, work):
    """The emulator's CPU by where it ran (kernel or user) and its top symbols, from perf, during one wrk run."""
    data = os.path.join(work, "perf.data")
    recorder = subprocess.Popen(["perf", "record", "-q", "-F", "999", "-p", str(emulator.pid), "-o", data, "--",
                                 "sleep", str(args.duration)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    bench.wrk(port, query_path(False), bodies, args, warmup=False)
    recorder.wait(timeout=args.duration + 60)

    def report(sort):
        out = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", sort, "--stdio", "-g", "none",
                              "--percent-limit", "1.5"], capture_output=True, text=True, check=True).stdout
        return [line.strip() for line in out.splitlines() if line.strip() and not line.startswith("#")]

    return {"by_place": report("dso"), "by_symbol": report("dso,sym")}


def run(args, work, postmaster):
    postgres_cpu = {"postgres": lambda: bench.tree_ticks(postmaster)}
    if args.operation == "getMovie":
        name, values = "id", psql(args.postgres,
                                  "SELECT replace(id::text, '-', '') FROM movie ORDER BY id LIMIT 1000").split()
    else:
        name, values = "genre", psql(args.postgres, "SELECT DISTINCT genre FROM movie ORDER BY genre").split()
    bodies = bench.write_bodies(os.path.join(work, "bodies.txt"), [
        {"name": connector_name(False), "operationName": args.operation, "variables": {name: v}} for v in values])
    exact = explain_sets(args, args.operation, name, values, dialect="postgresql")
    plan = write_plan(os.path.join(work, "get.plan"), [([e["sql"]], [e["parameters"]]) for e in exact])
    emulator, port, _ = bench.start_server(
        [args.dataconnect, "emulator", "--backend", args.backend, "--port", "0", "--no-watch", "--postgres",
         args.postgres])
    rounds = {"emulator": [], **{f"floor{c}": [] for c in FLOOR_CONNECTIONS}}
    try:
        bench.wrk(port, query_path(False), bodies, args)
        for number in range(1, args.rounds + 1):
            bench.log(f"== round {number}/{args.rounds}")
            rounds["emulator"].append(emulator_run(args, port, bodies, emulator, postgres_cpu))
            for connections in FLOOR_CONNECTIONS:
                rounds[f"floor{connections}"].append(floor(args, plan, connections, postgres_cpu))
        profile = perf_profile(args, port, bodies, emulator, work) if shutil.which("perf") else None
    finally:
        emulator.terminate()
        emulator.wait(timeout=60)
    return rounds, profile


def median(runs, key):
    return statistics.median(run[key] for run in runs)


def markdown(args, rounds, profile):
    machine = bench.machine()
    lines = [
        f"Machine: {machine['cores']} cores ({machine['cpu']}), PostgreSQL "
        f"{psql(args.postgres, 'SHOW server_version')}; load average at start "
        f"{' '.join(machine['loadavg_at_start'])}. `{args.operation}`: {args.rounds} interleaved rounds of "
        f"{args.duration} s; medians.",
        "",
        "| measured | per second | emulator CPU µs/req | PostgreSQL CPU µs/req (query) | "
        "transactions/req | emulator context switches/req |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    e = rounds["emulator"]
    lines.append(f"| emulator, wrk -t1 -c32 | {median(e, 'rps'):,.0f} | {median(e, 'emulator_us'):.1f} | "
                 f"{median(e, 'postgres_us'):.1f} | {median(e, 'transactions'):.2f} | {median(e, 'switches'):.2f} |")
    for connections in FLOOR_CONNECTIONS:
        f = rounds[f"floor{connections}"]
        lines.append(f"| libpq floor, {connections} connection{'s' if connections > 1 else ''} | "
                     f"{median(f, 'qps'):,.0f} | | {median(f, 'postgres_us'):.1f} | | |")
    errors = sum(run["errors"] for run in e)
    lines += ["", f"wrk errors across the emulator's runs: {errors:.0f}."]
    if profile:
        lines += ["", "The emulator's CPU under perf, by where it ran (entries of 1.5% and more):", "", "```"]
        lines += profile["by_place"] + ["```", "", "By symbol:", "", "```"] + profile["by_symbol"] + ["```"]
    else:
        lines += ["", "perf is not installed: no profile."]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name in ("dataconnect", "explain", "pg-floor", "postgres", "backend"):
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--operation", choices=("getMovie", "listByIndex"), default="getMovie")
    args = parser.parse_args()
    args.threads, args.connections = 1, 32
    with open(os.path.join(psql(args.postgres, "SHOW data_directory"), "postmaster.pid")) as f:
        postmaster = int(f.readline())
    bench.OWN_ROOTS.add(postmaster)
    work = tempfile.mkdtemp(prefix="pg-split-")
    try:
        rounds, profile = run(args, work, postmaster)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(markdown(args, rounds, profile))


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    main()
