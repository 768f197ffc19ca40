#!/usr/bin/python3
"""Every operation of Backend/movies' connector over REST and over gRPC: the same answers, field for field.

Each operation runs with suitable variables over REST (urllib, POST `…/connectors/movies:executeQuery` or
`:executeMutation`) and over gRPC (grpcio, stubs generated from Packages/DataConnectKit/Protos, decoded with
`json_format.MessageToDict`), and `data`, `errors` and `extensions` are compared after the normalisations below,
which are the known differences of representation and nothing else:

1. Numbers: a `google.protobuf.Struct` holds every number as a double (Int, Float, list indices in `path`), JSON
   keeps `1977` an integer. Every number on both sides is compared as a float (booleans stay booleans).
2. Proto3 default values are not on the wire: an empty `errors` list, an empty `extensions.dataConnect`, an
   unset `data` (REST's `"data": null`), an empty `path`, and, inside errors and dataConnect entries, empty strings
   and lists and the zero enum values (`ACTION_UNSPECIFIED`, `WARNING_LEVEL_UNKNOWN`) are dropped on both sides.
3. Enums: MessageToDict writes enum values by name (`GET`, `LIST`, `ALREADY_EXISTS`), as REST does: nothing to do.
4. Keys: MessageToDict writes the proto fields' lowerCamel JSON names (`dataConnect`, `entityId`, `debugDetails`),
   REST's spelling, and keeps `Struct` keys as they are: nothing to do.

Queries run on one state, REST then gRPC, so their answers must be identical. Each mutation runs twice on the same
fresh state (POST /emulator/clear, the seed again through the admin API, the same fixture rows with fixed ids):
once over REST, once over gRPC. Keys the server generates in that run (the `id`s under `…_insert` in `data`, which
also appear in entity ids) differ between the two runs by nature, so each side's generated ids are replaced with
`<generated:field>` before comparing; that is fixture identity, not representation. After each mutation the catalogue
totals (`getCatalogueStats`) are compared as well. Operations that need a signed-in user are also called without a
token, and the refusals compared: gRPC status name against REST `error.status`, and the messages.

Every operation of the connector's .gql files must have variables here: a new operation without them fails the run.
Counts are printed at the end (operations compared, identical, differing; refusals compared, identical).

    .build/venv/bin/python Tests/GRPC/differential_test.py [--database both|sqlite|postgres] [--postgres URL]
"""

import difflib
import json
import re
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
from harness import ROOT, WAIT, http, record, short  # noqa: E402

stubs = harness.load_stubs()

import grpc  # noqa: E402
from google.protobuf import json_format  # noqa: E402

STAR_WARS = "252ff53a-a807-5c12-840b-96bff4798d7b"
ALIEN = "17dbe1ae-39cd-5b7c-b0d9-127c66401864"
HARRISON_FORD = "61016af0-2d8c-5b95-b5b0-c96404e0e9b7"
UNRATED = ["d1ff0000-0000-4000-8000-000000000001", "d1ff0000-0000-4000-8000-000000000002"]
USER = "uid-emeka"  # seeded: a review of Alien, Star Wars among the favorites
TOKEN = harness.unsigned_token(USER)

# Rows every fresh state has besides the seed: two movies without a rating (for deleteUnratedMovies) and a review
# written today (for listRecentReviews), all with fixed keys.
FIXTURE = f"""mutation @transaction {{
  movie_insertMany(data: [
    {{id: "{UNRATED[0]}", title: "Unrated One", releaseYear: 1960, genre: "Drama"}},
    {{id: "{UNRATED[1]}", title: "Unrated Two", releaseYear: 2019, genre: "Drama"}}])
  review_upsert(data: {{movieId: "{STAR_WARS}", userId: "uid-alice", rating: 4, text: "Seen again today.",
                        reviewDate_date: {{today: true}}}})
}}"""

