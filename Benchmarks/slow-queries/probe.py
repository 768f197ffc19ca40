#!/usr/bin/env python3
"""The slow-query probe: how well the emulator's time limit and slow lane hold against requests that are expensive
per row, on a running `dataconnect emulator` (release build) started by this script.

Two parts, each printed as a Markdown table:
1. Time limit: four shapes (900 `contains` terms over megabyte titles; `_or` of regular expressions over the same;
   vector similarity over 768-dimensional embeddings; full-text ranking over long descriptions), each run once with
   no practical limit (its natural time) and once under `--request-timeout` of a quarter of that (at most LIMIT):
   the answer's status and time, and its ratio to the limit (the answer time includes HTTP and process overhead).
2. Starvation: SLOW copies of the first shape run at once (limit 30 s) while one client sends cheap requests (a
   list of one row) back to back; the cheap requests' latency (p50, p99, max) and errors, beside the same client
   alone, and what the slow requests answered.
Usage: probe.py DATACONNECT_BINARY [--limit 1] [--slow 3] [--seconds 8]
Deterministic data; nothing outside a temporary folder is written."""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROWS_BIG = 6  # titles of TITLE_BYTES each
TITLE_BYTES = 1_000_000
ROWS_VECTOR = 40_000
ROWS_TEXT = 4_000


def write_backend(folder):
    os.makedirs(f"{folder}/schema", exist_ok=True)
    os.makedirs(f"{folder}/probe", exist_ok=True)
    with open(f"{folder}/dataconnect.yaml", "w") as f:
        f.write('specVersion: "v1"\nserviceId: "probe"\nlocation: "us-central1"\nschema:\n  source: "./schema"\n'
                '  datasource:\n    postgresql:\n      database: "probe"\nconnectorDirs: ["./probe"]\n')
    with open(f"{folder}/schema/schema.gql", "w") as f:
        f.write("type Movie @table {\n  title: String!\n  kind: Int! @index\n}\n"
                "type Plot @table {\n  description: String! @searchable\n}\n"
                "type Item @table {\n  name: String!\n  embedding: Vector! @col(size: 768)\n}\n")
    with open(f"{folder}/probe/connector.yaml", "w") as f:
        f.write('connectorId: "probe"\n')
    with open(f"{folder}/probe/operations.gql", "w") as f:
        f.write("query cheap @auth(level: PUBLIC) { movies(where: {kind: {eq: 1}}, limit: 1) { id kind } }\n")


class Emulator:
    def __init__(self, binary, backend, limit, extra=()):
        self.log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
        self.process = subprocess.Popen(
            [binary, "emulator", "--backend", backend, "--port", "0", "--no-watch", "--no-console", "--no-auth",
             "--request-timeout", str(limit), *extra], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with open(self.log.name) as f:
                found = re.search(r"^ready (\S+)", f.read(), re.M)
            if found:
                self.url = found.group(1).rstrip("/")
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        with open(self.log.name) as f:
            sys.exit("the emulator did not start:\n" + f.read())

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=60)
        os.unlink(self.log.name)

    def post(self, path, body, timeout=120):
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, text = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        return status, time.monotonic() - started, text

    def admin(self, query, variables=None, timeout=120):
        return self.post("/v1/projects/p/locations/l/services/probe:executeGraphql",
                         {"query": query, "variables": variables or {}}, timeout)

    def cheap(self):
        return self.post("/v1/projects/p/locations/l/services/probe/connectors/probe:executeQuery",
                         {"name": "projects/p/locations/l/services/probe/connectors/probe", "operationName": "cheap",
                          "variables": {}}, timeout=120)


def seed(emulator):
    rng = random.Random(34)
    letters = "abcdefghijklmnopqrstuvwxyz "
    for _ in range(ROWS_BIG):
        title = "".join(rng.choice(letters) for _ in range(TITLE_BYTES))
        status, _, text = emulator.admin("mutation($t: String!) { movie_insert(data: {title: $t, kind: 0}) }",
                                         {"t": title})
        assert status == 200, text
    status, _, text = emulator.admin('mutation { movie_insert(data: {title: "small", kind: 1}) }')
    assert status == 200, text
    words = "love war space machine dream city night river ghost king queen robot heart storm island".split()
    for start in range(0, ROWS_TEXT, 500):
        rows = [{"description": " ".join(rng.choice(words) for _ in range(400))} for _ in range(500)]
        status, _, text = emulator.admin("mutation($d: [Plot_Data!]!) { plot_insertMany(data: $d) }", {"d": rows})
        assert status == 200, text
    for start in range(0, ROWS_VECTOR, 1_000):
        rows = [{"name": f"i{start + n}", "embedding": [round(rng.uniform(-1, 1), 3) for _ in range(768)]}
                for n in range(1_000)]
        status, _, text = emulator.admin("mutation($d: [Item_Data!]!) { item_insertMany(data: $d) }", {"d": rows})
        assert status == 200, text


