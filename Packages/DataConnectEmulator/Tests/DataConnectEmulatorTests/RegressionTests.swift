import DataConnectSQLiteStore
import DataConnectWire
import EmulatorTesting
import Testing

/// Regression tests for emulator bugs the HTTP tests found: float precision, upserts of key-only rows,
/// list `add` with repeated input, and `debugDetails` on field errors.
@Suite(.onBothDatabases) struct RegressionTests {
    // MARK: Float output is rounded to 15 significant digits

    /// A `Float` (double precision) written by a client does not read back as the same double: SQLite's JSON
    /// functions render REAL values with 15 significant digits (`1.2345678901234567` comes back as
    /// `1.23456789012346`). Aggregates too: the average rating of Star Wars, 14/3, comes back as
    /// `4.66666666666667`, not `4.666666666666667`. Postgres (and the real service) output the shortest
    /// round-trip form.
    @Test func floatsReadBackAsTheSameDouble() async throws {
        // given
        let emulator = try Backend.movies.start()
        let client = EmulatorClient(emulator, connector: "movies")
        let duration = 1.2345678901234567

        // when
        let created = try await client.mutation(
            "createMovieWithMetadata",
            [
                "title": "Precise", "releaseYear": 2000, "genre": "Test", "rating": 3,
                "durationHours": .number(JSONNumber(duration)),
            ])
        let id = try #require(created.data?["movie_insert"]?["id"]?.stringValue)
        let movie = try await client.query("getMovieById", ["id": .string(id)])
        let starWars = try await client.query("getMovieById", ["id": "252ff53a-a807-5c12-840b-96bff4798d7b"])

        // then
        #expect(movie.data?["movie"]?["metadata"]?["durationHours"]?.doubleValue == duration, "\(movie)")
        #expect(starWars.data?["movie"]?["reviewStats"]?[0]?["rating_avg"]?.doubleValue == 14.0 / 3.0)
    }

    // MARK: Upserting an existing row that supplies only key columns fails

    /// `favoriteMovie_upsert(data: {userId_expr: "auth.uid", movieId: $movieId})` on an existing favorite answers
    /// `ALREADY_EXISTS: FavoriteMovie already exists` and `null`, though the operation promises "marking it twice
    /// is harmless" and an upsert of an existing key should answer that key. With only key columns supplied,
    /// `SQLiteDialect.upsertClause` emits `ON CONFLICT (...) DO NOTHING`, `RETURNING` then yields no row and
    /// `MutationRunner.insert` reports ALREADY_EXISTS.
    ///
    /// Request: `POST …/connectors/movies:executeMutation`
    /// `{"name": "…", "operationName": "addFavoritedMovie", "variables": {"movieId": "252ff53a-…"}}` with a token
    /// for `uid-zoe`, twice. Second response: `{"data":{"favoriteMovie_upsert":null},"errors":[{"message":
    /// "FavoriteMovie already exists","path":["favoriteMovie_upsert"],"extensions":{"code":"ALREADY_EXISTS"}}]}`.
    @Test func upsertingAnExistingRowWithOnlyKeyColumnsAnswersItsKey() async throws {
        // given
        let emulator = try Backend.movies.start()
        let client = EmulatorClient(emulator, connector: "movies")
        let zoe = TestEmulator.token(uid: "uid-zoe")
        expectData(try await client.mutation("upsertUser", ["username": "zoe"], token: zoe))
        let first = try await client.mutation(
            "addFavoritedMovie", ["movieId": "252ff53a-a807-5c12-840b-96bff4798d7b"], token: zoe)
        expectData(first)

        // when
        let second = try await client.mutation(
            "addFavoritedMovie", ["movieId": "252ff53a-a807-5c12-840b-96bff4798d7b"], token: zoe)

        // then
        #expect(second.status == 200)
        #expect(second.errors.isEmpty, "\(second)")
        #expect(second.data == first.data)
    }