# (operation, variables, needs a signed-in user)
QUERIES = [
    ("listMovies", {}, False),
    ("getMovieByKey", {"key": {"id": STAR_WARS}}, False),
    ("listMoviesByGenre", {"genre": "Sci-Fi"}, False),
    ("getMovieById", {"id": STAR_WARS}, False),
    ("getMovieByTitle", {"title": "Alien"}, False),
    ("searchMovies", {"title": "the", "minYear": 1970, "maxYear": 2010, "minRating": 3, "excludedGenres": ["Drama"],
                      "limit": 10}, False),
    ("listMoviesPaged", {"orderByRating": "DESC", "orderByReleaseYear": "ASC", "limit": 7, "offset": 3}, False),
    ("listMoviesByTag", {"tag": "space"}, False),
    ("listMoviesByDirector", {"name": "Ridley Scott"}, False),
    ("listHighlyReviewedMovies", {"minRating": 5}, False),
    ("listGenreStats", {}, False),
    ("getCatalogueStats", {}, False),
    ("listActors", {"limit": 10}, False),
    ("getActorById", {"id": HARRISON_FORD}, False),
    ("listDirectors", {}, False),
    ("listRecentReviews", {"limit": 5}, False),
    ("getCurrentUser", {}, True),
    ("listMyReviews", {}, True),
    ("getMyFavorite", {"movieId": STAR_WARS}, True),
]
MUTATIONS = [
    ("createMovie", {"title": "Differential", "releaseYear": 2024, "genre": "Test", "rating": 3}, False),
    ("createMovieWithMetadata", {"title": "Differential Meta", "releaseYear": 2023, "genre": "Test", "rating": 4,
                                 "aspectratio": "ACADEMY", "tags": ["x", "y"], "releaseDate": "2023-02-28",
                                 "durationHours": 1.75, "budget": "9007199254740993",
                                 "extras": {"a": [1, "two", None], "b": {"c": True}}}, False),
    ("updateMovie", {"id": STAR_WARS, "title": "Star Wars: A New Hope", "tags": ["space"], "aspectratio": "ACADEMY"},
     False),
    ("bumpMovieRating", {"id": ALIEN}, False),
    ("deleteMovie", {"id": STAR_WARS}, False),
    ("markClassicsBefore", {"year": 1980}, True),
    ("deleteUnratedMovies", {}, True),
    ("createActor", {"name": "Differential Actor", "birthDate": "1990-01-02"}, False),
    ("addActorToMovie", {"movieId": ALIEN, "actorId": HARRISON_FORD, "role": "supporting"}, False),
    ("upsertUser", {"username": "emeka-renamed"}, True),
    ("addReview", {"movieId": STAR_WARS, "rating": 2, "text": "Differently good."}, True),
    ("updateReview", {"movieId": ALIEN, "rating": 4, "text": "Still a masterpiece."}, True),
    ("updateMyReviewText", {"movieId": ALIEN, "text": "Only the text."}, True),
    ("deleteReview", {"movieId": ALIEN}, True),
    ("addFavoritedMovie", {"movieId": ALIEN}, True),
    ("deleteFavoritedMovie", {"movieId": STAR_WARS}, True),
]
# A mutation whose field fails (a duplicate username), so that field errors are compared too.
FIELD_ERRORS = [("upsertUser", {"username": "alice"}, True)]

COUNTS = {}  # database -> counters


def connector_operations():
    """Every (kind, name) the movies connector's .gql files declare."""
    found = set()
    for path in sorted((ROOT / "Backend" / "movies" / "connector").glob("*.gql")):
        text = re.sub(r"#[^\n]*", "", path.read_text())
        found |= set(re.findall(r"\b(query|mutation)\s+([A-Za-z_]\w*)", text))
    return found


# --------------------------------------------------------------------------------------------------------------
# Normalisation (see the module's docstring)

def numbers_as_floats(value):
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, list):
        return [numbers_as_floats(v) for v in value]
    return {k: numbers_as_floats(v) for k, v in value.items()}


DEFAULT_ENUMS = {"ACTION_UNSPECIFIED", "WARNING_LEVEL_UNKNOWN"}


