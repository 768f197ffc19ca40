import DataConnectWire
import EmulatorTesting
import SQLiteKit
import Testing

@testable import DataConnectEngine

/// Field errors and their codes, partial results, `@transaction`, `@check`/`@redact`, and request-level
/// failures (variables, unknown operations).
@Suite(.onBothDatabases) struct ExecutionErrorTests {
    static let operations = """
        mutation AddUser($id: String!, $name: String!) @auth(level: PUBLIC) { user_insert(data: {id: $id, username: $name}) }
        mutation AddReview($movieId: UUID!) @auth(level: PUBLIC) { review_insert(data: {movieId: $movieId, userId: "u1"}) }
        mutation AddMovie($title: String) @auth(level: PUBLIC) { movie_insert(data: {title: $title}) }
        mutation AddPerson($name: String!) @auth(level: PUBLIC) { person_insert(data: {name: $name}) }
        mutation AddGenre($genre: Genre) @auth(level: PUBLIC) { movie_insert(data: {title: "G", genre: $genre}) }
        mutation ThreeUsers @auth(level: PUBLIC) {
          first: user_insert(data: {id: "u3", username: "carol"})
          second: user_insert(data: {id: "u4", username: "alice"})
          third: user_insert(data: {id: "u5", username: "dave"})
        }
        mutation ThreeUsersAtomically @auth(level: PUBLIC) @transaction {
          first: user_insert(data: {id: "u3", username: "carol"})
          second: user_insert(data: {id: "u4", username: "alice"})
          third: user_insert(data: {id: "u5", username: "dave"})
        }
        mutation RenameReviewed($id: UUID!, $title: String!) @auth(level: USER) @transaction {
          query @redact {
            review(key: {movieId: $id, userId_expr: "auth.uid"}) @check(expr: "this != null", message: "not your review") { rating }
          }
          movie_update(id: $id, data: {title: $title})
        }
        mutation AddHiddenMovie($title: String!) @auth(level: PUBLIC) @transaction {
          movie_insert(data: {title: $title}) @redact
          check: query {
            movies(where: {id: {eq_expr: "response.movie_insert.id"}}) @check(expr: "this.size() == 1", message: "not inserted") { title }
          }
          movieMetadata_insert(data: {movieId_expr: "response.movie_insert.id", language: "it"})
        }
        query GuardedMovies($genre: Genre!) @auth(level: PUBLIC) {
          movies(where: {genre: {eq: $genre}}) @check(expr: "this.size() > 1", message: "too few") { title }
        }
        query Page($limit: Int, $id: UUID) @auth(level: PUBLIC) { movies(limit: $limit, where: {id: {eq: $id}}) { title } }
        """

    @Test func reportsUniqueViolationsAsAlreadyExists() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when: "alice" is taken
        let result = backend.mutation("AddUser", ["id": "u9", "name": "alice"])

