#!/usr/bin/env python3
"""Before and after: the rows of bench-shapes and bench-realtime that depend on the emulator's code, measured on
two builds in interleaved runs (compare.sh builds both, seeds the data, then calls this).

bench-shapes (the emulator's rows only, not the floors or the ceiling): both builds' `dataconnect emulator` are
started once, each on its own copy of the same seeded data (the shapes benchmark's data and backend), on two ports.
Every shape's answers, without and with entity ids, are checked once on both builds (the shapes benchmark's checks,
and the two builds' answers equal); then each row (shape, without or with entity ids) is measured with wrk and the
emulator benchmark's post.lua, BEFORE then AFTER, `--repeats` times (B, A, B, A …), in rounds that visit every row
once, so that load from elsewhere hits both builds alike.

bench-realtime: the four `realtime-bench` invocations of `make bench-realtime`, each build's binary run from its own
checkout (as `make bench-realtime` runs it), BEFORE then AFTER, `--repeats` times, in rounds; p50 / p99 / max latency
and the open time are read from each run's table.

Per row: the median before and after, (min–max) of the runs, the change, and the verdict: throughput more than
5% lower, or latency and open time more than 5% higher, is a REGRESSION. Prints a Markdown table; writes
.out/compare.md and .out/compare.json. Every process it starts is stopped, on Ctrl-C too.

The servers, the wrk runs, the outside-CPU accounting and the machine line are those of ../emulator/bench.py; the
shapes, their request bodies and their answer checks are those of ../shapes/bench_shapes.py (both imported).

Usage: compare.py --before-root DIR --after-root DIR --data DIR [--duration 5] [--connections 32] [--repeats 5]
                  [--parts shapes,realtime] [--realtime-subscribers 10000]
       compare.py --render .out/compare.json          (print the table of an earlier run)
"""
import argparse
import json
import os
import re
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
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "shapes"))
sys.dont_write_bytecode = True  # no __pycache__ in the other benchmarks' folders
import bench_shapes  # noqa: E402  (the shapes benchmark: shapes, bodies, answer checks; it imports bench.py)

bench = bench_shapes.bench
BUILDS = ("before", "after")
# A row this much worse after than before (throughput lower, latency higher) is a regression.
THRESHOLD = 0.05
# How many of each shape's variable values are asked of both builds and compared.
ANSWERS_COMPARED = 10
# A realtime-bench run that takes longer than this is stopped and the comparison fails.
REALTIME_TIMEOUT = 600


def realtime_invocations(subscribers):
    """The invocations of `make bench-realtime`, in its order; `subscribers` for the last two (10,000 there)."""
    many = f"{subscribers:,}"
    return [
        {"key": "ws1", "label": "2,000 subscribers, 1 per connection", "latency": "from the mutation's request",
         "args": ["--transport", "websocket", "--per-connection", "1"]},
        {"key": "ws50", "label": "2,000 subscribers, 50 per connection", "latency": "from the mutation's request",
         "args": ["--transport", "websocket", "--per-connection", "50"]},
        {"key": "g100", "label": f"{many} subscribers in 100 groups", "latency": "from the mutation's response",
         "args": ["--subscribers", str(subscribers), "--groups", "100"]},
        {"key": "g1", "label": f"{many} subscribers in 1 group", "latency": "from the mutation's response",
         "args": ["--subscribers", str(subscribers), "--groups", "1"]},
    ]


REALTIME_MEASURES = [("p50", "latency p50"), ("p99", "latency p99"), ("max", "latency max"),
                     ("open", "open + first event for all")]


def checkout(root):
    """The checkout's short commit, and whether it has uncommitted changes to tracked files."""
    commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True, check=True).stdout.strip() != ""
    return {"root": root, "commit": commit, "dirty": dirty}


def binaries(root):
    return {"dataconnect": os.path.join(root, ".build", "release", "dataconnect"),
            "realtime": os.path.join(root, "Packages", "DataConnectEmulator", ".build", "release", "realtime-bench")}


# MARK: - bench-shapes rows


def shape_rows():
    """Every emulator row of bench-shapes: each shape without, then with entity ids."""
    return [{"key": f"{shape['key']}{'.ids' if cached else ''}", "shape": shape, "cached": cached,
             "label": f"{shape['label']} (`{shape['operation']}`){', with entity ids' if cached else ''}"}
            for shape in bench_shapes.SHAPES for cached in (False, True)]


