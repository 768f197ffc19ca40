"""What the gRPC test scripts share: the emulator as a child process, PostgreSQL clusters, stubs, tokens, a transcript.

- `load_stubs()` generates Python stubs from Packages/DataConnectKit/Protos with `grpc_tools.protoc` into a temporary
  directory put first on `sys.path`, and imports the Data Connect v1 and v1beta modules. Health and reflection come
  from `grpcio-health-checking` and `grpcio-reflection` (their own generated modules define the same message names,
  so ours are compiled as a check but never imported: one descriptor pool cannot hold a message name twice).
- `Emulator` starts `.build/debug/dataconnect emulator --backend … --port 0 --no-watch` and reads its `ready <url>`
  line; every wait has a hang guard, none is an expectation.
- `Databases` gives each emulator a database: in-memory SQLite, or a new database on a throwaway PostgreSQL server
  that `pg-cluster` starts (or on a server given with `--postgres URL`).
- `record()` keeps the transcript every script prints at the end: each call and its outcome.
- `run_suites()` runs a script's unittest suite on SQLite, then again on PostgreSQL.
"""

import argparse
import atexit
import base64
import importlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / ".build" / "debug" / "dataconnect"
PG_CLUSTER = ROOT / ".build" / "debug" / "pg-cluster"
PROTOS = ROOT / "Packages" / "DataConnectKit" / "Protos"
MOVIES = "Backend/movies"
MOVIES_SEED = "Backend/movies/seed_data.gql"
LIBRARY = "Tests/Backends/library"
PROJECT = "demo-grpc"
START_GUARD = 120  # hang guards, never expectations
WAIT = 60

# --------------------------------------------------------------------------------------------------------------
# The transcript

TRANSCRIPT = []  # (database, test name, line)
_current = {"test": "setup", "database": "-"}


def set_current_test(name):
    _current["test"] = name


def record(call, outcome):
    """Keeps one transcript line: a call (gRPC, REST or a process action) and what came of it."""
    TRANSCRIPT.append((_current["database"], _current["test"], f"{call}  ->  {outcome}"))


def print_transcript(title):
    print(f"\n{title} ({len(TRANSCRIPT)} calls):")
    shown = None
    for database, test, line in TRANSCRIPT:
        if (database, test) != shown:
            print(f"[{database}] {test}")
            shown = (database, test)
        print(f"  {line}")


def short(value, limit=160):
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --------------------------------------------------------------------------------------------------------------
# Child processes: stopped at exit, also after a failure or Ctrl-C

_processes = []
_cleanups = []


def _stop_everything():
    for process in _processes:
        if process.poll() is None:
            process.kill()
            process.wait()
    while _cleanups:
        _cleanups.pop()()


