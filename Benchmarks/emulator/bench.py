#!/usr/bin/env python3
"""The emulator benchmark's driver (run.sh builds everything, then calls this).

Measures on loopback, with wrk, in interleaved rounds (so that load from elsewhere hits every target alike):
  get-by-key and the 20-row list on the emulator, the HTTP ceiling (HTTPBench, a fixed reply of the size of
  the get-by-key answer), the database floor (the list's own SQL stepped in C on one thread), single-row
  inserts with --data-dir, and a Python ariadne server answering the same list from the same file.
Also the emulator's time to ready and its resident memory. Prints a Markdown table and the ratios against
the targets; writes .out/results.json. Every process it starts is stopped in `finally`.
"""
import argparse
import json
import os
import platform
import re
import select
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
SERVICE = "bench"
CONNECTOR = "bench"
NAME = f"projects/p/locations/l/services/{SERVICE}/connectors/{CONNECTOR}"
QUERY_PATH = f"/v1/{NAME}:executeQuery"
MUTATION_PATH = f"/v1/{NAME}:executeMutation"
GENRES = ["Action", "Animation", "Comedy", "Crime", "Documentary",
          "Drama", "Fantasy", "Horror", "Romance", "Sci-Fi"]
LIST_QUERY = """query listMoviesWithActors($genre: String!) {
  movies(where: {genre: {eq: $genre}}, orderBy: {releaseYear: DESC}, limit: 20) {
    id title releaseYear actors_via_MovieActor { id name }
  }
}"""

started = []  # every Popen this script started, stopped in finally


def log(message):
    print(message, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(argv, env=None, ready_timeout=30.0):
    """Starts a server that prints `ready http://127.0.0.1:PORT`; returns (process, port, seconds to ready)."""
    begin = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                               start_new_session=True)
    started.append(process)
    deadline = begin + ready_timeout
    buffer = b""
    while time.perf_counter() < deadline:
        readable, _, _ = select.select([process.stdout], [], [], 0.05)
        if readable:
            chunk = os.read(process.stdout.fileno(), 4096)
            if not chunk:
                break
            buffer += chunk
            match = re.search(rb"ready http://127\.0\.0\.1:(\d+)", buffer)
            if match:
                return process, int(match.group(1)), time.perf_counter() - begin
        elif process.poll() is not None:
            break
    stop(process)
    raise RuntimeError(f"{argv[0]} did not print ready (output: {buffer[:300]!r})")


def stop(process, timeout=10.0):
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
    if process.stdout:
        process.stdout.close()


class MemorySampler:
    """Samples VmRSS of a process every 100 ms while it lives; reads VmHWM at the end."""

    def __init__(self, pid):
        self.pid = pid
        self.peak_rss_kb = 0
        self.hwm_kb = 0
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def read(self):
        values = {}
        try:
            with open(f"/proc/{self.pid}/status") as f:
                for line in f:
                    if line.startswith(("VmRSS:", "VmHWM:")):
                        key, value = line.split(":")
                        values[key] = int(value.split()[0])
        except OSError:
            pass
        return values

    def run(self):
        while self.running:
            values = self.read()
            if not values:
                return
            self.peak_rss_kb = max(self.peak_rss_kb, values.get("VmRSS", 0))
            self.hwm_kb = max(self.hwm_kb, values.get("VmHWM", 0))
            time.sleep(0.1)

    def summary(self):
        return {"peak_rss_kb": self.peak_rss_kb, "hwm_kb": self.hwm_kb}

    def finish(self):
        values = self.read()
        self.hwm_kb = max(self.hwm_kb, values.get("VmHWM", 0))
        self.peak_rss_kb = max(self.peak_rss_kb, values.get("VmRSS", 0))
        self.running = False
        self.thread.join(1)
        return self


def post(port, path, body):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read()


def write_bodies(path, bodies):
    with open(path, "w") as f:
        for body in bodies:
            f.write(json.dumps(body, separators=(",", ":")) + "\n")
    return path


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# A measurement during which other processes used more CPU than this (in cores) is marked as disturbed and
# left out of the verdicts: on a 2-core machine every other process takes CPU from the one measured.
DISTURBED_CORES = 0.2