def shapes():
    rng = random.Random(7)
    contains = ", ".join('{title: {contains: "%s"}}' % "".join(rng.choice("xyzq") for _ in range(12))
                         for _ in range(900))
    regex = ", ".join('{title: {pattern: {regex: "q[xz]+y{3}%d"}}}' % n for n in range(60))
    vector = [round(rng.uniform(-1, 1), 3) for _ in range(768)]
    return [
        ("900 `contains` terms over 6 titles of 1 MB", "{ movies(where: {_or: [%s]}) { id } }" % contains, None),
        ("`_or` of 60 regular expressions over the same titles", "{ movies(where: {_or: [%s]}) { id } }" % regex,
         None),
        ("vector similarity, 40,000 rows of 768 dimensions",
         "query($v: Vector!) { items_embedding_similarity(compare: $v, method: L2, limit: 5) { id } }",
         {"v": vector}),
        ("full-text ranking, 4,000 descriptions of 400 words",
         '{ plots_search(query: "love war", limit: 5) { id _metadata { relevance } } }', None),
    ]


def time_limit_table(binary, backend, data_dir, limit):
    """Each shape alone without a practical limit, then under a limit of a quarter of that time (at least 10 ms,
    at most `limit`), so that every shape is stopped part-way."""
    rows = []
    for name, query, variables in shapes():
        emulator = Emulator(binary, backend, 3_600, ["--data-dir", data_dir])
        try:
            free = emulator.admin(query, variables, timeout=600)
        finally:
            emulator.stop()
        bound_seconds = round(max(0.01, min(limit, free[1] / 4)), 3)
        emulator = Emulator(binary, backend, bound_seconds, ["--data-dir", data_dir])
        try:
            bound = emulator.admin(query, variables, timeout=600)
        finally:
            emulator.stop()
        rows.append((name, free, bound_seconds, bound))
    print("\n| shape | alone, no limit | `--request-timeout` | answer under the limit | answer / limit |")
    print("|---|---|---|---|---|")
    for name, free, bound_seconds, bound in rows:
        print(f"| {name} | {free[0]} in {free[1]:.3f} s | {bound_seconds * 1000:.0f} ms | {bound[0]} in "
              f"{bound[1]:.3f} s | {bound[1] / bound_seconds:.2f}x |")


def latencies(emulator, seconds):
    results = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        status, elapsed, _ = emulator.cheap()
        results.append((status, elapsed))
    return results


def describe(results):
    times = sorted(elapsed * 1_000 for _, elapsed in results)
    errors = sum(1 for status, _ in results if status != 200)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return f"{len(times)} | {statistics.median(times):.1f} | {p99:.1f} | {times[-1]:.1f} | {errors}"


def starvation(binary, backend, data_dir, slow, seconds):
    emulator = Emulator(binary, backend, 30, ["--data-dir", data_dir])
    try:
        alone = latencies(emulator, seconds)
        query = shapes()[0][1]
        with concurrent.futures.ThreadPoolExecutor(max_workers=slow) as pool:
            futures = [pool.submit(emulator.admin, query, None, 600) for _ in range(slow)]
            time.sleep(0.5)
            loaded = latencies(emulator, seconds)
            answers = [future.result() for future in futures]
    finally:
        emulator.stop()
    print(f"\n| cheap requests (one client, back to back, {seconds} s) | count | p50 ms | p99 ms | max ms | errors |")
    print("|---|---|---|---|---|---|")
    print(f"| alone | {describe(alone)} |")
    print(f"| while {slow} slow requests run | {describe(loaded)} |")
    print("\nslow requests answered: " + ", ".join(
        f"{status} in {elapsed:.1f} s" + (f" ({json.loads(text)['error']['status']})" if status != 200 else "")
        for status, elapsed, text in answers))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--limit", type=float, default=1)
    parser.add_argument("--slow", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8)
    arguments = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="slow-query-probe-")
    try:
        backend = f"{folder}/backend"
        data_dir = f"{folder}/data"
        write_backend(backend)
        emulator = Emulator(arguments.binary, backend, 600, ["--data-dir", data_dir])
        try:
            started = time.monotonic()
            seed(emulator)
            print(f"seeded in {time.monotonic() - started:.1f} s", file=sys.stderr)
        finally:
            emulator.stop()
        time_limit_table(arguments.binary, backend, data_dir, arguments.limit)
        starvation(arguments.binary, backend, data_dir, arguments.slow, arguments.seconds)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
