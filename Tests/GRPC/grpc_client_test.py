#!/usr/bin/python3
"""Google's grpcio against the emulator's gRPC service, as the iOS, Android and Flutter SDKs call it.

Starts `.build/debug/dataconnect emulator --backend Backend/movies --port 0` (seeded) and calls it over plaintext
HTTP/2 with grpcio, through stubs generated at test time from Packages/DataConnectKit/Protos (see harness.py):
unary queries and mutations with variables of every scalar kind the movies connector takes, auth metadata, every
request-level status (each compared with the `error.status` REST answers for the same request), deadlines,
cancellation, 100 concurrent calls on one channel (`peakCallsInFlight` >= 100; when light calls end too fast to
overlap, PostgreSQL holds them behind a table lock and SQLite gets a 100,000-row scan), the bidirectional stream
(subscribe, execute, pushes, cancel, resume with data_etag, the iOS handshake, token refresh), health, reflection,
the v1beta paths, /emulator/info and the console's request log, and SIGTERM with calls in flight. PERMISSION_DENIED
needs an operation movies does not have (NO_ACCESS, @auth(expr:)): a second emulator serves Tests/Backends/library.

The whole suite runs on SQLite, then on PostgreSQL (a throwaway server from `pg-cluster`, or `--postgres URL`).
Every call is printed with its outcome at the end: the transcript is the evidence. Waits are hang guards only.
Build first (`swift build --product dataconnect`, `swift build --product pg-cluster`; or `make test-grpc`),
then from the root:

    .build/venv/bin/python Tests/GRPC/grpc_client_test.py [--database both|sqlite|postgres] [--postgres URL] [-k PATTERN]
"""

import collections
import json
import queue
import re
import tempfile
import sys
import threading
import time
import unittest
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
from harness import WAIT, http, record, rest_execute, short  # noqa: E402

stubs = harness.load_stubs()

import grpc  # noqa: E402
from google.protobuf import empty_pb2, json_format  # noqa: E402
from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: E402

V1 = "google.firebase.dataconnect.v1"
V1BETA = "google.firebase.dataconnect.v1beta"
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$")
STAR_WARS = "252ff53aa8075c12840b96bff4798d7b"  # seeded (dashed in seed_data.gql)
CALLS_AT_SHUTDOWN = 200
HEAVY = {"title": "no title holds this", "limit": 1}  # searchMovies: `contains` on title and description, a scan


class Outcome(collections.namedtuple("Outcome", "code details response")):
    """A unary call's end: the status, its message and the decoded response (None unless OK)."""

    @property
    def body(self):
        return json_format.MessageToDict(self.response) if self.response is not None else None

    @property
    def data(self):
        return json_format.MessageToDict(self.response.data) if self.response.HasField("data") else None


def invoke(label, method, request, token=None, timeout=WAIT, metadata=()):
    """Calls a unary method (a stub attribute or a raw multicallable) and records the outcome."""
    metadata = list(metadata) + ([("x-firebase-auth-token", token)] if token else [])
    try:
        response = method(request, metadata=metadata, timeout=timeout)
    except grpc.RpcError as error:
        record(label, f"{error.code().name}: {short(error.details() or '')}")
        return Outcome(error.code(), error.details() or "", None)
    record(label, f"OK {short(json_format.MessageToDict(response))}")
    return Outcome(grpc.StatusCode.OK, "", response)


class Stream:
    """One ConnectorStreamService/Connect call: requests go through a queue, responses are read by a thread."""

    def __init__(self, channel, version=stubs.v1, metadata=(), label="stream"):
        self.version = version
        self.label = label
        self.requests = queue.Queue()
        self.responses = queue.Queue()
        self.backlog = []
        self.ended = None  # (code, details) once the call ended
        stub = version.stream_grpc.ConnectorStreamServiceStub(channel)
        self.call = stub.Connect(self._outgoing(), metadata=list(metadata))
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _outgoing(self):
        while True:
            request = self.requests.get()
            if request is None:
                return
            yield request

    def _read(self):
        try:
            for response in self.call:
                self.responses.put(response)
            self.ended = (grpc.StatusCode.OK, "")
        except grpc.RpcError as error:
            self.ended = (error.code(), error.details() or "")
        self.responses.put(None)

    def send(self, kind=None, operation=None, variables=None, **fields):
        """Sends a StreamRequest: `kind` is subscribe, execute, resume or cancel (None: no kind)."""
        request = self.version.stream.StreamRequest(**fields)
        if kind in ("subscribe", "execute"):
            getattr(request, kind).CopyFrom(
                self.version.stream.ExecuteRequest(operation_name=operation, variables=harness.struct(variables or {})))
        elif kind == "resume":
            request.resume.SetInParent()
        elif kind == "cancel":
            request.cancel.CopyFrom(empty_pb2.Empty())
        shown = {k: ("…" if k == "headers" else v) for k, v in fields.items()}
        record(f"{self.label} > {kind or 'no kind'} {operation or ''} {short(variables or {}, 60)} {shown}", "sent")
        self.requests.put(request)

    def next(self, request_id=None, guard=WAIT):
        """The next response (for `request_id` when given; others wait in the backlog). None when the call ended."""
        for index, response in enumerate(self.backlog):
            if request_id is None or response.request_id == request_id:
                return self.backlog.pop(index)
        deadline = time.monotonic() + guard
        while True:
            try:
                response = self.responses.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"{self.label}: no response for {request_id!r} within {guard} s (hang guard)")
            if response is None:
                self.responses.put(None)
                record(f"{self.label} < end of call", f"{self.ended[0].name} {short(self.ended[1])}")
                return None
            summary = json_format.MessageToDict(response)
            record(f"{self.label} < response {response.request_id!r}", short(summary, 200))
            if request_id is None or response.request_id == request_id:
                return response
            self.backlog.append(response)

    def close(self):
        self.requests.put(None)

    def cancel(self):
        self.call.cancel()


def data_of(response):
    return json_format.MessageToDict(response.data) if response.HasField("data") else None


def codes_of(response):
    return [stubs.code.Code.Name(e.extensions.code) for e in response.errors]


def wait_until(description, predicate, guard=WAIT):
    """Polls `predicate` until true; a hang guard, not a timing expectation."""
    deadline = time.monotonic() + guard
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{description}: not within {guard} s (hang guard)")
        time.sleep(0.05)


