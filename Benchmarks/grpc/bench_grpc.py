#!/usr/bin/env python3
"""The gRPC benchmark's driver (run.sh builds, seeds, then calls this with the test venv's Python).

One emulator (release, Benchmarks/shapes/backend on a copy of its seeded data) answers the same two shapes over
both protocols at the same concurrency, in interleaved rounds:

- get-by-key (`getMovie($id)`: one movie, every column and `tags`) and the 20-row list (`listByIndex($genre)`);
- REST with wrk (Benchmarks/emulator/post.lua, `CONNECTIONS` connections, one request in flight on each);
- gRPC with h2load: `/google.firebase.dataconnect.v1.ConnectorService/ExecuteQuery`, headers
  `content-type: application/grpc` and `te: trailers`, a prepared body (the 5-byte prefix and the serialized
  ExecuteQueryRequest, built with stubs generated from Packages/DataConnectKit/Protos), `-c C -m M` with
  C x M = CONNECTIONS for each layout in `STREAMS` (e.g. 32x1: as many connections as wrk; 1x32: one channel
  with every call on it, as one app's grpcio or grpc-swift channel does).

Each protocol sends one fixed request per shape (h2load sends one body; wrk gets the same single request, so
both sides read the same row or list).

Counting only calls the server finished with OK: h2load counts every response with `:status 200`, and a gRPC
error is a 200 too, so its "succeeded" count is not the answer. Before measuring, the driver makes the same call
with grpcio, keeping the response's raw bytes: OK, no `errors`, the expected rows, and the length L of the message
(the 5-byte prefix plus the protobuf). The request and the data do not change, so every OK answer carries exactly
L bytes of DATA, and an error answer carries none (a trailers-only response) or another message. The OK calls of a
run are h2load's DATA bytes divided by L, capped at its "succeeded" count (the calls cut when h2load's time is up,
at most C x M, may have sent DATA without finishing); fewer than "succeeded" means some 200s were not OK calls,
and the run is listed under Notes. Two cross-checks: `/emulator/info`'s `grpc.callsStarted` grows by at least
h2load's started requests (less the C x M it may cut before they are sent), and the last calls in the console's
request log (`/emulator/console/requests`, `protocol: grpc`) are all `OK` (or `CANCELLED`: the calls h2load resets
when its time is up).
"""
import argparse
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "emulator"))
sys.path.insert(0, os.path.join(ROOT, "Tests", "GRPC"))

import bench  # noqa: E402  (the emulator benchmark's driver: server start and stop, wrk, machine)
import harness  # noqa: E402  (stubs generated from the Kit's protos)

SERVICE = "shapes"
GRPC_PATH = "/google.firebase.dataconnect.v1.ConnectorService/ExecuteQuery"
SHAPES = [("get-by-key", "getMovie", "id", 1), ("20-row list", "listByIndex", "genre", 20)]


def h2load_command(port, body_file, connections, streams, duration, threads):
    # No --warm-up-time: with it, h2load 1.52 counts the warm-up's DATA bytes in `traffic` but not its requests
    # in `requests` (the warm-up is a separate 1 s run instead, as wrk's).
    return ["h2load", f"-t{min(threads, connections)}", f"-c{connections}", f"-m{streams}", f"-D{duration}",
            "-H", "content-type: application/grpc", "-H", "te: trailers", "-d", body_file,
            f"http://127.0.0.1:{port}{GRPC_PATH}"]


def h2load(command, duration):
    out = subprocess.run(command, capture_output=True, text=True, timeout=duration + 60).stdout
    finished = re.search(r"^finished in ([\d.]+)(m?s)", out, re.M)
    requests = re.search(r"^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, "
                         r"(\d+) errored, (\d+) timeout", out, re.M)
    traffic = re.search(r"^traffic: .*?\((\d+)\) total, .*?\((\d+)\) headers .*?, .*?\((\d+)\) data", out, re.M)
    if not (finished and requests and traffic):
        raise RuntimeError(f"cannot read h2load's output:\n{out}")
    seconds = float(finished.group(1)) / (1000 if finished.group(2) == "ms" else 1)
    started, done, succeeded, failed, errored, timeout = map(int, requests.groups()[1:])
    return {"seconds": seconds, "started": started, "done": done, "succeeded": succeeded,
            "failed": failed + errored + timeout, "data_bytes": int(traffic.group(3))}