def compare_answers(rows, ports, values_of):
    """Each row's first answers on both builds: the shapes benchmark's checks on each, and equal across builds.

    Returns per row the answer's size and whether the two builds' bytes were identical too.
    """
    checked = {}
    for row in rows:
        shape, cached = row["shape"], row["cached"]
        name = shape["variable"]
        identical, size = True, None
        for value in values_of(name)[:ANSWERS_COMPARED]:
            body = {"name": bench_shapes.connector_name(cached), "operationName": shape["operation"],
                    "variables": {name: value}}
            raw, answers = {}, {}
            for build in BUILDS:
                status, raw[build] = bench.post(ports[build], bench_shapes.query_path(cached), body)
                assert status == 200, f"{row['label']}, {build}: HTTP {status}: {raw[build][:300]!r}"
                answer = answers[build] = json.loads(raw[build])
                assert not answer.get("errors"), f"{row['label']}, {build}: errors {answer['errors']}"
                shape["check"](answer["data"])
                assert bool(bench_shapes.entity_ids(answer)) == cached, \
                    f"{row['label']}, {build}: entity ids {'missing' if cached else 'present'}"
            assert answers["before"] == answers["after"], \
                f"{row['label']}: the builds answer {name}={value!r} differently:\n" \
                f"before {raw['before'][:400]!r}\nafter  {raw['after'][:400]!r}"
            identical = identical and raw["before"] == raw["after"]
            size = size or len(raw["before"])
        checked[row["key"]] = {"bytes": size, "identical_bytes": identical}
        bench.log(f"   {row['label']}: equal on both builds ({size:,} B"
                  f"{'' if identical else '; same JSON, different bytes'})")
    return checked


def run_shapes(args, work, results):
    values = {}
    with sqlite3.connect(f"file:{os.path.join(args.data, 'dataconnect.sqlite')}?mode=ro", uri=True) as db:
        values["id"] = [r[0] for r in db.execute("SELECT id FROM movie ORDER BY id LIMIT 1000")]
        values["genre"] = [r[0] for r in db.execute("SELECT DISTINCT genre FROM movie ORDER BY genre")]
        counts = db.execute("SELECT (SELECT count(*) FROM movie), (SELECT count(*) FROM actor), "
                            "(SELECT count(*) FROM movie_actor), (SELECT count(*) FROM user), "
                            "(SELECT count(*) FROM review)").fetchone()
    results["data"] = dict(zip(("movies", "actors", "links", "users", "reviews"), counts))

    bench.log("== bench-shapes: start both emulators, each on its own copy of the data")
    servers, ports = {}, {}
    for build in BUILDS:
        data_dir = os.path.join(work, f"data-{build}")
        shutil.copytree(args.data, data_dir)
        servers[build], ports[build], _ = bench.start_server(
            [binaries(args.roots[build])["dataconnect"], "emulator", "--backend", args.backend, "--port", "0",
             "--no-watch", "--data-dir", data_dir])

    rows = shape_rows()
    files = {}
    for row in rows:
        shape, cached = row["shape"], row["cached"]
        name = shape["variable"]
        bodies = [{"name": bench_shapes.connector_name(cached), "operationName": shape["operation"],
                   "variables": {name: v}} for v in values[name]]
        files[row["key"]] = bench.write_bodies(os.path.join(work, f"{row['key']}.txt"), bodies)
    bench.log("== bench-shapes: check every row's answers on both builds")
    answers = compare_answers(rows, ports, values.get)

    runs = {row["key"]: {build: [] for build in BUILDS} for row in rows}
    for number in range(1, args.repeats + 1):
        bench.log(f"== bench-shapes round {number}/{args.repeats}: every row, before then after")
        for row in rows:
            path = bench_shapes.query_path(row["cached"])
            for build in BUILDS:
                runs[row["key"]][build].append(bench.wrk(ports[build], path, files[row["key"]], args))
            before, after = (runs[row["key"]][b][-1]["rps"] for b in BUILDS)
            bench.log(f"   {row['label']}: {before:,.0f} / {after:,.0f} req/s ({after / before - 1:+.1%})")
    results["shapes"] = [{"key": row["key"], "label": row["label"], "operation": row["shape"]["operation"],
                          "entity_ids": row["cached"], **answers[row["key"]], "runs": runs[row["key"]]}
                         for row in rows]
    for build in BUILDS:
        bench.stop(servers[build])


# MARK: - bench-realtime rows