def _terminated(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


atexit.register(_stop_everything)
signal.signal(signal.SIGTERM, _terminated)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Emulator:
    """`dataconnect emulator` on a free port, its stdout and stderr in files of `workdir`."""

    def __init__(self, workdir, backend=MOVIES, seed=None, database_url=None, extra=()):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.backend = backend
        self.seed = seed
        self.database_url = database_url
        self.extra = list(extra)
        self.process = None
        self.url = None
        self.stdout_path = self.workdir / "emulator.out"
        self.stderr_path = self.workdir / "emulator.log"

    def arguments(self):
        args = [str(BINARY), "emulator", "--backend", self.backend, "--port", "0", "--no-watch", "--project", PROJECT]
        if self.seed:
            args += ["--seed", self.seed]
        if self.database_url:
            args += ["--postgres", self.database_url]
        return args + self.extra

    def start(self):
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.process = subprocess.Popen(self.arguments(), cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _processes.append(self.process)
        deadline = time.monotonic() + START_GUARD
        while self.url is None:
            match = re.search(r"^ready (\S+)\s*$", self.stdout_path.read_text(errors="replace"), re.M)
            if match:
                self.url = match.group(1).rstrip("/")
                break
            if self.process.poll() is not None:
                raise RuntimeError(f"the emulator exited with status {self.process.returncode}:\n{self.log()}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the emulator did not print `ready <url>` within {START_GUARD} s:\n{self.log()}")
            time.sleep(0.05)
        record(f"start emulator --backend {self.backend}" + (" --postgres …" if self.database_url else ""),
               f"ready {self.url}")
        return self

    @property
    def target(self):
        """host:port, as grpc.insecure_channel takes it."""
        return self.url.split("://", 1)[1]

    def stop(self):
        """SIGTERM, then the exit status (a hang guard kills it after START_GUARD seconds)."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=START_GUARD)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                record("SIGTERM the emulator", f"no exit within {START_GUARD} s: killed")
                return None
        return self.process.returncode

    def log(self):
        try:
            return self.stderr_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def info(self):
        status, body = http("GET", self.url + "/emulator/info")
        if status != 200:
            raise AssertionError(f"/emulator/info answered {status}: {body}")
        return body


# --------------------------------------------------------------------------------------------------------------
# Databases

class Databases:
    """Hands out one database per emulator: none (in-memory SQLite), or a new one on a PostgreSQL server."""

    def __init__(self, kind, server_url=None):
        self.kind = kind
        self.server_url = server_url
        self.cluster_dir = None

    @classmethod
    def sqlite(cls):
        return cls("sqlite")

    @classmethod
    def postgres(cls, given_url=None):
        """A server given by URL, or a throwaway cluster started with `pg-cluster` (stopped at exit)."""
        if given_url:
            return cls("postgres", given_url)
        if not PG_CLUSTER.exists():
            raise RuntimeError(f"{PG_CLUSTER} is missing: run `swift build --product pg-cluster` first")
        directory = Path(tempfile.mkdtemp(prefix="dataconnect-grpc-pg-"))
        os.chmod(directory, 0o755)
        cluster = directory / "cluster"
        port = free_port()
        started = subprocess.run([str(PG_CLUSTER), "start", str(cluster), "--port", str(port)], capture_output=True,
                                 text=True, timeout=START_GUARD)
        if started.returncode != 0:
            raise RuntimeError(f"pg-cluster start failed ({started.returncode}): {started.stderr}{started.stdout}")
        url = started.stdout.strip().splitlines()[-1]
        databases = cls("postgres", url)
        databases.cluster_dir = cluster

        def stop():
            subprocess.run([str(PG_CLUSTER), "stop", str(cluster)], capture_output=True, timeout=START_GUARD)
            shutil.rmtree(directory, ignore_errors=True)

        _cleanups.append(stop)
        databases._stop = stop
        return databases

    def close(self):
        stop = getattr(self, "_stop", None)
        if stop is not None:
            _cleanups.remove(stop)
            stop()

    def new_url(self, label):
        """A URL for a fresh database (None for SQLite: the emulator keeps it in memory)."""
        if self.kind == "sqlite":
            return None
        name = f"grpc_{label}_{uuid.uuid4().hex[:8]}"
        created = subprocess.run(["psql", self.server_url, "-qc", f"CREATE DATABASE {name}"], capture_output=True,
                                 text=True, timeout=WAIT)
        if created.returncode != 0:
            raise RuntimeError(f"CREATE DATABASE {name} failed: {created.stderr}")
        parts = urllib.parse.urlsplit(self.server_url)
        return urllib.parse.urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query or "sslmode=disable", ""))


DATABASES = {"current": None}


def start_emulator(label, backend=MOVIES, seed=MOVIES_SEED, extra=()):
    """An emulator on the current database kind, in a temporary working directory (removed at exit)."""
    workdir = Path(tempfile.mkdtemp(prefix=f"dataconnect-grpc-{label}-"))
    _cleanups.append(lambda: shutil.rmtree(workdir, ignore_errors=True))
    databases = DATABASES["current"]
    return Emulator(workdir, backend=backend, seed=seed, database_url=databases.new_url(label), extra=extra).start()


# --------------------------------------------------------------------------------------------------------------
# REST

def http(method, url, body=None, headers=None):
    """Sends a request; returns (status, parsed JSON body or text)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    text = raw.decode(errors="replace")
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def connector_name(service="movies", connector="movies", project=PROJECT, location="us-central1"):
    return f"projects/{project}/locations/{location}/services/{service}/connectors/{connector}"


def rest_execute(emulator, kind, operation, variables, token=None, service="movies", connector="movies",
                 version="v1"):
    """POST …:executeQuery or …:executeMutation; returns (status, body). `kind` is "query" or "mutation"."""
    method = "executeQuery" if kind == "query" else "executeMutation"
    name = connector_name(service, connector)
    headers = {"X-Firebase-Auth-Token": token} if token else {}
    status, body = http("POST", f"{emulator.url}/{version}/{name}:{method}",
                        {"name": name, "operationName": operation, "variables": variables}, headers)
    outcome = f"{status}" + (f" {body['error'].get('status')}" if isinstance(body, dict) and "error" in body else "")
    record(f"REST {method} {operation} {short(variables, 80)}", outcome)
    return status, body


def admin_graphql(emulator, query, variables=None, service="movies"):
    """The admin API (`:executeGraphql`, no @auth): fixtures and re-seeding."""
    status, body = http("POST",
                        f"{emulator.url}/v1/projects/{PROJECT}/locations/us-central1/services/{service}:executeGraphql",
                        {"query": query, "variables": variables or {}})
    if status != 200 or body.get("errors"):
        raise AssertionError(f"executeGraphql answered {status}: {short(body, 400)}")
    return body


# --------------------------------------------------------------------------------------------------------------
# Tokens

def b64url(value):
    return base64.urlsafe_b64encode(json.dumps(value, separators=(",", ":")).encode()).rstrip(b"=").decode()


def unsigned_token(sub, **claims):
    """An `alg: none` ID token as the JS SDK's emulator mode makes (the emulator decodes tokens, never verifies)."""
    now = int(time.time())
    payload = {"iss": f"https://securetoken.google.com/{PROJECT}", "aud": PROJECT, "auth_time": now,
               "user_id": sub, "sub": sub, "iat": now, "exp": now + 3600,
               "firebase": {"identities": {}, "sign_in_provider": "custom"}}
    payload.update(claims)
    return f"{b64url({'alg': 'none', 'typ': 'JWT'})}.{b64url(payload)}."


def sign_up(emulator, email=None):
    """A user of the emulator's Auth emulator: (uid, ID token, refresh token)."""
    email = email or f"grpc-{uuid.uuid4().hex[:8]}@example.com"
    status, body = http("POST", f"{emulator.url}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake",
                        {"email": email, "password": "secret-123", "returnSecureToken": True})
    record(f"REST Auth accounts:signUp {email}", f"{status} {'idToken' if status == 200 else short(body)}")
    if status != 200:
        raise AssertionError(f"accounts:signUp answered {status}: {body}")
    return body["localId"], body["idToken"], body["refreshToken"]


def refresh_token(emulator, refresh):
    """A fresh ID token for the same user (securetoken's refresh grant, as the SDKs refresh)."""
    data = urllib.parse.urlencode({"grant_type": "refresh_token", "refresh_token": refresh}).encode()
    request = urllib.request.Request(f"{emulator.url}/securetoken.googleapis.com/v1/token?key=fake", data=data,
                                     method="POST", headers={"Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(request, timeout=WAIT) as response:
        body = json.loads(response.read())
    record("REST Auth securetoken token (refresh)", "id_token")
    return body["id_token"]


# --------------------------------------------------------------------------------------------------------------
# Stubs

class Stubs:
    """The generated modules: `v1` and `v1beta` each hold `service`, `service_grpc`, `stream`, `stream_grpc`,
    `errors` and `extensions` (…_pb2 / …_pb2_grpc), `code` is google.rpc.code_pb2."""


_stubs = {}


def load_stubs():
    """Generates the stubs once per process (`grpc_tools.protoc`), puts them first on sys.path and imports them."""
    if _stubs:
        return _stubs["stubs"]
    import grpc_tools
    from grpc_tools import protoc

    include = str(Path(grpc_tools.__file__).parent / "_proto")
    directory = Path(tempfile.mkdtemp(prefix="dataconnect-grpc-stubs-"))
    _cleanups.append(lambda: shutil.rmtree(directory, ignore_errors=True))
    imported = directory / "stubs"
    checked = directory / "check"
    imported.mkdir()
    checked.mkdir()
    dataconnect = sorted(str(p.relative_to(PROTOS)) for p in (PROTOS / "google").rglob("*.proto"))
    others = sorted(str(p.relative_to(PROTOS)) for p in (PROTOS / "grpc").rglob("*.proto"))
    for files, out in ((dataconnect, imported), (others, checked)):
        arguments = ["grpc_tools.protoc", f"-I{PROTOS}", f"-I{include}", f"--python_out={out}",
                     f"--grpc_python_out={out}", *files]
        status = protoc.main(arguments)
        if status != 0:
            raise RuntimeError(f"grpc_tools.protoc failed ({status}) on {files}")
    record(f"grpc_tools.protoc {len(dataconnect)} Data Connect protos (+ {len(others)} health/reflection, compiled only)",
           f"stubs in {imported}")
    # `google` is a namespace package (no __init__.py in site-packages, none from protoc): with the stubs' directory
    # first on sys.path, `google.firebase` and `google.rpc.code_pb2` come from it, `google.protobuf` from
    # site-packages. Nothing may have imported googleapis-common-protos' google.rpc.code_pb2 before (it would
    # register google/rpc/code.proto first); the check below says so if it did.
    sys.path.insert(0, str(imported))
    importlib.invalidate_caches()
    stubs = Stubs()
    stubs.code = importlib.import_module("google.rpc.code_pb2")
    for version in ("v1", "v1beta"):
        package = f"google.firebase.dataconnect.{version}"
        modules = Stubs()
        modules.service = importlib.import_module(f"{package}.connector_service_pb2")
        modules.service_grpc = importlib.import_module(f"{package}.connector_service_pb2_grpc")
        modules.stream = importlib.import_module(f"{package}.connector_stream_service_pb2")
        modules.stream_grpc = importlib.import_module(f"{package}.connector_stream_service_pb2_grpc")
        modules.errors = importlib.import_module(f"{package}.graphql_error_pb2")
        modules.extensions = importlib.import_module(f"{package}.graphql_response_extensions_pb2")
        setattr(stubs, version, modules)
    import google.protobuf

    for module in (stubs.code, stubs.v1.service, stubs.v1beta.stream):
        if not Path(module.__file__).resolve().is_relative_to(imported.resolve()):
            raise RuntimeError(f"{module.__name__} was imported from {module.__file__}, not from the generated stubs")
    if Path(google.protobuf.__file__).resolve().is_relative_to(imported.resolve()):
        raise RuntimeError("google.protobuf resolves into the stubs' directory")
    _stubs["stubs"] = stubs
    return stubs


def struct(value):
    """A google.protobuf.Struct from a dict (numbers become doubles, as on the wire)."""
    from google.protobuf import struct_pb2

    message = struct_pb2.Struct()
    message.update(value)
    return message


def grpc_channel(emulator):
    """A grpcio channel to the emulator's port, after a Health/Check shows the port speaks gRPC (else an error)."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    channel = grpc.insecure_channel(emulator.target)
    try:
        health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=WAIT)
    except grpc.RpcError as error:
        record("Health/Check (does the port speak gRPC?)", f"{error.code().name}: {short(error.details() or '')}")
        channel.close()
        emulator.stop()
        raise RuntimeError(f"the emulator at {emulator.target} does not serve gRPC: {error.code().name} "
                           f"{error.details()}") from None
    record("Health/Check (does the port speak gRPC?)", "OK")
    return channel


# --------------------------------------------------------------------------------------------------------------
# Running a suite on both databases

def arguments(description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--database", choices=("both", "sqlite", "postgres"), default="both",
                        help="run on SQLite, on PostgreSQL, or on both (default, SQLite first)")
    parser.add_argument("--postgres", metavar="URL",
                        help="use this PostgreSQL server instead of starting a throwaway one with pg-cluster")
    parser.add_argument("-k", dest="patterns", action="append", default=[], help="only tests matching (unittest -k)")
    return parser.parse_args()


def run_suites(module, options, title, summary=None):
    """Runs every TestCase of `module` once per database; prints the transcript (and `summary()` if given)."""
    if not BINARY.exists():
        sys.exit(f"{BINARY} is missing: run `swift build --product dataconnect` first")
    kinds = ["sqlite", "postgres"] if options.database == "both" else [options.database]
    results = {}
    try:
        load_stubs()
        for kind in kinds:
            _current["database"] = kind
            set_current_test("setup")
            databases = Databases.sqlite() if kind == "sqlite" else Databases.postgres(options.postgres)
            DATABASES["current"] = databases
            if kind == "postgres":
                record("PostgreSQL server", re.sub(r"//[^@]*@", "//…@", databases.server_url))
            try:
                loader = unittest.TestLoader()
                loader.testNamePatterns = [f"*{p}*" for p in options.patterns] or None
                suite = loader.loadTestsFromModule(module)
                print(f"\n===== {title} on {kind} =====", flush=True)
                results[kind] = unittest.TextTestRunner(verbosity=2).run(suite)
            finally:
                databases.close()
    except KeyboardInterrupt:
        _stop_everything()
        sys.exit(130)
    print_transcript(title + " transcript")
    if summary is not None:
        summary()
    print()
    for kind, result in results.items():
        print(f"{kind}: {result.testsRun} tests, {len(result.failures)} failures, {len(result.errors)} errors, "
              f"{len(result.skipped)} skipped")
    return all(result.wasSuccessful() for result in results.values()) and len(results) == len(kinds)