def raw_h2_call(target, path, headers, body):
    """One HTTP/2 request with prior knowledge, by hand (the `h2` package), for what grpcio never sends: returns
    (response headers, DATA bytes, trailers); a trailers-only answer's grpc-status is in the response headers."""
    import socket

    import h2.config
    import h2.connection
    import h2.events

    host, port = target.rsplit(":", 1)
    connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    received, data, trailers = {}, b"", {}
    with socket.create_connection((host, int(port)), timeout=WAIT) as sock:
        connection.initiate_connection()
        stream = connection.get_next_available_stream_id()
        connection.send_headers(stream, [(":method", "POST"), (":scheme", "http"), (":authority", target),
                                         (":path", path)] + headers)
        connection.send_data(stream, body, end_stream=True)
        sock.sendall(connection.data_to_send())
        ended = False
        while not ended:
            chunk = sock.recv(65536)  # the socket's timeout is the hang guard
            if not chunk:
                break
            for event in connection.receive_data(chunk):
                if isinstance(event, h2.events.ResponseReceived):
                    received = dict(event.headers)
                elif isinstance(event, h2.events.DataReceived):
                    data += event.data
                    connection.acknowledge_received_data(event.flow_controlled_length, stream)
                elif isinstance(event, h2.events.TrailersReceived):
                    trailers = dict(event.headers)
                elif isinstance(event, (h2.events.StreamEnded, h2.events.StreamReset)):
                    ended = True
            sock.sendall(connection.data_to_send())
    record(f"raw HTTP/2 POST {path} {[h for h in headers if h[0] != 'te']} body {len(body)} bytes",
           f"{received.get(':status')} grpc-status {trailers.get('grpc-status', received.get('grpc-status'))} "
           f"{short(trailers.get('grpc-message', received.get('grpc-message', '')))}")
    return received, data, trailers


class GrpcTestCase(unittest.TestCase):
    """An emulator serving Backend/movies (seeded) and one grpcio channel to it."""

    emulator = None

    @classmethod
    def setUpClass(cls):
        cls.emulator = harness.start_emulator("movies")
        cls.channel = harness.grpc_channel(cls.emulator)
        cls.v1 = stubs.v1.service_grpc.ConnectorServiceStub(cls.channel)
        cls.v1beta = stubs.v1beta.service_grpc.ConnectorServiceStub(cls.channel)

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        if cls.emulator is not None:
            code = cls.emulator.stop()
            record("SIGTERM the emulator (end of class)", f"exit status {code}")

    def setUp(self):
        harness.set_current_test(self.id().rsplit(".", 1)[-1])

    def request(self, kind, operation, variables=None, service="movies", connector="movies", version=stubs.v1, name=None):
        message = version.service.ExecuteQueryRequest if kind == "query" else version.service.ExecuteMutationRequest
        request = message(name=name if name is not None else harness.connector_name(service, connector),
                          operation_name=operation)
        if variables is not None:
            request.variables.CopyFrom(harness.struct(variables))
        return request

    def query(self, operation, variables=None, token=None, stub=None, timeout=WAIT, **names):
        request = self.request("query", operation, variables if variables is not None else {}, **names)
        method = (stub or self.v1).ExecuteQuery
        return invoke(f"ExecuteQuery {operation} {short(variables or {}, 80)}", method, request, token, timeout)

    def mutation(self, operation, variables=None, token=None, stub=None, **names):
        request = self.request("mutation", operation, variables if variables is not None else {}, **names)
        method = (stub or self.v1).ExecuteMutation
        return invoke(f"ExecuteMutation {operation} {short(variables or {}, 80)}", method, request, token)

    def ok(self, outcome):
        self.assertEqual(outcome.code, grpc.StatusCode.OK, outcome.details)
        self.assertEqual(list(outcome.response.errors), [], outcome.body)
        return outcome.data

    def grpc_info(self):
        info = self.emulator.info()
        self.assertIn("grpc", info, f"/emulator/info has no grpc section: {short(info, 400)}")
        return info["grpc"]


