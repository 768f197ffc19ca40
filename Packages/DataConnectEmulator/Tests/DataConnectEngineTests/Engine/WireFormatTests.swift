import DataConnectWire
import EmulatorTesting
import SQLiteKit
import Testing

@testable import DataConnectEngine

/// Scalars on the wire (server reference §2.3): what is accepted as input, how it is stored and how it
/// is written back.
@Suite(.onBothDatabases) struct WireFormatTests {
    static let operations = """
        mutation AddMovie(
          $id: UUID!, $title: String! = "Added", $budget: Int64, $releaseDate: Date, $createdAt: Timestamp,
          $extras: Any, $tags: [String!], $isClassic: Boolean
        ) @auth(level: PUBLIC) {
          movie_insert(data: {
            id: $id, title: $title, budget: $budget, releaseDate: $releaseDate, createdAt: $createdAt,
            extras: $extras, tags: $tags, isClassic: $isClassic
          })
        }
        query GetMovie($id: UUID!) @auth(level: PUBLIC) {
          movie(id: $id) { id title budget releaseDate createdAt extras tags isClassic }
        }
        mutation AddRated($id: UUID!, $rating: Float) @auth(level: PUBLIC) {
          movie_insert(data: {id: $id, title: "Rated", rating: $rating})
        }
        mutation AddScores($scores: [Int!]) @auth(level: PUBLIC) { event_insert(data: {name: "scores", scores: $scores, owner: "x"}) }
        query Scores @auth(level: PUBLIC) { events { scores } }
        """

    static let newID = "b0000000000000000000000000000001"

    @Test(arguments: [
        "a0000000000000000000000000000001", "A0000000000000000000000000000001",
        "a0000000-0000-0000-0000-000000000001", "{A0000000-0000-0000-0000-000000000001}",
        "urn:uuid:a0000000-0000-0000-0000-000000000001",
    ])
    func acceptsEveryUUIDFormAndWritesLowercaseHex(_ input: String) throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("GetMovie", ["id": .string(input)])