def busy_ticks():
    """CPU time used by everything on the machine (user, nice, system, irq, softirq, steal), in ticks."""
    fields = [int(x) for x in open("/proc/stat").readline().split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    return user + nice + system + irq + softirq + steal


def process_ticks(pid):
    """CPU time of one process, every thread of it (utime + stime of /proc/PID/stat), in ticks; 0 once it is
    gone."""
    try:
        text = open(f"/proc/{pid}/stat").read()
    except OSError:
        return 0
    fields = text[text.rindex(")") + 2:].split()  # fields from 3 (state) on
    return int(fields[11]) + int(fields[12])


def tree_ticks(*roots):
    """CPU time of the processes `roots` and every process under them, live and reaped (utime, stime, cutime,
    cstime), in ticks: e.g. a PostgreSQL server's postmaster and its backends."""
    parents, ticks = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = open(f"/proc/{entry}/stat").read()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()  # fields from 3 (state) on
        parents[int(entry)] = int(fields[1])
        ticks[int(entry)] = sum(int(x) for x in fields[11:15])
    total = 0
    for pid, value in ticks.items():
        ancestor = pid
        while ancestor > 1:
            if ancestor in roots:
                total += value
                break
            ancestor = parents.get(ancestor, 0)
    return total


# Processes whose CPU counts as this script's own beside its children, e.g. a PostgreSQL server started by pg_ctl
# (not under this script): what it does for the measured requests is part of the measurement, not outside load.
OWN_ROOTS = set()


def own_ticks():
    """CPU time of this script, every process under it (live, and reaped through cutime/cstime) and OWN_ROOTS."""
    return tree_ticks(os.getpid(), *OWN_ROOTS)


class ProcessCPU:
    """The CPU time chosen processes used while the block ran: `counters` maps a name to a function returning
    ticks (`process_ticks`, `tree_ticks`); `seconds` maps the name to CPU seconds afterwards."""

    def __init__(self, counters):
        self.counters = counters or {}

    def __enter__(self):
        self.start = {name: count() for name, count in self.counters.items()}
        return self

    def __exit__(self, *_):
        self.seconds = {name: (count() - self.start[name]) / CLOCK_TICKS for name, count in self.counters.items()}


class OutsideCPU:
    """Measures how many cores other processes used while the block ran."""

    def __enter__(self):
        self.start = (time.perf_counter(), busy_ticks(), own_ticks())
        return self

    def __exit__(self, *_):
        elapsed = time.perf_counter() - self.start[0]
        outside = (busy_ticks() - self.start[1]) - (own_ticks() - self.start[2])
        self.cores = max(0.0, outside / CLOCK_TICKS / elapsed)


def wrk(port, path, bodies_file, args, warmup=True, cpu=None):
    """Runs wrk (after a 1 s warm-up); returns the parsed RESULT line with req/s. With `cpu` (a ProcessCPU
    counters mapping), also `cpu_s`: the CPU seconds each counted process used during the measured run."""
    env = dict(os.environ, BENCH_BODIES=bodies_file, BENCH_PATH=path)
    url = f"http://127.0.0.1:{port}{path}"
    base = ["wrk", f"-t{args.threads}", f"-c{args.connections}", "--timeout", "5s", "-s",
            os.path.join(HERE, "post.lua")]
    if warmup:
        subprocess.run(base + ["-d1s", url], env=env, capture_output=True, timeout=30, check=True)
    with OutsideCPU() as outside, ProcessCPU(cpu) as server_cpu:
        out = subprocess.run(base + [f"-d{args.duration}s", url], env=env, capture_output=True, text=True,
                             timeout=args.duration + 30, check=True).stdout
    match = re.search(r"^RESULT (.*)$", out, re.M)
    if not match:
        raise RuntimeError(f"wrk printed no RESULT line:\n{out}")
    result = {k: float(v) for k, v in (pair.split("=") for pair in match.group(1).split())}
    result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
    result["errors"] = sum(result[k] for k in ("connect", "read", "write", "status", "timeout"))
    result["outside_cores"] = outside.cores
    if cpu:
        result["cpu_s"] = server_cpu.seconds
    return result


def machine():
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    mem_kb = next(int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal"))
    debian = open("/etc/debian_version").read().strip() if os.path.exists("/etc/debian_version") else "?"
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    wrk_version = subprocess.run(["wrk", "-v"], capture_output=True, text=True).stdout.split("[")[0].strip()
    return {
        "cpu": cpu, "cores": os.cpu_count(), "memory_gib": round(mem_kb / 1024 / 1024),
        "debian": debian, "kernel": platform.release(), "swift": swift[0] if swift else "?",
        "sqlite": sqlite3.sqlite_version, "python": platform.python_version(), "wrk": wrk_version,
        "loadavg_at_start": open("/proc/loadavg").read().split()[:3],
    }


def check_list(data, source):
    movies = json.loads(data)["data"]["movies"]
    assert len(movies) == 20, f"{source}: expected 20 movies, got {len(movies)}"
    assert all(m["actors_via_MovieActor"] for m in movies), f"{source}: a movie without actors"
    return movies


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--render", help="print the table of an earlier results.json and exit")
    parser.add_argument("--dataconnect")
    parser.add_argument("--ceiling")
    parser.add_argument("--explain")
    parser.add_argument("--floor")
    parser.add_argument("--python", help="the venv's python (with ariadne and uvicorn)")
    parser.add_argument("--data", help="the cached data directory (dataconnect.sqlite)")
    parser.add_argument("--backend", default=os.path.join(HERE, "backend"))
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--ready-runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.render:
        print(markdown(json.load(open(args.render))))
        return
    missing = [n for n in ("dataconnect", "ceiling", "explain", "floor", "python", "data") if not getattr(args, n)]
    if missing:
        parser.error("missing " + ", ".join("--" + n for n in missing))

    work = tempfile.mkdtemp(prefix="dc-bench-")
    results = {"machine": machine(), "wrk": f"-t{args.threads} -c{args.connections} -d{args.duration}s",
               "date": time.strftime("%Y-%m-%d"), "command": " ".join(sys.argv)}
    try:
        run(args, work, results)
    finally:
        for process in started:
            stop(process)
        shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(HERE, ".out"), exist_ok=True)
    with open(os.path.join(HERE, ".out", "results.json"), "w") as f:
        json.dump(results, f, indent=2)
    table = markdown(results)
    with open(os.path.join(HERE, ".out", "results.md"), "w") as f:
        f.write(table + "\n")
    print(table)


def start_python_server(args, database):
    port = free_port()
    env = dict(os.environ, BENCH_DB=database)
    process = subprocess.Popen([args.python, os.path.join(HERE, "python_server.py"), "--port", str(port),
                                "--workers", "2"],
                               cwd=HERE, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    started.append(process)
    return process, port


def wait_for_python(process, port, body):
    deadline = time.time() + 30
    while True:
        try:
            return post(port, "/", body)
        except OSError:
            if time.time() > deadline or process.poll() is not None:
                raise RuntimeError("the Python server did not start")
            time.sleep(0.2)


def run(args, work, results):
    data_dir = os.path.join(work, "data")
    shutil.copytree(args.data, data_dir)
    database = os.path.join(data_dir, "dataconnect.sqlite")
    emulator = [args.dataconnect, "emulator", "--backend", args.backend, "--port", "0"]
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        ids = [r[0] for r in db.execute("SELECT id FROM movie ORDER BY random() LIMIT 1000")]
        counts = db.execute("SELECT (SELECT count(*) FROM movie), (SELECT count(*) FROM actor),"
                            " (SELECT count(*) FROM movie_actor)").fetchone()
    results["data"] = {"movies": counts[0], "actors": counts[1], "links": counts[2]}
    schema_dir = os.path.join(args.backend, "schema")
    results["indexes"] = [line.strip().rstrip("{").strip() for name in sorted(os.listdir(schema_dir))
                          for line in open(os.path.join(schema_dir, name)) if "@index" in line and not line.lstrip().startswith("#")]

    # Time to ready: a fresh process until it prints `ready`, in memory and on the 10,000-movie file.
    log("== ready time")
    ready = {"memory": [], "data_dir": []}
    for _ in range(args.ready_runs):
        for kind, extra in (("memory", []), ("data_dir", ["--data-dir", data_dir])):
            process, _, seconds = start_server(emulator + extra)
            stop(process)
            ready[kind].append(seconds * 1000)
    results["ready_ms"] = {k: {"median": statistics.median(v), "max": max(v), "runs": len(v)}
                           for k, v in ready.items()}

    # Every server, started once and idle while another is measured; the rounds interleave the targets so
    # that load from elsewhere on the machine hits them alike.
    log("== start servers and check their answers")
    reads, reads_port, _ = start_server(emulator + ["--data-dir", data_dir])
    reads_memory = MemorySampler(reads.pid)
    insert_dir = os.path.join(work, "inserts")
    writes, writes_port, _ = start_server(emulator + ["--data-dir", insert_dir])
    writes_memory = MemorySampler(writes.pid)
    python, python_port = start_python_server(args, database)

    get_bodies = [{"name": NAME, "operationName": "getMovieByKey", "variables": {"id": i}} for i in ids]
    list_bodies = [{"name": NAME, "operationName": "listMoviesWithActors", "variables": {"genre": g}}
                   for g in GENRES]
    insert_bodies = [{"name": NAME, "operationName": "insertMovie",
                      "variables": {"title": f"Inserted {i}", "releaseYear": 1950 + i % 75,
                                    "genre": GENRES[i % 10], "rating": 1 + i % 5}} for i in range(1000)]
    python_bodies = [{"query": LIST_QUERY, "variables": {"genre": g}} for g in GENRES]

    status, answer = post(reads_port, QUERY_PATH, get_bodies[0])
    assert status == 200 and json.loads(answer)["data"]["movie"]["id"] == ids[0], answer[:300]
    reply_size = len(answer)
    status, emulator_list = post(reads_port, QUERY_PATH, list_bodies[5])
    assert status == 200, emulator_list[:300]
    emulator_movies = check_list(emulator_list, "emulator")
    status, body = post(writes_port, MUTATION_PATH, insert_bodies[0])
    assert status == 200 and not json.loads(body).get("errors"), body[:300]
    status, python_list = wait_for_python(python, python_port, python_bodies[5])
    python_movies = check_list(python_list, "python")
    by_id = {m["id"]: m for m in python_movies}
    shared = [m for m in emulator_movies if m["id"] in by_id]
    assert len(shared) >= 10 and all(m == by_id[m["id"]] for m in shared), "emulator and Python answers differ"

    # The HTTP ceiling: the same HTTP layer answering a fixed body of the get-by-key reply's size.
    ceiling, ceiling_port, _ = start_server([args.ceiling, "--port", "0", "--size", str(reply_size)])
    status, body = post(ceiling_port, QUERY_PATH, get_bodies[0])
    assert status == 200 and len(body) == reply_size, (status, len(body), reply_size)

    # The database floor: the exact statement the emulator runs for the list (Engine.explain).
    statement = subprocess.run([args.explain, args.backend, CONNECTOR, "listMoviesWithActors",
                                json.dumps({"genre": "Drama"})], capture_output=True, text=True, check=True).stdout
    with open(f"{work}/list.sql", "w") as f:
        f.write(statement)
    results["sql"] = statement.splitlines()[0]
    results["sql_parameters"] = statement.splitlines()[1:]

    files = {
        "get": write_bodies(f"{work}/get.txt", get_bodies),
        "list": write_bodies(f"{work}/list.txt", list_bodies),
        "insert": write_bodies(f"{work}/insert.txt", insert_bodies),
        "python": write_bodies(f"{work}/python.txt", python_bodies),
    }
    rounds = {k: [] for k in ("ceiling", "get_by_key", "list", "floor", "python", "insert")}
    for number in range(1, args.rounds + 1):
        log(f"== round {number}/{args.rounds}: ceiling, get-by-key, list, floor, python, inserts")
        rounds["ceiling"].append(wrk(ceiling_port, QUERY_PATH, files["get"], args))
        rounds["get_by_key"].append(wrk(reads_port, QUERY_PATH, files["get"], args))
        rounds["list"].append(wrk(reads_port, QUERY_PATH, files["list"], args))
        with OutsideCPU() as outside:
            out = subprocess.run([args.floor, database, f"{work}/list.sql", str(args.duration)],
                                 capture_output=True, text=True, check=True, timeout=args.duration + 30).stdout
        floor = {k: float(v) for k, v in (pair.split("=") for pair in out.split())}
        floor["rps"] = floor["per_second"]
        floor["outside_cores"] = outside.cores
        rounds["floor"].append(floor)
        rounds["python"].append(wrk(python_port, "/", files["python"], args))
        rounds["insert"].append(wrk(writes_port, MUTATION_PATH, files["insert"], args))
        for key in rounds:
            rounds[key][-1]["loadavg"] = float(open("/proc/loadavg").read().split()[0])
        log("   outside CPU (cores): " + ", ".join(f"{k} {v[-1]['outside_cores']:.2f}" for k, v in rounds.items()))
    results["rounds"] = rounds
    results["reply_bytes"] = {"get_by_key": reply_size, "list": len(emulator_list), "python": len(python_list),
                              "floor": rounds["floor"][0]["bytes"]}
    results["memory"] = {"reads": reads_memory.finish().summary(), "inserts": writes_memory.finish().summary()}
    for process in (reads, writes, python, ceiling):
        stop(process)
    with sqlite3.connect(os.path.join(insert_dir, "dataconnect.sqlite")) as db:
        rows = db.execute("SELECT count(*) FROM movie").fetchone()[0]
    inserted = sum(r["requests"] for r in rounds["insert"])
    results["insert_rows"] = {"rows": rows, "requests_counted_by_wrk": inserted}
    assert rows >= inserted, (rows, inserted)


def median_of(rounds, key="rps"):
    return statistics.median(r[key] for r in rounds)


def markdown(r):
    rounds = r["rounds"]
    rps = {k: median_of(v) for k, v in rounds.items()}

    def clean(key):
        return [x for x in rounds[key] if x.get("outside_cores", 0) <= DISTURBED_CORES]

    def spread(key):
        values = [x["rps"] for x in rounds[key]]
        return f"{rps[key]:,.0f} ({min(values):,.0f}–{max(values):,.0f})"

    def outside(key):
        values = [x.get("outside_cores", float("nan")) for x in rounds[key]]
        return " / ".join(f"{v:.2f}" for v in values)

    def lat(key):
        return f"{median_of(rounds[key], 'p50_us') / 1000:.2f} / {median_of(rounds[key], 'p99_us') / 1000:.2f} ms"

    def ratio(a, b):
        """The ratio of the best undisturbed runs (outside load only ever slows a run down), or None."""
        if not clean(a) or not clean(b):
            return None
        return max(x["rps"] for x in clean(a)) / max(y["rps"] for y in clean(b))

    def per_round(a, b):
        values = [x["rps"] / y["rps"] for x, y in zip(rounds[a], rounds[b])]
        return statistics.median(values), min(values), max(values)

    def verdict(value, ok):
        if value is None:
            return "inconclusive: every run was disturbed"
        return "met" if ok(value) else "**missed**"

    def show(value, fmt):
        return "n/a" if value is None else fmt(value)

    m, size = r["machine"], r["reply_bytes"]
    get_ratio, floor_ratio, python_ratio = ratio("get_by_key", "ceiling"), ratio("list", "floor"), ratio("list", "python")
    get_rounds, floor_rounds, python_rounds = per_round("get_by_key", "ceiling"), per_round("list", "floor"), per_round("list", "python")
    inserts = [x["rps"] for x in clean("insert")]
    insert_value = statistics.median(inserts) if inserts else None
    ready = r["ready_ms"]
    ready_max = max(ready["memory"]["max"], ready["data_dir"]["max"])
    peak_mb = max(v["hwm_kb"] for v in r["memory"].values()) / 1024
    errors = sum(x["errors"] for k, v in rounds.items() if k != "floor" for x in v)
    n = len(rounds["list"])
    disturbed = sum(1 for v in rounds.values() for x in v if x.get("outside_cores", 0) > DISTURBED_CORES)
    total = sum(len(v) for v in rounds.values())
    lines = [
        f"Machine: {m['cores']} cores ({m['cpu']}), {m['memory_gib']} GiB, Debian {m['debian']}, {m['swift']}, "
        f"SQLite {m['sqlite']}, Python {m['python']}, {m['wrk']}.",
        f"Date: {r['date']}. wrk `{r['wrk']}` on 127.0.0.1 after a 1 s warm-up, {n} interleaved rounds. Data: "
        f"{r['data']['movies']:,} movies, {r['data']['actors']:,} actors, {r['data']['links']:,} cast links; index: "
        + ", ".join(f"`{i}`" for i in r["indexes"]) + ".",
        f"Outside CPU: the cores other processes used during each run; {disturbed} of {total} runs had more than "
        f"{DISTURBED_CORES} and are left out of the verdicts.",
        "",
        "| benchmark | result: median (min–max) of the rounds | p50 / p99 latency (median round) | reply | outside CPU per round |",
        "|---|---|---|---|---|",
        f"| 1. HTTP ceiling: HTTPBench, fixed reply, same HTTP layer | {spread('ceiling')} req/s | {lat('ceiling')} | {size['get_by_key']} B | {outside('ceiling')} |",
        f"| 2. get-by-key (`getMovieByKey`) | {spread('get_by_key')} req/s | {lat('get_by_key')} | {size['get_by_key']} B | {outside('get_by_key')} |",
        f"| 3. 20-row list + many-to-many (`listMoviesWithActors`) | {spread('list')} req/s | {lat('list')} | {size['list']:,} B | {outside('list')} |",
        f"| 4. database floor: the list's SQL stepped in C, one thread | {spread('floor')} runs/s ({median_of(rounds['floor'], 'mean_us'):.0f} µs each) | | {size['floor']:,.0f} B | {outside('floor')} |",
        f"| 5. single-row inserts (`insertMovie`, `--data-dir`) | {spread('insert')} inserts/s | {lat('insert')} | | {outside('insert')} |",
        f"| 6. Python: ariadne, 2 uvicorn workers, batched actors, same list | {spread('python')} req/s | {lat('python')} | {size['python']:,} B | {outside('python')} |",
        f"| ready after start, in memory (median / max of {ready['memory']['runs']}) | {ready['memory']['median']:.0f} / {ready['memory']['max']:.0f} ms | | | |",
        f"| ready after start, on the 10,000-movie data dir (median / max of {ready['data_dir']['runs']}) | {ready['data_dir']['median']:.0f} / {ready['data_dir']['max']:.0f} ms | | | |",
        f"| peak resident memory (VmHWM), reads / inserts emulator | {r['memory']['reads']['hwm_kb'] / 1024:.1f} / {r['memory']['inserts']['hwm_kb'] / 1024:.1f} MB | | | |",
        "",
        "| target | measured: best undisturbed runs | per-round ratios, median (min–max), all runs | verdict |",
        "|---|---|---|---|",
        f"| get-by-key ≥ 50% of the ceiling | {show(get_ratio, lambda v: f'{v:.0%}')} | {get_rounds[0]:.0%} ({get_rounds[1]:.0%}–{get_rounds[2]:.0%}) | {verdict(get_ratio, lambda v: v >= 0.5)} |",
        f"| 20-row list ≥ 60% of the database floor | {show(floor_ratio, lambda v: f'{v:.0%}')} | {floor_rounds[0]:.0%} ({floor_rounds[1]:.0%}–{floor_rounds[2]:.0%}) | {verdict(floor_ratio, lambda v: v >= 0.6)} |",
        f"| 20-row list ≥ 15x the Python server | {show(python_ratio, lambda v: f'{v:.1f}x')} | {python_rounds[0]:.1f}x ({python_rounds[1]:.1f}–{python_rounds[2]:.1f}x) | {verdict(python_ratio, lambda v: v >= 15)} |",
        f"| inserts ≥ 5,000/s | {show(insert_value, lambda v: f'{v:,.0f}/s (median)')} | | {verdict(insert_value, lambda v: v >= 5000)} |",
        f"| ready within 300 ms of start | {ready_max:.0f} ms (worst of {2 * ready['memory']['runs']} starts) | | {verdict(ready_max, lambda v: v <= 300)} |",
        f"| resident memory under 100 MB | {peak_mb:.1f} MB (peak VmHWM) | | {verdict(peak_mb, lambda v: v < 100)} |",
        "",
        f"wrk errors (connect/read/write/non-2xx/timeout) across all runs: {errors:.0f}. Movies in the insert database "
        f"afterwards: {r['insert_rows']['rows']:,}, at least the {r['insert_rows']['requests_counted_by_wrk']:,.0f} "
        "inserts wrk counted (the rest are warm-ups).",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    main()