        // then
        #expect(result.status == .ok)
        #expect(result.data == json(#"{"user_insert": null}"#))
        #expect(result.errors.count == 1)
        #expect(result.errors.first?["path"] == ["user_insert"])
        #expect(result.errors.first?["extensions"]?["code"] == "ALREADY_EXISTS")
    }

    @Test func reportsForeignKeyViolationsAsFailedPrecondition() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.mutation("AddReview", ["movieId": "ffffffffffffffffffffffffffffffff"])

        // then
        #expect(result.data == json(#"{"review_insert": null}"#))
        #expect(result.errors.first?["path"] == ["review_insert"])
        #expect(result.errors.first?["extensions"]?["code"] == "FAILED_PRECONDITION")
    }

    @Test func reportsNotNullAndCheckViolationsAsInvalidArgument() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when: a null title, and a name longer than varchar(20)
        let nullTitle = backend.mutation("AddMovie", ["title": nil])
        let longName = backend.mutation("AddPerson", ["name": "A name much longer than twenty"])

        // then
        #expect(nullTitle.data == json(#"{"movie_insert": null}"#))
        #expect(nullTitle.errors.first?["extensions"]?["code"] == "INVALID_ARGUMENT")
        #expect(longName.data == json(#"{"person_insert": null}"#))
        #expect(longName.errors.first?["extensions"]?["code"] == "INVALID_ARGUMENT")
        #expect(try backend.rows(#"SELECT count(*) FROM "People""#) == [[.integer(3)]])
    }

    @Test func rejectsAnUnknownEnumValueBeforeRunning() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.mutation("AddGenre", ["genre": "HORROR"])

        // then: a request-level 400 naming the variable; nothing ran
        #expect(result.status == .invalidArgument)
        #expect(result.requestErrorMessage?.contains("$genre") == true)
        #expect(result.sql.isEmpty)
    }

    @Test func keepsGoingAfterAFailedFieldWithoutTransaction() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.mutation("ThreeUsers")

        // then
        #expect(result.data == json(#"{"first": {"id": "u3"}, "second": null, "third": {"id": "u5"}}"#))
        #expect(result.errors.count == 1)
        #expect(result.errors.first?["path"] == ["second"])
        #expect(result.errors.first?["extensions"]?["code"] == "ALREADY_EXISTS")
        #expect(
            try backend.rows(#"SELECT id FROM "user" ORDER BY id"#) == [
                [.text("u1")], [.text("u2")], [.text("u3")], [.text("u5")],
            ])
    }

    @Test func rollsEverythingBackInATransaction() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.mutation("ThreeUsersAtomically")

        // then
        #expect(result.data == json(#"{"first": null, "second": null, "third": null}"#))
        #expect(result.errors.map { $0["path"] } == [["first"], ["second"], ["third"]])
        #expect(result.errors[0]["message"] == "(rolled back)")
        #expect(result.errors[1]["extensions"]?["code"] == "ALREADY_EXISTS")
        #expect(result.errors[2]["message"] == "(aborted)")
        #expect(try backend.rows(#"SELECT id FROM "user" ORDER BY id"#) == [[.text("u1")], [.text("u2")]])
    }

    @Test func passesACheckAndRedactsTheGuard() throws {
        // given: alice reviewed Inception
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.mutation(
            "RenameReviewed", ["id": .string(EngineFixtures.inception), "title": "Inception (2010)"],
            auth: EngineFixtures.alice)

        // then
        #expect(result.errors.isEmpty, "\(result.body)")
        #expect(result.data == json(#"{"movie_update": {"id": "a0000000000000000000000000000001"}}"#))
        #expect(
            try backend.rows("SELECT title FROM movie WHERE id = '\(EngineFixtures.inception)'") == [
                [.text("Inception (2010)")]
            ])
    }

    @Test func failsACheckWithItsMessageAndAbortsTheRest() throws {
        // given: bob did not review Barbie
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.mutation(
            "RenameReviewed", ["id": .string(EngineFixtures.barbie), "title": "Ken"], auth: EngineFixtures.bob)

        // then
        #expect(result.errorSummaries == ["query PERMISSION_DENIED not your review", "movie_update ABORTED (aborted)"])
        #expect(result.data?["movie_update"] == .null)
        #expect(
            try backend.rows("SELECT title FROM movie WHERE id = '\(EngineFixtures.barbie)'") == [[.text("Barbie")]])
    }

    @Test func redactsAFieldThatLaterFieldsAndChecksStillSee() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.mutation("AddHiddenMovie", ["title": "Hidden"])

        // then: movie_insert is gone from the response, but its id reached the nested check and the metadata
        #expect(result.errors.isEmpty, "\(result.body)")
        #expect(result.data?.objectValue?.keys == ["check", "movieMetadata_insert"])
        #expect(result.data?["check"] == json(#"{"movies": [{"title": "Hidden"}]}"#))
        #expect(
            try backend.rows(
                "SELECT m.title FROM movie_metadata AS d JOIN movie AS m ON m.id = d.movie_id WHERE d.language = 'it'")
                == [[.text("Hidden")]])
    }

    @Test func failsAQueryWhoseCheckFails() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let passing = backend.query("GuardedMovies", ["genre": "DRAMA"])
        let failing = backend.query("GuardedMovies", ["genre": "COMEDY"])

        // then
        #expect(passing.data == json(#"{"movies": [{"title": "Little Women"}, {"title": "Cleo from 5 to 7"}]}"#))
        #expect(failing.status == .ok)
        #expect(failing.data == .null)
        #expect(failing.errorSummaries == [" PERMISSION_DENIED too few"])
    }

    @Test(arguments: [
        (["limit": "ten"] as JSONObject, "$limit", "Int"),
        (["limit": 3_000_000_000] as JSONObject, "$limit", "Int"),
        (["id": "not-a-uuid"] as JSONObject, "$id", "UUID"),
        (["id": 42] as JSONObject, "$id", "UUID"),
    ])
    func rejectsVariablesOfTheWrongType(_ variables: JSONObject, _ name: String, _ type: String) throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("Page", variables)

        // then: a request-level 400 whose message names the variable and its type
        #expect(result.status == .invalidArgument)
        let message = try #require(result.requestErrorMessage)
        #expect(message.contains(name) && message.contains(type), "\(message)")
        #expect(result.sql.isEmpty)
    }

    @Test func rejectsAMissingRequiredVariable() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("GuardedMovies")

        // then
        #expect(result.status == .invalidArgument)
        #expect(result.requestErrorMessage?.contains("$genre") == true)
    }

    @Test func answersNotFoundForAnUnknownOperation() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("NoSuchQuery")

        // then
        #expect(result.status == .notFound)
        #expect(result.requestErrorMessage == #"operation "NoSuchQuery" not found"#)
    }
}