        // then: bound in canonical form
        expectGoldenSQL(result)
        #expect(result.data?["movie"]?["id"] == "a0000000000000000000000000000001")
    }

    @Test(arguments: [
        (JSONValue.string("9007199254740993"), "9007199254740993"),
        (JSONValue(Int64(9_007_199_254_740_993)), "9007199254740993"),
        (JSONValue.string("-42"), "-42"),
    ])
    func readsInt64FromStringsOrIntegersAndWritesStrings(_ input: JSONValue, _ output: String) throws {
        // given
        let backend = try TestBackend(Self.operations, seeded: false)

        // when
        let insert = backend.mutation("AddMovie", ["id": .string(Self.newID), "budget": input])
        let read = backend.query("GetMovie", ["id": .string(Self.newID)])

        // then: stored as an integer, written as a string
        expectGoldenSQL(read)
        #expect(insert.errors.isEmpty, "\(insert.body)")
        #expect(try backend.rows("SELECT budget FROM movie") == [[.integer(Int64(output)!)]])
        #expect(read.data?["movie"]?["budget"] == .string(output))
    }

    @Test(arguments: [
        "2024-03-05", "2024-03-05T00:00:00Z", "2024-03-05T00:00:00.000Z", "2024-03-05T23:30:00-05:00",
        "2024-03-05T09:00:00Z", "2024-03-05T00:00:00+01:00",
    ])
    func readsDatesAndDropsATimePart(_ input: String) throws {
        // given
        let backend = try TestBackend(Self.operations, seeded: false)

        // when
        let insert = backend.mutation("AddMovie", ["id": .string(Self.newID), "releaseDate": .string(input)])
        let read = backend.query("GetMovie", ["id": .string(Self.newID)])

        // then
        #expect(insert.errors.isEmpty, "\(insert.body)")
        #expect(read.data?["movie"]?["releaseDate"] == "2024-03-05")
    }

    @Test(arguments: ["2024-02-30", "2024-03-05T25:00:00Z", "2024-03-05T10:00:00", "2024-03-05T"])
    func refusesTextThatIsNeitherADateNorADateWithATime(_ input: String) throws {
        // given
        let backend = try TestBackend(Self.operations, seeded: false)

        // when
        let insert = backend.mutation("AddMovie", ["id": .string(Self.newID), "releaseDate": .string(input)])
        let read = backend.query("GetMovie", ["id": .string(Self.newID)])

        // then the request is refused as a whole, naming the variable, and nothing is written
        #expect(insert.status == .invalidArgument, "\(insert.body)")
        #expect(insert.requestErrorMessage?.contains("releaseDate") == true, "\(insert.body)")
        #expect(read.data?["movie"] == .null)
    }

    @Test(arguments: ["1e999", "-1e999", "1e-999"])
    func refusesFloatsOutOfRange(_ input: String) throws {
        // given
        let backend = try TestBackend(Self.operations, seeded: false)

        // when
        let insert = backend.mutation(
            "AddRated", ["id": .string(Self.newID), "rating": .number(JSONNumber(literal: input)!)])

        // then
        #expect(insert.status == .invalidArgument, "\(insert.body)")
        #expect(insert.requestErrorMessage?.contains("rating") == true, "\(insert.body)")
    }

    @Test(arguments: [
        ("2024-06-01T12:30:00+02:00", "2024-06-01T10:30:00.000000Z", "2024-06-01T10:30:00Z"),
        ("2024-06-01T10:30:00.1Z", "2024-06-01T10:30:00.100000Z", "2024-06-01T10:30:00.100Z"),
        ("2024-06-01T05:30:00.12345-05:00", "2024-06-01T10:30:00.123450Z", "2024-06-01T10:30:00.123450Z"),
        ("2024-06-01T10:30:00.123456789Z", "2024-06-01T10:30:00.123456Z", "2024-06-01T10:30:00.123456Z"),
    ])
    func normalizesTimestampsToUTCAndTrimsTheFraction(_ input: String, _ stored: String, _ output: String) throws {
        // given
        let backend = try TestBackend(Self.operations, seeded: false)

        // when
        let insert = backend.mutation("AddMovie", ["id": .string(Self.newID), "createdAt": .string(input)])
        let read = backend.query("GetMovie", ["id": .string(Self.newID)])

        // then
        #expect(insert.errors.isEmpty, "\(insert.body)")
        #expect(try backend.rows("SELECT created_at FROM movie") == [[.text(stored)]])
        #expect(read.data?["movie"]?["createdAt"] == .string(output))
    }

    @Test(arguments: [
        #"{"a": [1, 2.5, "x", null, true], "b": {"c": null}}"#, #""just text""#, "42", "[]", "false",
    ])
    func roundTripsAnyValues(_ text: String) throws {
        // given
        let backend = try TestBackend(Self.operations, seeded: false)

        // when
        let insert = backend.mutation("AddMovie", ["id": .string(Self.newID), "extras": json(text)])
        let read = backend.query("GetMovie", ["id": .string(Self.newID)])

        // then
        expectGoldenSQL(read)
        #expect(insert.errors.isEmpty, "\(insert.body)")
        #expect(read.data?["movie"]?["extras"] == json(text))
    }

    // A PostgreSQL array column cannot hold text that is not a list: the damage is SQLite's.
    @Test(.on(.sqlite))
    func aStoredListDamagedOutsideTheEngineIsAnErrorNotBrokenJSON() throws {
        // given: a list column that the sqlite3 shell overwrote with text that is not JSON, past the column's
        // `json_valid` check
        let backend = try TestBackend(Self.operations, seeded: false)
        _ = backend.mutation("AddMovie", ["id": .string(Self.newID), "tags": ["a"]])
        try backend.store.access.write { source in
            try source.execute("PRAGMA ignore_check_constraints = ON")
            defer { try? source.execute("PRAGMA ignore_check_constraints = OFF") }
            try source.execute(#"UPDATE movie SET tags = '["a",' "#)
        }

        // when
        let read = backend.query("GetMovie", ["id": .string(Self.newID)])

        // then: a JSON answer whose error names the problem, and no data
        #expect(read.data == .null)
        #expect(read.errors.first?["message"]?.stringValue?.contains("malformed JSON") == true, "\(read.body)")
    }

    @Test func writesListsAndBooleans() throws {
        // given
        let backend = try TestBackend(Self.operations, seeded: false)

        // when
        let insert = backend.mutation(
            "AddMovie", ["id": .string(Self.newID), "tags": ["a", "b's"], "isClassic": true])
        let scores = backend.mutation("AddScores", ["scores": [3, 1, 2]])
        let read = backend.query("GetMovie", ["id": .string(Self.newID)])
        let readScores = backend.query("Scores")

        // then
        expectGoldenSQL(read)
        #expect(insert.errors.isEmpty && scores.errors.isEmpty)
        // the list as each database stores one (JSON text, a PostgreSQL array), the boolean read as 1
        let tags: DatabaseValue = try TestDatabase.required() == .sqlite ? .text(#"["a","b's"]"#) : .text("{a,b's}")
        let stored = try backend.rows("SELECT tags, is_classic FROM movie")
        #expect(stored == [[tags, .integer(1)]], "\(stored)")
        #expect(
            read.data
                == json(
                    #"{"movie": {"id": "b0000000000000000000000000000001", "title": "Added", "budget": null, "releaseDate": null, "#
                        + #""createdAt": \#(read.data?["movie"]?["createdAt"]?.jsonString() ?? "null"), "extras": null, "#
                        + #""tags": ["a", "b's"], "isClassic": true}}"#))
        #expect(readScores.data == json(#"{"events": [{"scores": [3, 1, 2]}]}"#))
    }
}