def without_defaults(entry):
    """An error or dataConnect entry without proto3 default values (empty strings, lists, zero enums)."""
    if not isinstance(entry, dict):
        return entry
    kept = {}
    for key, value in entry.items():
        if value in ("", [], None) or (isinstance(value, str) and value in DEFAULT_ENUMS):
            continue
        kept[key] = without_defaults(value) if isinstance(value, dict) else value
    return {k: v for k, v in kept.items() if v != {}}


def normalised(body):
    body = body or {}
    extensions = body.get("extensions") or {}
    return numbers_as_floats({
        "data": body.get("data"),
        "errors": [without_defaults(e) for e in body.get("errors") or []],
        "extensions": {"dataConnect": [without_defaults(e) for e in extensions.get("dataConnect") or []]},
    })


def generated_ids_replaced(body):
    """Each `id` under a `…_insert` root field (generated by the server in this run) becomes `<generated:field>`
    (named by its field: a Struct's map order is not REST's key order)."""
    ids = {}
    for field, value in ((body or {}).get("data") or {}).items():
        if field.endswith("_insert") and isinstance(value, dict) and isinstance(value.get("id"), str):
            ids[field] = value["id"]
    text = json.dumps(body, sort_keys=True)
    for field, generated in ids.items():
        text = text.replace(generated, f"<generated:{field}>")
    return json.loads(text)


# --------------------------------------------------------------------------------------------------------------

class DifferentialTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.emulator = harness.start_emulator("differential")
        cls.channel = harness.grpc_channel(cls.emulator)
        cls.stub = stubs.v1.service_grpc.ConnectorServiceStub(cls.channel)
        cls.seed = (ROOT / harness.MOVIES_SEED).read_text()
        cls.counts = COUNTS.setdefault(harness._current["database"], {
            "operations compared": 0, "identical": 0, "differing": 0, "refusals compared": 0,
            "refusals identical": 0, "differences": []})

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        record("SIGTERM the emulator", f"exit status {cls.emulator.stop()}")

    def setUp(self):
        harness.set_current_test(self.id().rsplit(".", 1)[-1])

    def reset(self):
        status, body = http("POST", self.emulator.url + "/emulator/clear", {})
        self.assertEqual(status, 200, body)
        harness.admin_graphql(self.emulator, self.seed)
        harness.admin_graphql(self.emulator, FIXTURE)

    def rest(self, kind, operation, variables, token):
        status, body = harness.rest_execute(self.emulator, kind, operation, variables, token)
        if status == 200:
            return "OK", body
        return body.get("error", {}).get("status"), body.get("error", {}).get("message")

    def grpc(self, kind, operation, variables, token):
        message = stubs.v1.service.ExecuteQueryRequest if kind == "query" else stubs.v1.service.ExecuteMutationRequest
        request = message(name=harness.connector_name(), operation_name=operation,
                          variables=harness.struct(variables))
        method = self.stub.ExecuteQuery if kind == "query" else self.stub.ExecuteMutation
        metadata = [("x-firebase-auth-token", token)] if token else []
        label = f"gRPC {'ExecuteQuery' if kind == 'query' else 'ExecuteMutation'} {operation} {short(variables, 80)}"
        try:
            response = method(request, metadata=metadata, timeout=WAIT)
        except grpc.RpcError as error:
            record(label, f"{error.code().name}: {short(error.details() or '')}")
            return error.code().name, error.details()
        body = json_format.MessageToDict(response)
        record(label, f"OK {short(body, 100)}")
        return "OK", body

    def compare(self, label, rest, grpc_):
        self.counts["operations compared"] += 1
        if rest == grpc_:
            self.counts["identical"] += 1
            record(f"== {label}", "identical")
            return
        self.counts["differing"] += 1
        left = json.dumps(rest, indent=1, sort_keys=True).splitlines()
        right = json.dumps(grpc_, indent=1, sort_keys=True).splitlines()
        diff = "\n".join(difflib.unified_diff(left, right, "REST", "gRPC", lineterm="", n=2))
        self.counts["differences"].append((label, diff))
        record(f"!= {label}", short(diff.replace("\n", " | "), 300))

    def compare_refusal(self, kind, operation, variables):
        rest = self.rest(kind, operation, variables, None)
        grpc_ = self.grpc(kind, operation, variables, None)
        self.counts["refusals compared"] += 1
        same = rest == grpc_
        self.counts["refusals identical"] += same
        record(f"{'==' if same else '!='} refusal of {operation} without a token", f"REST {rest} / gRPC {grpc_}")
        self.assertEqual(rest[0], "UNAUTHENTICATED")
        self.assertEqual(grpc_[0], rest[0])

    def test_0_every_operation_is_listed(self):
        listed = {("query", o) for o, _, _ in QUERIES} | {("mutation", o) for o, _, _ in MUTATIONS}
        declared = connector_operations()
        record("operations in Backend/movies/connector/*.gql", f"{len(declared)} ({len(listed)} listed here)")
        self.assertEqual(declared - listed, set(), "operations without variables in this test")
        self.assertEqual(listed - declared, set(), "listed operations the connector does not declare")

    def test_1_queries(self):
        self.reset()
        for operation, variables, needs_user in QUERIES:
            with self.subTest(operation):
                token = TOKEN if needs_user else None
                rest = self.rest("query", operation, variables, token)
                grpc_ = self.grpc("query", operation, variables, token)
                self.assertEqual((rest[0], grpc_[0]), ("OK", "OK"), short([rest, grpc_], 600))
                self.assertTrue(rest[1].get("data"), f"{operation} answered no data: {short(rest[1])}")
                self.compare(f"query {operation}", normalised(rest[1]), normalised(grpc_[1]))
                if needs_user:
                    self.compare_refusal("query", operation, variables)

    def test_2_mutations(self):
        for operation, variables, needs_user in MUTATIONS + FIELD_ERRORS:
            with self.subTest(f"{operation} {short(variables, 40)}"):
                token = TOKEN if needs_user else None
                answers, totals = {}, {}
                for side, call in (("REST", self.rest), ("gRPC", self.grpc)):
                    self.reset()
                    answers[side] = call("mutation", operation, variables, token)
                    self.assertEqual(answers[side][0], "OK", short(answers[side], 600))
                    totals[side] = call("query", "getCatalogueStats", {}, None)
                rest, grpc_ = (normalised(generated_ids_replaced(answers[s][1])) for s in ("REST", "gRPC"))
                self.compare(f"mutation {operation} {short(variables, 40)}", rest, grpc_)
                self.compare(f"  getCatalogueStats after {operation}", normalised(totals["REST"][1]),
                             normalised(totals["gRPC"][1]))
                if needs_user:
                    self.reset()
                    self.compare_refusal("mutation", operation, variables)

    def test_3_no_differences(self):
        differences = self.counts["differences"]
        self.assertEqual([label for label, _ in differences], [], "\n\n".join(diff for _, diff in differences))
        self.assertEqual(self.counts["refusals compared"], self.counts["refusals identical"])


def summary():
    print("\nREST/gRPC differential counts:")
    for database, counts in COUNTS.items():
        print(f"  {database}: {counts['operations compared']} answers compared ({len(QUERIES)} queries, "
              f"{len(MUTATIONS) + len(FIELD_ERRORS)} mutation runs and their totals), {counts['identical']} identical, "
              f"{counts['differing']} differing; {counts['refusals compared']} refusals compared, "
              f"{counts['refusals identical']} identical (status and message)")
        for label, diff in counts["differences"]:
            print(f"\n  differs: {label}\n" + "\n".join("    " + line for line in diff.splitlines()))


def main():
    options = harness.arguments(__doc__.splitlines()[0])
    success = harness.run_suites(sys.modules[__name__], options, "REST/gRPC differential", summary)
    sys.exit(0 if success else 1)


if __name__ == "__main__":
    main()
