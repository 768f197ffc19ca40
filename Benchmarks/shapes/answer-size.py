#!/usr/bin/env python3
"""What a longer answer alone costs the HTTP layer: http-bench (the emulator's HTTP layer and connection dispatcher,
the ceiling C of bench_shapes.py) answering fixed replies of the sizes given, e.g. a shape's mean answer without
and with entity ids, in alternating rounds of `wrk -t1 -c32`; per size, the median req/s and the server's CPU per
request (utime + stime over the run, per request wrk counted).

Usage: Benchmarks/shapes/answer-size.py SIZE[,SIZE...] [ROUNDS]   (default 6 rounds of 4 s)
Needs the release http-bench (`swift build -c release --product http-bench`) and wrk.
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "emulator"))
import bench  # noqa: E402  (the emulator benchmark's driver: servers, wrk, CPU counters)

PATH = "/v1/projects/p/locations/us-central1/services/shapes/connectors/shapes:executeQuery"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sizes = [int(size) for size in sys.argv[1].split(",")]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    ceiling = os.path.join(ROOT, ".build", "release", "http-bench")
    if not os.access(ceiling, os.X_OK):
        sys.exit(f"answer-size.py: {ceiling} is missing: swift build -c release --product http-bench")
    args = argparse.Namespace(threads=1, connections=32, duration=4)
    work = tempfile.mkdtemp()
    bodies = os.path.join(work, "bodies")
    with open(bodies, "w") as file:
        file.write('{"name":"n","operationName":"q","variables":{}}\n')
    servers = {}
    try:
        for size in sizes:
            process, port, _ = bench.start_server([ceiling, "--port", "0", "--size", str(size)])
            servers[size] = (process, port)
        rps = {size: [] for size in sizes}
        cpu = {size: [] for size in sizes}
        for number in range(rounds):
            for size in sizes:
                process, port = servers[size]
                result = bench.wrk(port, PATH, bodies, args,
                                   cpu={"server": lambda pid=process.pid: bench.process_ticks(pid)})
                rps[size].append(result["rps"])
                cpu[size].append(result["cpu_s"]["server"] / result["requests"] * 1e6)
            bench.log(f"round {number + 1}/{rounds}: " + ", ".join(f"{s:,} B {rps[s][-1]:,.0f} req/s" for s in sizes))
        machine = bench.machine()
        print(f"Answer size alone: http-bench, wrk -t1 -c32, {rounds} alternating rounds of {args.duration} s; "
              f"{machine['cpu']}, {machine['cores']} cores, load average at the start "
              f"{' '.join(machine['loadavg_at_start'])}.")
        print()
        print("| answer bytes | req/s (median) | min–max | server CPU µs/req (median) |")
        print("|---:|---:|---:|---:|")
        for size in sizes:
            print(f"| {size:,} | {statistics.median(rps[size]):,.0f} | {min(rps[size]):,.0f}–{max(rps[size]):,.0f} "
                  f"| {statistics.median(cpu[size]):.2f} |")
    finally:
        for process, _ in servers.values():
            bench.stop(process)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