class ConnectorTests(GrpcTestCase):
    def test_01_health(self):
        stub = health_pb2_grpc.HealthStub(self.channel)
        for service in ("", f"{V1}.ConnectorService", f"{V1}.ConnectorStreamService"):
            response = invoke(f"Health/Check service={service!r}", stub.Check,
                              health_pb2.HealthCheckRequest(service=service))
            self.assertEqual(response.code, grpc.StatusCode.OK, response.details)
            self.assertEqual(response.response.status, health_pb2.HealthCheckResponse.SERVING)
        unknown = invoke("Health/Check service='no.such.Service'", stub.Check,
                         health_pb2.HealthCheckRequest(service="no.such.Service"))
        self.assertEqual(unknown.code, grpc.StatusCode.NOT_FOUND)

    def test_02_reflection(self):
        from google.protobuf.descriptor_pool import DescriptorPool
        from grpc_reflection.v1alpha import reflection_pb2
        from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

        database = ProtoReflectionDescriptorDatabase(self.channel)
        services = set(database.get_services())
        record("ProtoReflectionDescriptorDatabase.get_services() (grpc.reflection.v1alpha)", sorted(services))
        expected = {f"{V1}.ConnectorService", f"{V1}.ConnectorStreamService", f"{V1BETA}.ConnectorService",
                    f"{V1BETA}.ConnectorStreamService", "grpc.health.v1.Health"}
        self.assertTrue(expected <= services, sorted(expected - services))
        pool = DescriptorPool(database)
        service = pool.FindServiceByName(f"{V1}.ConnectorService")
        methods = {m.name: (m.input_type.full_name, m.output_type.full_name) for m in service.methods}
        record(f"DescriptorPool(reflection).FindServiceByName({V1}.ConnectorService)", methods)
        self.assertEqual(methods, {"ExecuteQuery": (f"{V1}.ExecuteQueryRequest", f"{V1}.ExecuteQueryResponse"),
                                   "ExecuteMutation": (f"{V1}.ExecuteMutationRequest", f"{V1}.ExecuteMutationResponse")})
        stream = pool.FindServiceByName(f"{V1}.ConnectorStreamService").methods_by_name["Connect"]
        self.assertTrue(stream.client_streaming and stream.server_streaming)
        # The served descriptors carry the field numbers of the protos the stubs come from.
        for local in (stubs.v1.service.ExecuteQueryRequest, stubs.v1.service.ExecuteMutationResponse,
                      stubs.v1.stream.StreamRequest, stubs.v1.stream.StreamResponse, stubs.v1.errors.GraphqlError,
                      stubs.v1.errors.GraphqlErrorExtensions, stubs.v1.extensions.DataConnectProperties):
            remote = pool.FindMessageTypeByName(local.DESCRIPTOR.full_name)
            fields = lambda d: {f.name: (f.number, f.type) for f in d.fields}  # noqa: E731
            self.assertEqual(fields(remote), fields(local.DESCRIPTOR), local.DESCRIPTOR.full_name)
        # The v1 reflection service: its messages are the v1alpha ones, field for field.
        v1 = self.channel.stream_stream("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                                        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
                                        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString)
        try:
            answers = list(v1(iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=WAIT))
        except grpc.RpcError as error:
            record("grpc.reflection.v1 ServerReflectionInfo list_services", f"{error.code().name}: {error.details()}")
            raise
        listed = {s.name for a in answers for s in a.list_services_response.service}
        record("grpc.reflection.v1 ServerReflectionInfo list_services", sorted(listed))
        self.assertTrue(expected <= listed, sorted(expected - listed))

    def test_03_query_variables_of_every_scalar_kind(self):
        tag = uuid.uuid4().hex[:8]
        genre = f"Grpc-{tag}"
        extras = {"awards": ["Best Test", 2], "nested": {"n": 1.5, "flag": True, "nothing": None}, "count": 3}
        created = self.ok(self.mutation("createMovieWithMetadata", {
            "title": f"Scalars {tag}",  # String
            "releaseYear": 1999,  # Int (a Struct number: a double that must be integral)
            "genre": genre,
            "rating": 4,
            "aspectratio": "ACADEMY",  # enum, by name
            "tags": ["grpc", f"tag-{tag}"],  # [String!]
            "releaseDate": "1999-03-31",  # Date
            "durationHours": 2.25,  # Float
            "budget": "9007199254740993",  # Int64 as a string: 2^53 + 1, not representable as a double
            "extras": extras,  # Any
        }))
        movie_id = created["movie_insert"]["id"]
        self.assertRegex(movie_id, r"^[0-9a-f]{32}$")
        self.assertIsNotNone(created["movieMetadata_insert"])
        dashed = str(uuid.UUID(movie_id))
        for shown in (movie_id, dashed.upper()):  # UUID variables: dashless, or dashed in any case
            movie = self.ok(self.query("getMovieById", {"id": shown}))["movie"]
            self.assertEqual(movie["id"], movie_id)
        self.assertEqual(movie["title"], f"Scalars {tag}")
        self.assertEqual((movie["releaseYear"], movie["rating"], movie["aspectratio"]), (1999, 4, "ACADEMY"))
        self.assertEqual(movie["tags"], ["grpc", f"tag-{tag}"])
        self.assertIs(movie["isClassic"], False)  # Boolean (output only: no movies operation takes one)
        self.assertRegex(movie["createdAt"], TIMESTAMP)  # Timestamp (output only, as Boolean)
        metadata = movie["metadata"]
        self.assertEqual(metadata["releaseDate"], "1999-03-31")
        self.assertEqual(metadata["durationHours"], 2.25)
        self.assertEqual(metadata["budget"], "9007199254740993")
        self.assertEqual(metadata["extras"], extras)
        self.assertEqual(self.ok(self.query("getMovieByKey", {"key": {"id": movie_id}}))["movie"]["title"],
                         f"Scalars {tag}")  # an input object
        found = self.ok(self.query("searchMovies", {"genre": genre, "minYear": 1990, "maxYear": 2000, "minRating": 4,
                                                    "limit": 5}))["movies"]
        self.assertEqual([m["id"] for m in found], [movie_id])
        self.assertEqual(self.ok(self.query("searchMovies", {"genre": genre, "minYear": 2000}))["movies"], [])
        self.assertEqual([m["id"] for m in self.ok(self.query("listMoviesByTag", {"tag": f"tag-{tag}"}))["movies"]],
                         [movie_id])
        paged = self.ok(self.query("listMoviesPaged", {"orderByRating": "DESC", "limit": 3}))["movies"]  # enum
        self.assertEqual(len(paged), 3)
        self.assertEqual(paged[0]["rating"], 5)
        # Entity ids come with the result (Backend/movies has clientCache), as REST's extensions.dataConnect.
        outcome = self.query("getMovieById", {"id": movie_id})
        properties = outcome.response.extensions.data_connect
        self.assertEqual(properties[0].entity_id, f"Movie/{movie_id}")
        self.assertEqual(stubs.v1.extensions.Action.Name(properties[0].action), "GET")
        # A non-integral number for an Int is refused as REST refuses it.
        self.assert_refused_like_rest("query", "searchMovies", {"minYear": 1990.5}, grpc.StatusCode.INVALID_ARGUMENT)

    def test_04_mutations(self):
        tag = uuid.uuid4().hex[:8]
        outcome = self.mutation("createMovie", {"title": f"Mutated {tag}", "releaseYear": 2001, "genre": f"Grpc-{tag}",
                                                "rating": 2})
        movie_id = self.ok(outcome)["movie_insert"]["id"]
        first = outcome.response.extensions.data_connect[0]
        self.assertEqual((json_format.MessageToDict(first.path), stubs.v1.extensions.Action.Name(first.action)),
                         (["movie_insert"], "CREATE"))
        updated = self.mutation("updateMovie", {"id": movie_id, "title": f"Renamed {tag}", "tags": ["a", "b"],
                                                "aspectratio": "ANAMORPHIC"})
        self.assertEqual(self.ok(updated)["movie_update"], {"id": movie_id})
        self.assertEqual(stubs.v1.extensions.Action.Name(updated.response.extensions.data_connect[0].action), "UPDATE")
        self.ok(self.mutation("bumpMovieRating", {"id": movie_id}))
        movie = self.ok(self.query("getMovieById", {"id": movie_id}))["movie"]
        self.assertEqual((movie["title"], movie["rating"], movie["tags"], movie["aspectratio"]),
                         (f"Renamed {tag}", 3, ["a", "b"], "ANAMORPHIC"))
        deleted = self.mutation("deleteMovie", {"id": movie_id})
        self.assertEqual(self.ok(deleted)["movie_delete"], {"id": movie_id})
        self.assertEqual(stubs.v1.extensions.Action.Name(deleted.response.extensions.data_connect[0].action), "DELETE")
        self.assertEqual(self.ok(self.mutation("deleteMovie", {"id": movie_id})), {"movie_delete": None})
        self.assertEqual(self.ok(self.query("getMovieById", {"id": movie_id})), {"movie": None})
        # Field errors travel in `errors` with status OK, as REST's 200 with errors.
        uid = f"grpc-taken-{tag}"
        clash = self.mutation("upsertUser", {"username": "alice"}, token=harness.unsigned_token(uid))  # seeded name
        self.assertEqual(clash.code, grpc.StatusCode.OK, clash.details)
        self.assertEqual(codes_of(clash.response), ["ALREADY_EXISTS"])
        self.assertEqual(json_format.MessageToDict(clash.response.errors[0].path), ["user_upsert"])
        self.assertEqual(clash.data, {"user_upsert": None})
        checked = self.mutation("updateMyReviewText", {"movieId": STAR_WARS, "text": "x"},
                                token=harness.unsigned_token(uid))
        self.assertEqual(checked.code, grpc.StatusCode.OK, checked.details)
        # A failed @check is a field error; in a @transaction the later field is aborted.
        self.assertEqual(codes_of(checked.response), ["PERMISSION_DENIED", "ABORTED"])
        self.assertEqual(checked.response.errors[0].message, "no review of yours")

    def test_05_auth_metadata(self):
        self.assert_refused_like_rest("mutation", "upsertUser", {"username": "nobody"},
                                      grpc.StatusCode.UNAUTHENTICATED)
        self.assert_refused_like_rest("query", "getCurrentUser", {}, grpc.StatusCode.UNAUTHENTICATED)
        uid, token, _ = harness.sign_up(self.emulator)
        name = f"grpc-{uid[:10]}"
        self.assertEqual(self.ok(self.mutation("upsertUser", {"username": name}, token=token)),
                         {"user_upsert": {"id": uid}})
        me = self.ok(self.query("getCurrentUser", token=token))["user"]
        self.assertEqual((me["id"], me["username"]), (uid, name))
        # The JS SDK's emulator tokens (alg: none) are accepted the same way.
        sub = f"grpc-none-{uuid.uuid4().hex[:8]}"
        unsigned = harness.unsigned_token(sub)
        self.assertEqual(self.ok(self.mutation("upsertUser", {"username": sub}, token=unsigned)),
                         {"user_upsert": {"id": sub}})
        # A token that is no JWT is refused before the operation runs, as REST refuses it.
        self.assert_refused_like_rest("query", "listMovies", {}, grpc.StatusCode.UNAUTHENTICATED, token="not-a-jwt")

    def test_06_request_level_statuses(self):
        name = harness.connector_name
        cases = [
            ("unknown operation", "query", "noSuchOperation", {}, {}, grpc.StatusCode.NOT_FOUND),
            ("unknown connector", "query", "listMovies", {}, {"connector": "nope"}, grpc.StatusCode.NOT_FOUND),
            ("unknown service", "query", "listMovies", {}, {"service": "nope"}, grpc.StatusCode.NOT_FOUND),
            ("bad UUID", "query", "getMovieById", {"id": "not-a-uuid"}, {}, grpc.StatusCode.INVALID_ARGUMENT),
            ("missing variable", "query", "getMovieById", {}, {}, grpc.StatusCode.INVALID_ARGUMENT),
            ("wrong type", "query", "listMoviesByGenre", {"genre": 12}, {}, grpc.StatusCode.INVALID_ARGUMENT),
            ("unknown enum value", "query", "listMoviesPaged", {"orderByRating": "SIDEWAYS"}, {},
             grpc.StatusCode.INVALID_ARGUMENT),
            ("mutation via ExecuteQuery", "query", "createMovie",
             {"title": "x", "releaseYear": 1, "genre": "x", "rating": 1}, {}, grpc.StatusCode.INVALID_ARGUMENT),
            ("query via ExecuteMutation", "mutation", "listMovies", {}, {}, grpc.StatusCode.INVALID_ARGUMENT),
            ("empty operation_name", "query", "", {}, {}, grpc.StatusCode.INVALID_ARGUMENT),
        ]
        for label, kind, operation, variables, names, expected in cases:
            with self.subTest(label):
                record(f"-- {label}", expected.name)
                self.assert_refused_like_rest(kind, operation, variables, expected, **names)
        # A name that is no connector resource name.
        malformed = invoke("ExecuteQuery listMovies name='movies'", self.v1.ExecuteQuery,
                           self.request("query", "listMovies", {}, name="movies"))
        self.assertIn(malformed.code, (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND), malformed.details)
        # Unknown methods and services are UNIMPLEMENTED (the gRPC status for a path nobody serves).
        raw = stubs.v1.service.ExecuteQueryRequest(name=name(), operation_name="listMovies")
        for path in (f"/{V1}.ConnectorService/ExecuteSomething", "/no.such.Service/Method",
                     f"/{V1}.NoSuchService/ExecuteQuery"):
            method = self.channel.unary_unary(path, request_serializer=type(raw).SerializeToString,
                                              response_deserializer=stubs.v1.service.ExecuteQueryResponse.FromString)
            self.assertEqual(invoke(path, method, raw).code, grpc.StatusCode.UNIMPLEMENTED)
        # After all that, the channel still serves.
        self.ok(self.query("getMovieByKey", {"key": {"id": STAR_WARS}}))

    def assert_refused_like_rest(self, kind, operation, variables, expected, token=None, service="movies",
                                 connector="movies"):
        """The gRPC call ends with `expected`, and REST answers the same request with that status name."""
        request = self.request(kind, operation, variables, service=service, connector=connector)
        method = self.v1.ExecuteQuery if kind == "query" else self.v1.ExecuteMutation
        outcome = invoke(f"{'ExecuteQuery' if kind == 'query' else 'ExecuteMutation'} {operation!r} "
                         f"{short(variables, 60)} {service}/{connector}", method, request, token)
        status, body = rest_execute(self.emulator, kind, operation, variables, token, service, connector)
        rest_status = body.get("error", {}).get("status") if isinstance(body, dict) else None
        self.assertEqual(outcome.code, expected, outcome.details)
        self.assertEqual(rest_status, expected.name, f"REST answered {status} {short(body)}")
        self.assertTrue(outcome.details, "a refusal carries a grpc-message")
        rest_message = body["error"].get("message")
        record("   grpc-message equals REST error.message", outcome.details == rest_message)
        return outcome

    def test_06b_transport_answers(self):
        grpc_headers = [("content-type", "application/grpc"), ("te", "trailers")]
        path = f"/{V1}.ConnectorService/ExecuteQuery"
        message = self.request("query", "listMovies", {}).SerializeToString()

        def status(answer):
            headers, _, trailers = answer
            return trailers.get("grpc-status", headers.get("grpc-status"))

        # The same call grpcio makes, by hand: OK.
        framed = b"\0" + len(message).to_bytes(4, "big") + message
        self.assertEqual(status(raw_h2_call(self.emulator.target, path, grpc_headers, framed)), "0")
        # A message with the compressed flag and no negotiated grpc-encoding.
        compressed = b"\1" + len(message).to_bytes(4, "big") + message
        self.assertIn(status(raw_h2_call(self.emulator.target, path, grpc_headers, compressed)), ("12", "13"))
        # Bytes that are no ExecuteQueryRequest.
        garbage = b"\xff\xff\xff\xff"
        garbage = b"\0" + len(garbage).to_bytes(4, "big") + garbage
        self.assertEqual(status(raw_h2_call(self.emulator.target, path, grpc_headers, garbage)), "3")
        # HTTP/2 that is not gRPC is not served as a call.
        headers, _, trailers = raw_h2_call(self.emulator.target, path, [("content-type", "application/json")], b"{}")
        self.assertNotEqual((headers.get(":status"), status((headers, b"", trailers))), ("200", "0"))
        # A grpc-message with non-ASCII text arrives percent-encoded and grpcio decodes it back.
        outcome = self.query("nicht-gefunden-ü")
        self.assertEqual(outcome.code, grpc.StatusCode.NOT_FOUND)
        self.assertIn("nicht-gefunden-ü", outcome.details)

    def test_07_permission_denied(self):
        library = harness.start_emulator("library", backend=harness.LIBRARY, seed=f"{harness.LIBRARY}/seed_data.gql")
        channel = grpc.insecure_channel(library.target)
        try:
            stub = stubs.v1.service_grpc.ConnectorServiceStub(channel)

            def call(connector, operation, token=None):
                request = self.request("query", operation, {}, service="library", connector=connector)
                outcome = invoke(f"library ExecuteQuery {connector}/{operation}", stub.ExecuteQuery, request, token)
                status, body = rest_execute(library, "query", operation, {}, token, "library", connector)
                return outcome, (body.get("error", {}).get("status") if status != 200 else "OK")

            member = harness.unsigned_token("uid-ada")
            librarian = harness.unsigned_token("uid-ben", librarian=True)
            for connector, operation, token, expected in (
                ("kiosk", "countClosed", None, grpc.StatusCode.PERMISSION_DENIED),  # @auth(level: NO_ACCESS)
                ("kiosk", "countClosed", librarian, grpc.StatusCode.PERMISSION_DENIED),
                ("kiosk", "countUnmarked", None, grpc.StatusCode.PERMISSION_DENIED),  # no @auth at all
                ("lending", "librarianLoans", member, grpc.StatusCode.PERMISSION_DENIED),  # @auth(expr:) false
                ("lending", "librarianLoans", None, grpc.StatusCode.PERMISSION_DENIED),  # reads auth, nobody signed in
                ("lending", "librarianLoans", librarian, grpc.StatusCode.OK),
            ):
                with self.subTest(f"{connector}/{operation} token={token is not None}"):
                    outcome, rest = call(connector, operation, token)
                    self.assertEqual(outcome.code, expected, outcome.details)
                    self.assertEqual(rest, expected.name)
        finally:
            channel.close()
            record("SIGTERM the library emulator", f"exit status {library.stop()}")

    def test_08_deadline(self):
        # A 1 ms deadline on a heavy query (a title search scanning 20,000 more rows): DEADLINE_EXCEEDED, whichever
        # side noticed first.
        self.ensure_filler()
        # grpcio's own 1 ms deadline: it fails the call itself when its timer fires first, but on a loaded machine an
        # answer the server made within the 1 ms it was given can be read before the client's timer runs. So the
        # client side may only end DEADLINE_EXCEEDED or with the right answer; the server's side is checked strictly
        # below, with grpc-timeout sent by hand.
        outcome = self.query("searchMovies", HEAVY, timeout=0.001)
        self.assertIn(outcome.code, (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.OK), outcome.details)
        if outcome.code == grpc.StatusCode.OK:
            self.assertEqual(outcome.data, {"movies": []})
        # The server's side, sent by hand so that no client timer decides: grpc-timeout 1n (1 ns), a deadline that has
        # passed before any work can start, so the answer cannot depend on how fast the database is (on PostgreSQL the
        # title search can be index-served and end within 1 ms).
        request = self.request("query", "searchMovies", HEAVY).SerializeToString()
        framed = b"\0" + len(request).to_bytes(4, "big") + request
        headers, _, trailers = raw_h2_call(self.emulator.target, f"/{V1}.ConnectorService/ExecuteQuery",
                                           [("content-type", "application/grpc"), ("te", "trailers"),
                                            ("grpc-timeout", "1n")], framed)
        self.assertEqual(trailers.get("grpc-status", headers.get("grpc-status")), "4")
        # The same from 10 connections at once, 10 calls each: every one past its deadline, none answered OK.
        from concurrent.futures import ThreadPoolExecutor

        def timed_out(_):
            headers, _, trailers = raw_h2_call(self.emulator.target, f"/{V1}.ConnectorService/ExecuteQuery",
                                               [("content-type", "application/grpc"), ("te", "trailers"),
                                                ("grpc-timeout", "1n")], framed)
            return trailers.get("grpc-status", headers.get("grpc-status"))

        with ThreadPoolExecutor(10) as pool:
            statuses = collections.Counter(pool.map(timed_out, range(100)))
        record("100 raw calls with grpc-timeout 1n from 10 threads", dict(statuses))
        self.assertEqual(statuses, {"4": 100})
        many = [self.v1.ExecuteQuery.future(self.request("query", "searchMovies", HEAVY), timeout=0.001)
                for _ in range(10)]
        codes = collections.Counter(f.exception().code().name if f.exception() else "OK" for f in many)
        record("10 x ExecuteQuery searchMovies (scan) with a 1 ms deadline (futures)", dict(codes))
        self.assertLessEqual(set(codes), {"DEADLINE_EXCEEDED", "OK"})
        self.ok(self.query("getMovieById", {"id": STAR_WARS}))  # the server goes on serving
        wait_until("callsInFlight back to 0 after the expired calls", lambda: self.grpc_info()["callsInFlight"] == 0)

    def test_09_cancellation(self):
        cancelled = 0
        for attempt in range(20):
            future = self.v1.ExecuteQuery.future(self.request("query", "getMovieById", {"id": STAR_WARS}),
                                                 timeout=WAIT)
            if future.cancel():  # False when the answer came first: then try again
                cancelled += 1
                self.assertTrue(future.cancelled())
                self.assertEqual(future.code(), grpc.StatusCode.CANCELLED)
                with self.assertRaises(grpc.FutureCancelledError):
                    future.result(timeout=WAIT)
                record(f"ExecuteQuery getMovieById future.cancel() (attempt {attempt + 1})",
                       f"cancelled, code {future.code().name}")
                break
            record(f"ExecuteQuery getMovieById future.cancel() (attempt {attempt + 1})", "already answered")
        self.assertEqual(cancelled, 1, "no call could be cancelled before its answer in 20 attempts")
        # A stream cancelled by the client while its subscription is live.
        stream = Stream(self.channel, label="cancelled stream")
        stream.send("subscribe", "listMoviesByGenre", {"genre": "Sci-Fi"}, name=harness.connector_name(),
                    request_id="1")
        self.assertTrue(data_of(stream.next("1"))["movies"])
        stream.cancel()
        self.assertIsNone(stream.next())
        self.assertEqual(stream.ended[0], grpc.StatusCode.CANCELLED)
        self.ok(self.query("getMovieById", {"id": STAR_WARS}))  # the server keeps serving
        wait_until("callsInFlight back to 0 after the cancellations", lambda: self.grpc_info()["callsInFlight"] == 0)

    def test_10_concurrent_calls_on_one_channel(self):
        before = self.grpc_info()
        outcomes = self.concurrent_calls("light: getMovieByKey", "getMovieByKey", {"key": {"id": STAR_WARS}})
        peak = self.grpc_info()["peakCallsInFlight"]
        record("peakCallsInFlight after 100 light calls", peak)
        if peak < 100 and harness.DATABASES["current"].kind == "postgres":
            # The light calls end before the last ones start. On PostgreSQL, honestly and without timing: another
            # session holds an exclusive lock on the movie table, so every call waits in the database (or for one
            # of the emulator's connections) until all 100 are open, then the lock goes.
            outcomes = self.concurrent_calls("held: getMovieByKey behind a table lock", "getMovieByKey",
                                             {"key": {"id": STAR_WARS}}, hold=True)
            peak = self.grpc_info()["peakCallsInFlight"]
            record("peakCallsInFlight after 100 calls held by the lock", peak)
        elif peak < 100:
            # On SQLite (in the emulator's process, no other session can lock it): heavier calls. With 100,000 more
            # movies, a title search no index serves scans every row (no row matches, so the answers stay small):
            # tens of milliseconds per call, seconds for the 100 on two cores, while grpcio sends all 100 within
            # tens of milliseconds, so the server holds all of them at once.
            # The server may run those calls on both cores at once, so the first can end before grpcio has sent the
            # last: the peak is a high-water mark, and another round of 100 may raise it.
            self.ensure_filler(100_000)
            for attempt in range(1, 4):
                outcomes = self.concurrent_calls("heavy: searchMovies title scan", "searchMovies", HEAVY)
                peak = self.grpc_info()["peakCallsInFlight"]
                record(f"peakCallsInFlight after 100 heavy calls (round {attempt})", peak)
                if peak >= 100:
                    break
        self.assertEqual(len(outcomes), 100)
        self.assertGreaterEqual(peak, 100)
        after = self.grpc_info()
        record("/emulator/info grpc after", short(after, 300))
        self.assertGreaterEqual(after["callsStarted"] - before["callsStarted"], 100)
        wait_until("callsInFlight back to 0", lambda: self.grpc_info()["callsInFlight"] == 0)

    def concurrent_calls(self, label, operation, variables, hold=False):
        lock = self.lock_movie_table() if hold else None
        futures = [self.v1.ExecuteQuery.future(self.request("query", operation, variables), timeout=WAIT)
                   for _ in range(100)]
        if lock is not None:
            held = wait_until("100 calls in flight behind the lock",
                              lambda: (n := self.grpc_info()["callsInFlight"]) >= 100 and n)
            record("callsInFlight while the lock is held", held)
            lock.communicate("COMMIT;\n", timeout=WAIT)
            record("psql COMMIT (the lock goes)", f"exit status {lock.returncode}")
        answers = [f.result() for f in futures]  # raises on any non-OK call
        distinct = {a.SerializeToString(deterministic=True) for a in answers}
        record(f"100 x ExecuteQuery {operation} as futures on one channel ({label})",
               f"{len(answers)} OK, {len(distinct)} distinct answer(s)")
        self.assertEqual(len(distinct), 1)
        return answers

    def lock_movie_table(self):
        """PostgreSQL: a psql session holding ACCESS EXCLUSIVE on the movie table until it is sent COMMIT."""
        import select
        import subprocess

        session = subprocess.Popen(["psql", self.emulator.database_url, "-qAt", "-v", "ON_ERROR_STOP=1"],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        session.stdin.write("BEGIN; LOCK TABLE movie IN ACCESS EXCLUSIVE MODE; SELECT 'locked';\n")
        session.stdin.flush()
        ready, _, _ = select.select([session.stdout], [], [], WAIT)  # a hang guard
        line = session.stdout.readline().strip() if ready else ""
        if line != "locked":
            session.kill()
            raise AssertionError(f"psql did not take the lock: {line!r} {session.stderr.read() if not ready else ''}")
        record("psql BEGIN; LOCK TABLE movie IN ACCESS EXCLUSIVE MODE", "locked")
        return session

    def ensure_filler(self, count=20_000):
        """At least `count` more movies in this emulator, so that HEAVY scans them all."""
        filled = getattr(type(self), "filled", 0)
        for start in range(filled, count, 2_000):
            rows = ", ".join(f'{{title: "Filler {n}", releaseYear: {1900 + n % 120}, genre: "Filler", rating: 3}}'
                             for n in range(start, min(count, start + 2_000)))
            harness.admin_graphql(self.emulator, f"mutation {{ movie_insertMany(data: [{rows}]) }}")
        if count > filled:
            record(f"admin executeGraphql movie_insertMany x {count - filled} (filler, {count} in all)", "OK")
            type(self).filled = count

    def test_11_v1beta(self):
        outcome = self.query("getMovieByKey", {"key": {"id": STAR_WARS}}, stub=self.v1beta, version=stubs.v1beta)
        self.assertEqual(self.ok(outcome), {"movie": {"id": STAR_WARS, "title": "Star Wars"}})
        self.assertEqual(outcome.response.extensions.data_connect[0].entity_id, f"Movie/{STAR_WARS}")
        refused = self.query("noSuchOperation", stub=self.v1beta, version=stubs.v1beta)
        self.assertEqual(refused.code, grpc.StatusCode.NOT_FOUND)
        tag = uuid.uuid4().hex[:8]
        created = self.mutation("createMovie", {"title": f"Beta {tag}", "releaseYear": 2002, "genre": "Beta",
                                                "rating": 1}, stub=self.v1beta, version=stubs.v1beta)
        self.assertIn("id", self.ok(created)["movie_insert"])
        stream = Stream(self.channel, version=stubs.v1beta, label="v1beta stream")
        try:
            stream.send("subscribe", "getMovieByKey", {"key": {"id": STAR_WARS}}, name=harness.connector_name(),
                        request_id="b1")
            self.assertEqual(data_of(stream.next("b1"))["movie"]["title"], "Star Wars")
        finally:
            stream.cancel()


class StreamTests(GrpcTestCase):
    def subscribe_genre(self, stream, request_id, genre, first=True, **fields):
        if first:
            fields.setdefault("name", harness.connector_name())
        stream.send("subscribe", "listMoviesByGenre", {"genre": genre}, request_id=request_id, **fields)

    def create(self, genre, title, via_rest=False, stream=None, request_id=None):
        variables = {"title": title, "releaseYear": 2020, "genre": genre, "rating": 3}
        if via_rest:
            status, body = rest_execute(self.emulator, "mutation", "createMovie", variables)
            self.assertEqual(status, 200, body)
            return body["data"]["movie_insert"]["id"]
        if stream is not None:
            stream.send("execute", "createMovie", variables, request_id=request_id)
            response = stream.next(request_id)
            self.assertEqual(list(response.errors), [])
            return data_of(response)["movie_insert"]["id"]
        return self.ok(self.mutation("createMovie", variables))["movie_insert"]["id"]

    def titles(self, response):
        return sorted(m["title"] for m in data_of(response)["movies"])

    def test_01_subscribe_execute_push_cancel(self):
        genre = f"Stream-{uuid.uuid4().hex[:8]}"
        stream = Stream(self.channel)
        try:
            self.subscribe_genre(stream, "1", genre)
            first = stream.next("1")
            self.assertEqual((data_of(first), list(first.errors), first.cancelled), ({"movies": []}, [], False))
            self.assertTrue(first.data_etag)
            # An execute on the same stream: answered under its id; the subscription sees the new row.
            self.create(genre, "On the stream", stream=stream, request_id="2")
            self.assertEqual(self.titles(stream.next("1")), ["On the stream"])
            # A REST mutation by another client is pushed too.
            self.create(genre, "Over REST", via_rest=True)
            pushed = stream.next("1")
            self.assertEqual(self.titles(pushed), ["On the stream", "Over REST"])
            self.assertNotEqual(pushed.data_etag, first.data_etag)
            self.assertEqual(stubs.v1.extensions.Action.Name(pushed.extensions.data_connect[0].action), "LIST")
            # A query executed on the stream carries its etag.
            stream.send("execute", "listMoviesByGenre", {"genre": genre}, request_id="3")
            executed = stream.next("3")
            self.assertEqual((self.titles(executed), executed.data_etag), (self.titles(pushed), pushed.data_etag))
            # resume: the current result again; with the current etag, the etag without data.
            stream.send("resume", request_id="1")
            self.assertEqual(self.titles(stream.next("1")), ["On the stream", "Over REST"])
            stream.send("resume", request_id="1", data_etag=pushed.data_etag)
            same = stream.next("1")
            self.assertEqual((same.HasField("data"), same.data_etag), (False, pushed.data_etag))
            # cancel: nothing is answered; the subscription is gone (a resume of it is NOT_FOUND).
            stream.send("cancel", request_id="1")
            self.create(genre, "After the cancel", via_rest=True)
            stream.send("resume", request_id="1")
            gone = stream.next("1")
            if not gone.errors:
                # The mutation came on another connection: when the server ran it before reading the cancel,
                # its push comes first, before the resume's answer (a busy machine).
                self.assertEqual(self.titles(gone), ["After the cancel", "On the stream", "Over REST"])
                gone = stream.next("1")
            self.assertEqual(codes_of(gone), ["NOT_FOUND"])
            # A second subscribe under a live id is ALREADY_EXISTS, and the live one goes on.
            self.subscribe_genre(stream, "4", genre, first=False)
            self.assertEqual(len(data_of(stream.next("4"))["movies"]), 3)
            self.subscribe_genre(stream, "4", "Other", first=False)
            duplicate = stream.next("4")
            self.assertEqual(codes_of(duplicate), ["ALREADY_EXISTS"])
            stream.send("cancel", request_id="4")
        finally:
            stream.close()
        self.assertIsNone(stream.next())  # the client half-closed: the server ends the call
        self.assertEqual(stream.ended[0], grpc.StatusCode.OK, stream.ended)

    def test_02_resume_after_reconnect_with_data_etag(self):
        genre = f"Reconnect-{uuid.uuid4().hex[:8]}"
        self.create(genre, "Before")
        stream = Stream(self.channel, label="first connection")
        self.subscribe_genre(stream, "q|0", genre)
        known = stream.next("q|0")
        self.assertEqual(self.titles(known), ["Before"])
        stream.cancel()  # the connection drops
        self.assertIsNone(stream.next())
        again = Stream(self.channel, label="second connection")
        try:
            # Re-subscribing with the etag the client holds: the unchanged first result is not sent again, so
            # the first response to come is the one after the next change.
            self.subscribe_genre(again, "q|0", genre, data_etag=known.data_etag)
            self.create(genre, "After", via_rest=True)
            self.assertEqual(self.titles(again.next("q|0")), ["After", "Before"])
        finally:
            again.cancel()

    def test_03_ios_handshake_and_token_refresh(self):
        uid, token, refresh = harness.sign_up(self.emulator)
        name = f"ios-{uid[:10]}"
        self.ok(self.mutation("upsertUser", {"username": name}, token=token))
        stream = Stream(self.channel, label="iOS-style stream")
        try:
            # The iOS client opens with only name and request_id (no kind): no answer to it.
            stream.send(name=harness.connector_name(), request_id="handshake|0",
                        headers={"x-firebase-auth-token": token, "x-client-version": "ios/11.12.6"})
            stream.send("subscribe", "getCurrentUser", {}, request_id="me|0")
            first = stream.next()
            self.assertEqual(first.request_id, "me|0")  # the handshake got nothing
            self.assertEqual(data_of(first)["user"]["username"], name)
            # A headers-only message refreshes the token for the same user: the subscription goes on.
            fresh = harness.refresh_token(self.emulator, refresh)
            stream.send(headers={"x-firebase-auth-token": fresh})
            status, body = rest_execute(self.emulator, "mutation", "upsertUser", {"username": name + "-2"}, fresh)
            self.assertEqual(status, 200, body)
            pushed = stream.next("me|0")
            self.assertEqual((data_of(pushed)["user"]["username"], pushed.cancelled), (name + "-2", False))
            stream.send("execute", "upsertUser", {"username": name + "-3"}, request_id="rename|1")
            self.assertEqual(data_of(stream.next("rename|1")), {"user_upsert": {"id": uid}})
            self.assertEqual(data_of(stream.next("me|0"))["user"]["username"], name + "-3")
            # Signing out (an empty token) ends the subscription that needs a user.
            stream.send(headers={"x-firebase-auth-token": ""})
            ended = stream.next("me|0")
            self.assertTrue(ended.cancelled)
            self.assertEqual(codes_of(ended), ["UNAUTHENTICATED"])
        finally:
            stream.cancel()

    def test_05_one_hub_for_every_wire_and_every_process(self):
        """A mutation over gRPC reaches a WebSocket subscriber and a gRPC one; on PostgreSQL, a mutation on a second
        emulator process sharing the database reaches this one's gRPC subscriber (the change feed)."""
        import websocket

        genre = f"Wires-{uuid.uuid4().hex[:8]}"
        stream = Stream(self.channel, label="gRPC subscriber")
        path = "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/p/locations/l/services/movies"
        socket = websocket.create_connection(self.emulator.url.replace("http://", "ws://") + path, timeout=WAIT)
        record(f"WebSocket GET {path}", "open")
        try:
            self.subscribe_genre(stream, "g", genre)
            self.assertEqual(data_of(stream.next("g")), {"movies": []})
            socket.send(json.dumps({"name": harness.connector_name(), "requestId": "w",
                                    "subscribe": {"operationName": "listMoviesByGenre",
                                                  "variables": {"genre": genre}}}))
            first = json.loads(socket.recv())["result"]
            self.assertEqual((first["requestId"], first["data"]), ("w", {"movies": []}))
            # a mutation over gRPC: both wires hear of it
            self.create(genre, "Over gRPC")
            self.assertEqual(self.titles(stream.next("g")), ["Over gRPC"])
            pushed = json.loads(socket.recv())["result"]
            record("WebSocket push after the gRPC mutation", short(pushed))
            self.assertEqual(sorted(m["title"] for m in pushed["data"]["movies"]), ["Over gRPC"])
            if not self.emulator.database_url:
                record("second emulator on the same database", "not applicable: in-memory SQLite is one process's")
                return
            other = harness.Emulator(
                Path(tempfile.mkdtemp(prefix="dataconnect-grpc-second-")), database_url=self.emulator.database_url
            ).start()
            try:
                status, body = rest_execute(other, "mutation", "createMovie",
                                            {"title": "From another process", "releaseYear": 2020, "genre": genre,
                                             "rating": 3})
                self.assertEqual(status, 200, body)
                self.assertEqual(self.titles(stream.next("g")), ["From another process", "Over gRPC"])
                pushed = json.loads(socket.recv())["result"]
                self.assertEqual(sorted(m["title"] for m in pushed["data"]["movies"]),
                                 ["From another process", "Over gRPC"])
            finally:
                record("SIGTERM the second emulator", f"exit status {other.stop()}")
        finally:
            socket.close()
            stream.cancel()

    def test_04_auth_metadata_on_the_call(self):
        sub = f"grpc-meta-{uuid.uuid4().hex[:8]}"
        token = harness.unsigned_token(sub)
        self.ok(self.mutation("upsertUser", {"username": sub}, token=token))
        stream = Stream(self.channel, metadata=[("x-firebase-auth-token", token)], label="stream with metadata")
        try:
            stream.send("subscribe", "getCurrentUser", {}, name=harness.connector_name(), request_id="1")
            self.assertEqual(data_of(stream.next("1"))["user"]["id"], sub)
        finally:
            stream.cancel()
        anonymous = Stream(self.channel, label="stream without a token")
        try:
            anonymous.send("subscribe", "getCurrentUser", {}, name=harness.connector_name(), request_id="1")
            refused = anonymous.next("1")
            self.assertEqual((codes_of(refused), refused.cancelled), (["UNAUTHENTICATED"], True))
        finally:
            anonymous.cancel()


class InfoTests(GrpcTestCase):
    def test_01_info_and_console(self):
        self.ok(self.query("getMovieByKey", {"key": {"id": STAR_WARS}}))
        info = self.emulator.info()
        record("GET /emulator/info grpc, protocols", short({"grpc": info.get("grpc"), "protocols": info.get("protocols")}, 400))
        grpc_info = info["grpc"]
        for key in ("services", "callsInFlight", "peakCallsInFlight", "callsStarted", "connections"):
            self.assertIn(key, grpc_info)
        self.assertTrue({f"{V1}.ConnectorService", f"{V1}.ConnectorStreamService"} <= set(grpc_info["services"]))
        self.assertGreaterEqual(grpc_info["callsStarted"], 1)
        self.assertGreaterEqual(grpc_info["connections"], 1)
        self.assertIn("grpc", short(info["protocols"], 10_000).lower())
        status, body = http("GET", self.emulator.url + "/emulator/console/requests")
        self.assertEqual(status, 200, body)
        records = body if isinstance(body, list) else body.get("requests", [])
        served = [r for r in records if r.get("protocol") == "grpc"]
        record("GET /emulator/console/requests", f"{len(records)} records, {len(served)} with protocol grpc; last "
               f"{short(served[-1] if served else None)}")
        self.assertTrue(any(r.get("operation") == "getMovieByKey" and r.get("code") == "OK" for r in served))


class ShutdownTests(GrpcTestCase):
    def test_sigterm_with_calls_in_flight(self):
        genre = f"Shutdown-{uuid.uuid4().hex[:8]}"
        for start in range(0, 20_000, 2_000):  # as ensure_filler: HEAVY then scans 20,000 more rows
            filler = ", ".join(f'{{title: "Filler {n}", genre: "Filler", releaseYear: 2000, rating: 1}}'
                               for n in range(start, start + 2_000))
            harness.admin_graphql(self.emulator, f"mutation {{ movie_insertMany(data: [{filler}]) }}")
        stream = Stream(self.channel, label="stream at shutdown")
        stream.send("subscribe", "listMoviesByGenre", {"genre": genre}, name=harness.connector_name(), request_id="1")
        self.assertEqual(data_of(stream.next("1")), {"movies": []})
        futures = [self.v1.ExecuteQuery.future(self.request("query", "searchMovies", HEAVY), timeout=WAIT)
                   for _ in range(CALLS_AT_SHUTDOWN)]
        # The stream and some of the calls are open (a guard: 200 scans take the server well over a second).
        in_flight = wait_until("calls in flight before the SIGTERM",
                               lambda: (n := self.grpc_info()["callsInFlight"]) >= 2 and n)
        process = self.emulator.process
        process.send_signal(harness.signal.SIGTERM)
        record(f"SIGTERM the emulator ({CALLS_AT_SHUTDOWN} calls sent, callsInFlight {in_flight} just before)",
               "sent")
        try:
            code = process.wait(timeout=harness.START_GUARD)
        except harness.subprocess.TimeoutExpired:
            process.kill()
            self.fail(f"the emulator did not exit within {harness.START_GUARD} s of SIGTERM (hang guard)")
        record("emulator exit", f"status {code}")
        codes = collections.Counter()
        for future in futures:
            error = future.exception(timeout=WAIT)
            codes[error.code().name if error else "OK"] += 1
        record(f"the {CALLS_AT_SHUTDOWN} calls ended with", dict(codes))
        self.assertEqual(set(codes) - {"OK", "UNAVAILABLE"}, set())
        cancelled = False
        while (response := stream.next()) is not None:
            cancelled = cancelled or response.cancelled
        record("the stream ended with", f"{'a cancelled: true response, then ' if cancelled else ''}{stream.ended}")
        self.assertIn(stream.ended[0], (grpc.StatusCode.OK, grpc.StatusCode.UNAVAILABLE), stream.ended)
        self.assertEqual(code, 0)


def main():
    options = harness.arguments(__doc__.splitlines()[0])
    success = harness.run_suites(sys.modules[__name__], options, f"gRPC client (grpcio {grpc.__version__})")
    sys.exit(0 if success else 1)


if __name__ == "__main__":
    main()