def get_json(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as response:
        return json.loads(response.read())


def grpc_frame(message):
    payload = message.SerializeToString()
    return b"\0" + len(payload).to_bytes(4, "big") + payload


def check_grpc(port, stubs, request, rows):
    """The call h2load will repeat, made once with grpcio: returns the OK answer's length on the wire."""
    import grpc
    from google.protobuf import json_format

    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.unary_unary(GRPC_PATH, request_serializer=lambda b: b, response_deserializer=lambda b: b)
        try:
            raw = call(request.SerializeToString(), timeout=30)
        except grpc.RpcError as error:
            raise SystemExit(f"bench_grpc.py: {request.operation_name} over gRPC: {error.code().name} {error.details()}")
    response = stubs.v1.service.ExecuteQueryResponse.FromString(raw)
    body = json_format.MessageToDict(response)
    assert not body.get("errors"), f"{request.operation_name} answered errors over gRPC: {body['errors']}"
    found = body["data"]["movies"] if "movies" in body["data"] else [body["data"]["movie"]]
    assert len(found) == rows, f"{request.operation_name}: {len(found)} rows over gRPC, {rows} expected"
    return 5 + len(raw), body


def check_rest(port, path, body, rows):
    status, raw = bench.post(port, path, body)
    assert status == 200, f"REST answered {status}: {raw[:300]!r}"
    answer = json.loads(raw)
    assert not answer.get("errors"), f"REST errors: {answer['errors']}"
    found = answer["data"]["movies"] if "movies" in answer["data"] else [answer["data"]["movie"]]
    assert len(found) == rows, f"{len(found)} rows over REST, {rows} expected"
    return answer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dataconnect", required=True)
    parser.add_argument("--data", required=True, help="the seeded data directory (copied, never written)")
    parser.add_argument("--backend", required=True)
    parser.add_argument("--connector", default="shapes", help="shapes (no entity ids) or shapes_cached")
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--streams", default="32x1,4x8,1x32", help="h2load layouts CxM, C x M = --connections")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    layouts = [tuple(map(int, s.split("x"))) for s in args.streams.split(",")]
    for c, m in layouts:
        if c * m != args.connections:
            parser.error(f"layout {c}x{m} does not make {args.connections} calls in flight")

    stubs = harness.load_stubs()
    work = tempfile.mkdtemp(prefix="dataconnect-bench-grpc-")
    try:
        run(args, layouts, stubs, work)
    finally:
        for process in bench.started:
            bench.stop(process)
        shutil.rmtree(work, ignore_errors=True)


def run(args, layouts, stubs, work):
    data_dir = os.path.join(work, "data")
    shutil.copytree(args.data, data_dir)
    db = sqlite3.connect(f"file:{os.path.join(data_dir, 'dataconnect.sqlite')}?mode=ro", uri=True)
    movie_id = db.execute("SELECT id FROM movie ORDER BY id LIMIT 1").fetchone()[0]
    movie_id = movie_id.hex() if isinstance(movie_id, bytes) else movie_id
    genre = db.execute("SELECT genre FROM movie ORDER BY genre LIMIT 1").fetchone()[0]
    db.close()
    values = {"id": movie_id, "genre": genre}
    name = f"projects/p/locations/l/services/{SERVICE}/connectors/{args.connector}"
    rest_path = f"/v1/{name}:executeQuery"

    bench.log("== start the emulator (one, serving both protocols) and check every answer")
    argv = [args.dataconnect, "emulator", "--backend", args.backend, "--port", "0", "--no-watch", "--data-dir",
            data_dir]
    _, port, _ = bench.start_server(argv)
    files, ok_lengths, commands = {}, {}, []
    for label, operation, variable, rows in SHAPES:
        body = {"name": name, "operationName": operation, "variables": {variable: values[variable]}}
        rest_answer = check_rest(port, rest_path, body, rows)
        files[label, "rest"] = bench.write_bodies(os.path.join(work, f"{operation}.txt"), [body])
        request = stubs.v1.service.ExecuteQueryRequest(name=name, operation_name=operation,
                                                       variables=harness.struct(body["variables"]))
        ok_lengths[label], grpc_answer = check_grpc(port, stubs, request, rows)
        assert harness_equal(rest_answer["data"], grpc_answer["data"]), f"{operation}: REST and gRPC data differ"
        files[label, "grpc"] = os.path.join(work, f"{operation}.grpc")
        with open(files[label, "grpc"], "wb") as f:
            f.write(grpc_frame(request))
        bench.log(f"   {label}: {operation}({variable}: {values[variable]!r}), {rows} row(s); OK gRPC answer "
                  f"{ok_lengths[label]} bytes on the wire")

    wrk_args = argparse.Namespace(threads=args.threads, connections=args.connections, duration=args.duration)
    results = {}  # (shape, target) -> [req/s per round]
    notes = []
    for number in range(1, args.rounds + 1):
        bench.log(f"== round {number}/{args.rounds}")
        for label, operation, _, _ in SHAPES:
            rest = bench.wrk(port, rest_path, files[label, "rest"], wrk_args)
            if rest["errors"]:
                notes.append(f"round {number} {label} REST: {int(rest['errors'])} wrk errors")
            results.setdefault((label, "REST"), []).append(rest["rps"])
            if number == 1:
                commands.append(f"BENCH_BODIES={operation}.txt BENCH_PATH={rest_path} wrk -t{args.threads} "
                                f"-c{args.connections} -d{args.duration}s --timeout 5s -s Benchmarks/emulator/post.lua "
                                f"http://127.0.0.1:PORT{rest_path}")
            for connections, streams in layouts:
                h2load(h2load_command(port, files[label, "grpc"], connections, streams, 1, args.threads), 1)  # warm-up
                before = get_json(port, "/emulator/info")["grpc"]["callsStarted"]
                command = h2load_command(port, files[label, "grpc"], connections, streams, args.duration, args.threads)
                run_ = h2load(command, args.duration)
                after = get_json(port, "/emulator/info")["grpc"]["callsStarted"]
                # When h2load's time is up, up to C x M calls are cut: some of their DATA may have arrived (so DATA
                # can hold up to C x M answers more than "succeeded"), and some requests it counts as started never
                # reached the server. Fewer OK answers than "succeeded" means some 200s were not OK calls.
                in_flight = connections * streams
                ok = min(run_["data_bytes"] // ok_lengths[label], run_["succeeded"])
                target = f"gRPC {connections}x{streams}"
                answers = run_["data_bytes"] / ok_lengths[label]
                if ok < run_["succeeded"] or answers > ok + in_flight or run_["failed"]:
                    notes.append(f"round {number} {label} {target}: {run_['succeeded']} answered 200, DATA "
                                 f"{run_['data_bytes']} bytes = {answers:.2f} OK answers, {run_['failed']} failed; "
                                 f"counted {ok}")
                if after - before < run_["started"] - in_flight:
                    notes.append(f"round {number} {label} {target}: callsStarted grew by {after - before}, "
                                 f"h2load started {run_['started']}")
                log = get_json(port, "/emulator/console/requests")
                records = log if isinstance(log, list) else log.get("requests", [])
                # h2load stops with calls in flight and resets them: those are logged CANCELLED (and not counted).
                codes = {r.get("code") for r in records if r.get("protocol") == "grpc"}
                if codes - {"OK", "CANCELLED"}:
                    notes.append(f"round {number} {label} {target}: the console's last gRPC calls include {codes}")
                results.setdefault((label, target), []).append(ok / run_["seconds"])
                if number == 1:
                    commands.append(" ".join(c if " " not in c else repr(c) for c in command).replace(
                        f"127.0.0.1:{port}", "127.0.0.1:PORT").replace(files[label, "grpc"], f"{operation}.grpc"))

    targets = ["REST"] + [f"gRPC {c}x{m}" for c, m in layouts]
    machine = bench.machine()
    lines = [f"gRPC against REST on one emulator (release, {SERVICE}/{args.connector}, {args.connections} calls in "
             f"flight, {args.duration} s per run, median of {args.rounds} interleaved rounds; only OK calls counted)",
             f"machine: {machine['cpu']}, {machine['cores']} cores, load at start {' '.join(machine['loadavg_at_start'])}",
             "",
             "| shape | " + " | ".join(f"{t} req/s" for t in targets) + " | gRPC best / REST |",
             "|---|" + "---:|" * (len(targets) + 1)]
    for label, _, _, _ in SHAPES:
        medians = [statistics.median(results[label, t]) for t in targets]
        lines.append(f"| {label} | " + " | ".join(f"{m:,.0f}" for m in medians) +
                     f" | {max(medians[1:]) / medians[0]:.2f} |")
    lines += ["", "Commands (one round; PORT is the emulator's):"] + [f"  {c}" for c in commands]
    lines += ["", "Notes: " + ("none: every gRPC call counted finished OK" if not notes else "")]
    lines += [f"  {n}" for n in notes]
    print("\n".join(lines))


def harness_equal(left, right):
    """REST's data and gRPC's (numbers are doubles in a Struct) are the same."""
    return json.dumps(floats(left), sort_keys=True) == json.dumps(floats(right), sort_keys=True)


def floats(value):
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, list):
        return [floats(v) for v in value]
    return {k: floats(v) for k, v in value.items()}


if __name__ == "__main__":
    main()