    /// The same bug on the seed: Alice already has Some Like It Hot among her favorites.
    @Test func markingASeededFavoriteAgainIsHarmless() async throws {
        // given
        let emulator = try Backend.movies.start()
        let client = EmulatorClient(emulator, connector: "movies")

        // when
        let result = try await client.mutation(
            "addFavoritedMovie", ["movieId": "96f1fac8-2890-507a-a279-d6ad73e4c1f1"],
            token: TestEmulator.token(uid: "uid-alice"))

        // then
        #expect(result.errors.isEmpty, "\(result)")
        #expect(
            result.data == [
                "favoriteMovie_upsert": ["userId": "uid-alice", "movieId": "96f1fac82890507aa279d6ad73e4c1f1"]
            ])
    }

    // MARK: A list `add` transform adds a value twice when its input repeats it

    /// `tags_update: {add: ["classic", "regency", "regency"]}` on `["classic"]` gives
    /// `["classic", "regency", "regency"]`: `add` appends each value "only if absent" (schema-and-server.md §3.5),
    /// but absence is checked against the stored list only, not against the values added before it in the same
    /// transform. Expected `["classic", "regency"]`.
    ///
    /// Request: `POST …/services/library/connectors/lending:executeMutation` `{"operationName": "tagBook",
    /// "variables": {"isbn": "978-0-14-143955-6", "tags": ["classic", "regency", "regency"]}, …}` with a verified
    /// token; then `getBook` answers `"tags": ["classic", "regency", "regency"]`.
    @Test func listAddSkipsValuesRepeatedInItsOwnInput() async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")
        let staff = TestEmulator.token(uid: "uid-staff", emailVerified: true)

        // when
        let result = try await client.mutation(
            "tagBook", ["isbn": "978-0-14-143955-6", "tags": ["classic", "regency", "regency"]], token: staff)

        // then
        expectData(result)
        let book = try await client.query("getBook", ["isbn": "978-0-14-143955-6"])
        #expect(book.data?["book"]?["tags"] == ["classic", "regency"], "\(book)")
    }

    // MARK: Field errors carry no debugDetails

    /// "Each error has `message` and `path`, plus `extensions.code` and `extensions.debugDetails`. The emulator
    /// always fills `debugDetails` (SQL and CEL detail)" (schema-and-server.md §5.2, client-protocol.md §3.5).
    /// Ours sends only `extensions.code`.
    ///
    /// Request: `POST …/services/library/connectors/lending:executeMutation` `{"operationName": "joinLibrary",
    /// "variables": {"name": "Dora", "email": "ada@example.com"}, …}` with a token for `uid-dora`. Response error:
    /// `{"message":"duplicate key value violates unique constraint: UNIQUE constraint failed: member.email",
    /// "path":["member_upsert"],"extensions":{"code":"ALREADY_EXISTS"}}`.
    @Test func fieldErrorsCarryDebugDetails() async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")

        // when
        let result = try await client.mutation(
            "joinLibrary", ["name": "Dora", "email": "ada@example.com"], token: TestEmulator.token(uid: "uid-dora"))

        // then
        let error = try #require(result.errors.first, "\(result)")
        #expect(error["extensions"]?["code"] == "ALREADY_EXISTS")
        #expect(error["extensions"]?["debugDetails"]?.stringValue?.isEmpty == false, "\(error)")
    }
}

/// Impersonation is an admin feature: a client request cannot name its own caller.
@Suite(.on(.sqlite))  // which HTTP method may impersonate
struct ImpersonationScopeTests {
    @Test func aClientRequestCannotImpersonateAUser() async throws {
        // given: a USER-level query, asked without a token but with impersonated claims
        let emulator = try Backend.movies.start()
        let client = EmulatorClient(emulator, connector: "movies")
        let body: JSONValue = [
            "name": .string(client.resourceName("movies")), "operationName": "getCurrentUser", "variables": [:],
            "extensions": ["impersonate": ["authClaims": ["sub": "uid-alice"]]],
        ]

        // when
        let asClient = try await client.post(emulator.connectorURL("movies", "executeQuery"), json: body)
        let admin = try await client.post(emulator.connectorURL("movies", "impersonateQuery"), json: body)

        // then: refused on the client method, honoured on the admin one
        #expect(asClient.status == 401, "\(asClient)")
        #expect(admin.status == 200, "\(admin)")
    }
}