def parse_realtime(text):
    """p50 / p99 / max latency, open time and missing events (ms, ms, ms, ms, count) from realtime-bench's table."""
    cells = dict(re.findall(r"^\| (.+?) \| (.+) \|$", text, re.M))

    def milliseconds(cell):
        match = re.fullmatch(r"([0-9.]+) ms", cell.strip())
        if not match:
            raise RuntimeError(f"realtime-bench: cannot read {cell!r} as milliseconds")
        return float(match.group(1))

    out = {}
    if "latency p50" in cells:  # the 2,000-subscriber table: latency from the mutation's request
        for key, name in REALTIME_MEASURES[:3]:
            out[key] = milliseconds(cells[name])
    else:  # the --subscribers table: latency from the mutation's response
        triple = cells["latency after the mutation's response p50 / p99 / max"].split(" / ")
        out.update(zip(("p50", "p99", "max"), map(milliseconds, triple)))
    out["open"] = milliseconds(cells["open + first event for all"])
    out["missing"] = int(re.search(r"\((\d+)\)", cells["events measured (missing)"]).group(1))
    return out


def stop_with_children(process):
    """Stops a process and its children: the `--subscribers` runs start their client in a process group of its
    own, which stopping the bench's group does not reach."""
    def command_line(pid):
        try:
            return open(f"/proc/{pid}/cmdline", "rb").read()
        except OSError:
            return None

    children = {}
    for entry in os.listdir("/proc"):
        try:
            text = open(f"/proc/{entry}/stat").read() if entry.isdigit() else ""
        except OSError:
            continue
        if text and int(text[text.rindex(")") + 2:].split()[1]) == process.pid:
            children[int(entry)] = command_line(entry)
    bench.stop(process)
    for pid, line in children.items():
        if line and command_line(pid) == line:  # still that child, not a process that reused its id
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass


def run_realtime_once(root, invocation):
    """One realtime-bench run from the checkout `root` (its working directory, as `make bench-realtime`)."""
    argv = [binaries(root)["realtime"]] + invocation["args"]
    begin = time.perf_counter()
    with bench.OutsideCPU() as outside:
        process = subprocess.Popen(argv, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        bench.started.append(process)
        try:
            output, _ = process.communicate(timeout=REALTIME_TIMEOUT)
        finally:
            stop_with_children(process)
            bench.started.remove(process)
    text = output.decode(errors="replace")
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} (in {root}) exited {process.returncode}:\n{text[-2000:]}")
    result = parse_realtime(text)
    result["seconds"] = time.perf_counter() - begin
    result["outside_cores"] = outside.cores
    if result["missing"]:
        raise RuntimeError(f"{' '.join(argv)}: {result['missing']} events missing:\n{text[-2000:]}")
    return result


def run_realtime(args, results):
    invocations = realtime_invocations(args.realtime_subscribers)
    backends = [os.path.join(args.roots[b], "Backend", "movies") for b in BUILDS]
    same = subprocess.run(["diff", "-rq"] + backends, capture_output=True).returncode == 0
    results["realtime_same_backend"] = same
    if not same:
        bench.log("   note: Backend/movies differs between the checkouts; each build runs on its own")
    runs = {inv["key"]: {build: [] for build in BUILDS} for inv in invocations}
    for number in range(1, args.repeats + 1):
        bench.log(f"== bench-realtime round {number}/{args.repeats}: every invocation, before then after")
        for inv in invocations:
            for build in BUILDS:
                runs[inv["key"]][build].append(run_realtime_once(args.roots[build], inv))
            b, a = (runs[inv["key"]][build][-1] for build in BUILDS)
            bench.log(f"   {inv['label']}: p50 {b['p50']:.1f} / {a['p50']:.1f} ms, p99 {b['p99']:.1f} / "
                      f"{a['p99']:.1f} ms, open {b['open']:,.0f} / {a['open']:,.0f} ms "
                      f"({b['seconds']:.0f} s / {a['seconds']:.0f} s a run)")
    results["realtime"] = [{"key": inv["key"], "label": inv["label"], "latency": inv["latency"],
                            "command": "realtime-bench " + " ".join(inv["args"]), "runs": runs[inv["key"]]}
                           for inv in invocations]


# MARK: - The table


def summary(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def judge(before, after, higher_is_better):
    """The change of the medians and its verdict; `spread`, the noise floor: the larger of the two builds' runs'
    (max − min) / median."""
    change = after["median"] / before["median"] - 1 if before["median"] else 0.0
    worse = -change if higher_is_better else change
    spread = max((s["max"] - s["min"]) / s["median"] if s["median"] else 0.0 for s in (before, after))
    if worse > THRESHOLD:
        verdict = "**REGRESSION**" + (" (inside the spread)" if worse <= spread else "")
    elif -worse > THRESHOLD:
        verdict = "ok (better)"
    else:
        verdict = "ok"
    return {"change": change, "spread": spread, "verdict": verdict}


def figure(value, digits):
    return f"{value:,.{digits}f}"


def with_spread(s, digits):
    if s["min"] == s["max"]:
        return figure(s["median"], digits)
    return f"{figure(s['median'], digits)} ({figure(s['min'], digits)}–{figure(s['max'], digits)})"


def verdicts(r):
    """Every compared row: (part, label, measure, before summary, after summary, judgement, digits)."""
    out = []
    for row in r.get("shapes", []):
        before, after = (summary([x["rps"] for x in row["runs"][b]]) for b in BUILDS)
        out.append(("shapes", row["label"], "req/s", before, after, judge(before, after, True), 0))
    for inv in r.get("realtime", []):
        for key, name in REALTIME_MEASURES:
            before, after = (summary([x[key] for x in inv["runs"][b]]) for b in BUILDS)
            measure = "open + first event, ms" if key == "open" else f"latency {key}, ms"
            out.append(("realtime", inv["label"], measure, before, after, judge(before, after, False), 1))
    return out


def describe(build):
    return f"`{build['commit']}`{' with uncommitted changes' if build['dirty'] else ''} ({build['root']})"


def markdown(r):
    m = r["machine"]
    repeats = r["repeats"]
    lines = [
        f"Machine: {m['cores']} cores ({m['cpu']}), {m['memory_gib']} GiB, Debian {m['debian']}, {m['swift']}, "
        f"SQLite {m['sqlite']}, {m['wrk']}; load average at start {' '.join(m['loadavg_at_start'])}.",
        f"Date: {r['date']}. Command: `{r['command']}`. Before: {describe(r['before'])}; after: "
        f"{describe(r['after'])}. Release builds; every row ran before then after, {repeats} times each, in "
        f"interleaved rounds (B, A, B, A …); figures are medians (min–max) of the runs; a row more than "
        f"{THRESHOLD:.0%} worse after (throughput lower, latency higher) is a **REGRESSION**. The noise floor: "
        "\"spread\" is the larger of the two builds' (max − min) / median of the runs; a regression no larger than "
        "it is marked so.",
    ]
    rows = verdicts(r)
    regressions = sum(1 for row in rows if "REGRESSION" in row[5]["verdict"])
    if "shapes" in r:
        runs = [x for row in r["shapes"] for b in BUILDS for x in row["runs"][b]]
        disturbed = sum(1 for x in runs if x.get("outside_cores", 0) > bench.DISTURBED_CORES)
        errors = sum(x["errors"] for x in runs)
        d = r["data"]
        lines += [
            "",
            f"bench-shapes, the emulator's rows: wrk `{r['wrk']}` on 127.0.0.1 after a 1 s warm-up (the emulator "
            f"benchmark's `post.lua`), both emulators started once on copies of the same data ({d['movies']:,} "
            f"movies, {d['actors']:,} actors, {d['links']:,} cast links, {d['users']:,} users, {d['reviews']:,} "
            f"reviews); answers checked equal on both builds first. Outside CPU: {disturbed} of {len(runs)} runs had "
            f"other processes using more than {bench.DISTURBED_CORES} cores. wrk errors: {errors:.0f}.",
            "",
            "| row | before req/s | after req/s | change | spread | verdict |",
            "|---|---|---|---|---|---|",
        ]
        for part, label, _, before, after, judged, digits in rows:
            if part == "shapes":
                lines.append(f"| {label} | {with_spread(before, digits)} | {with_spread(after, digits)} "
                             f"| {judged['change']:+.1%} | {judged['spread']:.0%} | {judged['verdict']} |")
    if "realtime" in r:
        runs = [x for inv in r["realtime"] for b in BUILDS for x in inv["runs"][b]]
        disturbed = sum(1 for x in runs if x.get("outside_cores", 0) > bench.DISTURBED_CORES)
        longest = max(x["seconds"] for x in runs)
        lines += [
            "",
            "bench-realtime: the four invocations of `make bench-realtime`, each build's `realtime-bench` run from its "
            "own checkout; latency for 2,000 subscribers from the mutation's request, for the `--subscribers` runs "
            f"from the mutation's response. Longest run {longest:.0f} s. Outside CPU: {disturbed} of {len(runs)} "
            f"runs had other processes using more than {bench.DISTURBED_CORES} cores.",
            "",
            "| invocation | measure | before | after | change | spread | verdict |",
            "|---|---|---|---|---|---|---|",
        ]
        for part, label, measure, before, after, judged, digits in rows:
            if part == "realtime":
                lines.append(f"| {label} | {measure} | {with_spread(before, digits)} | {with_spread(after, digits)} "
                             f"| {judged['change']:+.1%} | {judged['spread']:.0%} | {judged['verdict']} |")
        if not r.get("realtime_same_backend", True):
            lines.append("\nBackend/movies differs between the two checkouts: each build ran on its own.")
    lines += ["", f"Regressions: {regressions} of {len(rows)} rows."]
    return "\n".join(lines)


# MARK: - The run


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--render", help="print the table of an earlier compare.json and exit")
    parser.add_argument("--before-root")
    parser.add_argument("--after-root")
    parser.add_argument("--data", help="the seeded data directory (dataconnect.sqlite) of the shapes benchmark")
    parser.add_argument("--backend", default=os.path.join(ROOT, "Benchmarks", "shapes", "backend"))
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=5, help="runs of each row on each build")
    parser.add_argument("--parts", default="shapes,realtime", help="shapes, realtime, or both")
    parser.add_argument("--realtime-subscribers", type=int, default=10_000,
                        help="subscribers of the two --subscribers invocations (bench-realtime: 10,000)")
    args = parser.parse_args()
    if args.render:
        print(markdown(json.load(open(args.render))))
        return
    parts = set(args.parts.split(","))
    if not parts or parts - {"shapes", "realtime"}:
        parser.error("--parts takes shapes, realtime or shapes,realtime")
    if not args.before_root or not args.after_root or ("shapes" in parts and not args.data):
        parser.error("--before-root, --after-root and (for shapes) --data are needed")
    args.roots = {"before": os.path.abspath(args.before_root), "after": os.path.abspath(args.after_root)}
    needed = {"dataconnect": "shapes", "realtime": "realtime"}  # binary: the part that runs it
    for build, root in args.roots.items():
        for kind, path in binaries(root).items():
            if needed[kind] in parts and not os.access(path, os.X_OK):
                sys.exit(f"compare.py: {path} ({build}) is missing: build it (compare.sh does)")

    work = tempfile.mkdtemp(prefix="dc-compare-")
    command = os.environ.get("BENCH_COMMAND") or " ".join(sys.argv)
    results = {"machine": bench.machine(), "date": time.strftime("%Y-%m-%d"), "command": command,
               "wrk": f"-t{args.threads} -c{args.connections} -d{args.duration}s", "duration": args.duration,
               "repeats": args.repeats, "threshold": THRESHOLD,
               **{build: checkout(root) for build, root in args.roots.items()}}
    begin = time.perf_counter()
    try:
        if "shapes" in parts:
            run_shapes(args, work, results)
        if "realtime" in parts:
            run_realtime(args, results)
    finally:
        ignore_signals()  # a second Ctrl-C or TERM must not cut the clean-up short
        for process in list(bench.started):
            bench.stop(process)
        shutil.rmtree(work, ignore_errors=True)
    results["seconds"] = time.perf_counter() - begin
    results["verdicts"] = [{"part": part, "row": label, "measure": measure, "before": before, "after": after,
                            **judged} for part, label, measure, before, after, judged, _ in verdicts(results)]
    out = os.path.join(HERE, ".out")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "compare.json"), "w") as f:
        json.dump(results, f, indent=2)
    table = markdown(results)
    with open(os.path.join(out, "compare.md"), "w") as f:
        f.write(table + "\n")
    print(table)
    bench.log(f"== done in {results['seconds'] / 60:.1f} min; .out/compare.md and .out/compare.json written")


def ignore_signals():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def interrupted(number, _frame):
    """The first Ctrl-C or TERM ends the run through the clean-up; any later one is ignored."""
    ignore_signals()
    sys.exit(130 if number == signal.SIGINT else 143)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, interrupted)
    signal.signal(signal.SIGTERM, interrupted)
    main()
