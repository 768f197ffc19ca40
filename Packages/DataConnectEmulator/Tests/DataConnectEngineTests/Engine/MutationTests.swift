import DataConnectWire
import EmulatorTesting
import Foundation
import SQLiteKit
import Testing

@testable import DataConnectEngine

/// Mutation root fields: inserts with defaults, upserts, updates with transforms, deletes, many-row
/// forms, server values, references by key, cascades and `response.*` between root fields.
@Suite(.onBothDatabases) struct MutationTests {
    static let operations = """
        mutation AddMovie($title: String!) @auth(level: PUBLIC) { movie_insert(data: {title: $title}) }
        mutation AddEvent @auth(level: USER) { event_insert(data: {}) }
        query Events @auth(level: PUBLIC) { events { name day loggedAt createdAt owner } }
        query Movie($id: UUID!) @auth(level: PUBLIC) {
          movie(id: $id) { title releaseYear rating genre tags isClassic releaseDate createdAt director { name } }
        }
        mutation AddActors @auth(level: PUBLIC) { actor_insertMany(data: [{name: "Ana"}, {name: "Bo"}]) }
        mutation SaveUser($id: String!, $name: String!) @auth(level: PUBLIC) { user_upsert(data: {id: $id, username: $name}) }
        mutation SaveMe($name: String!) @auth(level: USER) { user_upsert(data: {id_expr: "auth.uid", username: $name}) }
        mutation Favorite($movieId: UUID!) @auth(level: USER) {
          review_upsert(data: {movieId: $movieId, userId_expr: "auth.uid"})
        }
        mutation SetRating($id: UUID!, $rating: Float, $year: Int) @auth(level: PUBLIC) {
          movie_update(id: $id, data: {rating: $rating, releaseYear: $year})
        }
        mutation RateMyReview($movieId: UUID!, $rating: Int!) @auth(level: USER) {
          review_update(key: {movieId: $movieId, userId_expr: "auth.uid"}, data: {rating: $rating})
        }
        mutation DeclassifyOldestDrama @auth(level: PUBLIC) {
          movie_update(first: {where: {genre: {eq: DRAMA}}, orderBy: [{releaseYear: ASC}]}, data: {isClassic: false})
        }
        mutation Bump($id: UUID!) @auth(level: PUBLIC) {
          movie_update(id: $id, data: {
            releaseYear_update: {inc: 1}, rating_update: [{dec: 0.5}], tags_update: [{append: ["x"]}, {prepend: ["y"]}],
            releaseDate_update: {inc: {days: 10}}, createdAt_update: {dec: {hours: 1}}
          })
        }
        mutation SetDates($id: UUID!, $date: Date, $at: Timestamp) @auth(level: PUBLIC) {
          movie_update(id: $id, data: {releaseDate: $date, createdAt: $at})
        }
        mutation NextMonth($id: UUID!) @auth(level: PUBLIC) {
          movie_update(id: $id, data: {
            releaseDate_update: {inc: {months: 1}}, createdAt_update: [{inc: {months: 1}}, {dec: {milliseconds: 200}}]
          })
        }
        mutation RetagInception @auth(level: PUBLIC) {
          movie_update(id: "a0000000000000000000000000000001", data: {tags_update: [{add: ["dream", "new"]}, {remove: ["heist"]}]})
        }
        mutation RateDramas @auth(level: PUBLIC) { movie_updateMany(where: {genre: {eq: DRAMA}}, data: {rating: 1.5}) }
        mutation ClassifyAll @auth(level: PUBLIC) { movie_updateMany(all: true, data: {isClassic: true}) }
        mutation DeleteUndated @auth(level: PUBLIC) { movie_deleteMany(where: {releaseYear: {isNull: true}}) }
        mutation DeleteAllReviews @auth(level: PUBLIC) { review_deleteMany(all: true) }
        mutation DeleteReview($movieId: UUID!, $userId: String!) @auth(level: PUBLIC) {
          review_delete(key: {movieId: $movieId, userId: $userId})
        }
        mutation Review($movieId: UUID!) @auth(level: USER) {
          review_insert(data: {movie: {id: $movieId}, user: {id_expr: "auth.uid"}, rating: 2, reviewDate_date: {today: true, add: {days: 14}}})
        }
        query ReviewsOf($movieId: UUID!) @auth(level: PUBLIC) {
          reviews(where: {movieId: {eq: $movieId}}) { userId rating reviewDate }
        }
        mutation DeletePerson($id: UUID!) @auth(level: PUBLIC) { person_delete(id: $id) }
        mutation DeleteMovie($id: UUID!) @auth(level: PUBLIC) { movie_delete(id: $id) }
        mutation AddMovieWithMetadata($title: String!) @auth(level: PUBLIC) @transaction {
          movie_insert(data: {title: $title, extras: {source: "import", tags: [1, 2]}})
          movieMetadata_insert(data: {movieId_expr: "response.movie_insert.id", language: "de"})
          query {
            movies(where: {id: {eq_expr: "response.movie_insert.id"}}) { title extras movieMetadata_on_movie { language } }
          }
        }
        """

    static func isUUIDHex(_ value: JSONValue?) -> Bool {
        guard let text = value?.stringValue else { return false }
        return text.count == 32 && text.allSatisfy { "0123456789abcdef".contains($0) }
    }

    static var todayUTC: Date { Date() }

    static func utcDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    @Test func insertsAndReturnsTheKey() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.mutation("AddMovie", ["title": "Dune"])

        // then: generated id and request time are bound; value defaults come from the column DDL
        expectGoldenSQL(result)
        let id = result.data?["movie_insert"]?["id"]
        #expect(Self.isUUIDHex(id))
        #expect(result.data?["movie_insert"]?.objectValue?.keys == ["id"])
        let read = backend.query("Movie", ["id": id ?? .null])
        #expect(read.data?["movie"]?["title"] == "Dune")
        #expect(read.data?["movie"]?["genre"] == "DRAMA")
        #expect(read.data?["movie"]?["isClassic"] == false)
    }

    @Test func appliesEveryKindOfDefault() throws {
        // given
        let backend = try TestBackend(Self.operations)
        let before = Date()

        // when
        let result = backend.mutation("AddEvent", auth: EngineFixtures.alice)
        let events = backend.query("Events")

        // then: constant and SQL defaults in the DDL, uuidV4/request.time/auth.uid bound by the engine
        expectGoldenSQL(result)
        #expect(result.errors.isEmpty, "\(result.body)")
        let event = try #require(events.data?["events"]?[0])
        #expect(event["name"] == "untitled")
        #expect(event["owner"] == "u1")
        let createdAt = try #require(event["createdAt"]?.stringValue)
        #expect(event["day"]?.stringValue == String(createdAt.prefix(10)))
        #expect([Self.utcDate(before), Self.utcDate(Date())].contains(String(createdAt.prefix(10))))
        let loggedAt = try #require(event["loggedAt"]?.stringValue)
        #expect(loggedAt.hasSuffix("Z") && loggedAt.count >= 20)
        #expect(String(loggedAt.prefix(10)) == String(createdAt.prefix(10)) || loggedAt > createdAt)
    }

    @Test func defaultsToTheCallersUIDOnlyWhenSignedIn() throws {
        // given
        let backend = try TestBackend("mutation AddEvent @auth(level: PUBLIC) { event_insert(data: {}) }")

        // when
        let result = backend.mutation("AddEvent", auth: nil)

        // then
        #expect(result.data == json(#"{"event_insert": null}"#))
        #expect(result.errors.first?["extensions"]?["code"] == "UNAUTHENTICATED")
    }

    @Test func insertsManyRows() throws {
        // given
        let backend = try TestBackend(Self.operations, seeded: false)

        // when
        let result = backend.mutation("AddActors")

        // then: one statement per row, keys in order
        expectGoldenSQL(result)
        let keys = try #require(result.data?["actor_insertMany"]?.arrayValue)
        #expect(keys.count == 2 && keys.allSatisfy { Self.isUUIDHex($0["id"]) })
        #expect(try backend.rows("SELECT name FROM actor ORDER BY name") == [[.text("Ana")], [.text("Bo")]])
    }

    @Test func upsertsByPrimaryKey() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let inserted = backend.mutation("SaveUser", ["id": "u3", "name": "carol"])
        let updated = backend.mutation("SaveUser", ["id": "u3", "name": "caroline"])

        // then
        expectGoldenSQL(inserted)
        #expect(inserted.data == json(#"{"user_upsert": {"id": "u3"}}"#))
        #expect(updated.data == json(#"{"user_upsert": {"id": "u3"}}"#))
        #expect(
            try backend.rows(#"SELECT id, username FROM "user" WHERE id = 'u3'"#) == [[.text("u3"), .text("caroline")]])
    }

    @Test func upsertsKeyedOnTheCallersUID() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.mutation("SaveMe", ["name": "bobby"], auth: EngineFixtures.bob)

        // then
        #expect(result.data == json(#"{"user_upsert": {"id": "u2"}}"#))
        #expect(try backend.rows(#"SELECT username FROM "user" WHERE id = 'u2'"#) == [[.text("bobby")]])
    }

    @Test func upsertsAnExistingRowGivenOnlyItsKey() throws {
        // given: alice already reviewed Inception
        let backend = try TestBackend(Self.operations)

        // when: nothing but the key is written
        let result = backend.mutation(
            "Favorite", ["movieId": .string(EngineFixtures.inception)], auth: EngineFixtures.alice)

        // then: the row is kept as it was and its key is returned
        expectGoldenSQL(result)
        #expect(
            result.data == json(#"{"review_upsert": {"movieId": "a0000000000000000000000000000001", "userId": "u1"}}"#))
        #expect(
            try backend.rows(
                "SELECT rating, review_date FROM review WHERE movie_id = '\(EngineFixtures.inception)' AND user_id = 'u1'"
            )
                == [[.integer(5), .text("2024-02-01")]])
    }

    @Test func updatesByIDWithExplicitNullAndAbsentFields() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when: $rating is an explicit null, $year is absent
        let result = backend.mutation("SetRating", ["id": .string(EngineFixtures.inception), "rating": nil])
        let missing = backend.mutation("SetRating", ["id": "ffffffffffffffffffffffffffffffff", "rating": 1.0])

        // then
        expectGoldenSQL(result)
        #expect(result.data == json(#"{"movie_update": {"id": "a0000000000000000000000000000001"}}"#))
        #expect(
            try backend.rows("SELECT rating, release_year FROM movie WHERE title = 'Inception'") == [
                [.null, .integer(2010)]
            ])
        #expect(missing.data == json(#"{"movie_update": null}"#))
        #expect(missing.errors.isEmpty)
    }

    @Test func updatesByKeyAndByFirst() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let byKey = backend.mutation(
            "RateMyReview", ["movieId": .string(EngineFixtures.inception), "rating": 1], auth: EngineFixtures.bob)
        let byFirst = backend.mutation("DeclassifyOldestDrama")

        // then
        expectGoldenSQL(["byKey": byKey, "byFirst": byFirst])
        #expect(
            byKey.data == json(#"{"review_update": {"movieId": "a0000000000000000000000000000001", "userId": "u2"}}"#))
        #expect(
            try backend.rows(
                "SELECT user_id, rating FROM review WHERE movie_id = '\(EngineFixtures.inception)' ORDER BY user_id")
                == [[.text("u1"), .integer(5)], [.text("u2"), .integer(1)]])
        #expect(byFirst.data == json(#"{"movie_update": {"id": "a0000000000000000000000000000004"}}"#))
        #expect(try backend.rows("SELECT is_classic FROM movie WHERE id = '\(EngineFixtures.cleo)'") == [[.integer(0)]])
    }

    @Test func transformsCurrentValues() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.mutation("Bump", ["id": .string(EngineFixtures.inception)])
        let read = backend.query("Movie", ["id": .string(EngineFixtures.inception)])

        // then
        expectGoldenSQL(result)
        #expect(result.errors.isEmpty, "\(result.body)")
        let movie = try #require(read.data?["movie"])
        #expect(movie["releaseYear"] == 2011)
        #expect(movie["rating"] == 8.3)
        #expect(movie["tags"] == ["y", "dream", "heist", "x"])
        #expect(movie["releaseDate"] == "2010-07-26")
        #expect(movie["createdAt"] == "2024-01-01T09:00:00Z")
    }

    @Test func movesDatesByCalendarMonthsAndTimestampsExactly() throws {
        // given: Barbie on the last day of January, just before midnight
        let backend = try TestBackend(Self.operations)
        let barbie: JSONValue = .string(EngineFixtures.barbie)
        _ = backend.mutation("SetDates", ["id": barbie, "date": "2024-01-31", "at": "2024-01-31T23:59:59.1Z"])

        // when
        let result = backend.mutation("NextMonth", ["id": barbie])
        let inception = backend.mutation("NextMonth", ["id": .string(EngineFixtures.inception)])

        // then: the day is clamped to February's end; 200 ms borrow from the seconds
        expectGoldenSQL(result)
        #expect(result.errors.isEmpty && inception.errors.isEmpty, "\(result.body) \(inception.body)")
        #expect(
            try backend.rows(
                "SELECT release_date, created_at FROM movie WHERE id IN ('\(EngineFixtures.inception)', '\(EngineFixtures.barbie)') ORDER BY id"
            )
                == [
                    [.text("2010-08-16"), .text("2024-02-01T09:59:59.800000Z")],
                    [.text("2024-02-29"), .text("2024-02-29T23:59:58.900000Z")],
                ])
    }

    @Test func addsAndRemovesListElements() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.mutation("RetagInception")
        let read = backend.query("Movie", ["id": .string(EngineFixtures.inception)])

        // then: add skips elements already there; remove drops every occurrence
        #expect(result.errors.isEmpty, "\(result.body)")
        #expect(read.data?["movie"]?["tags"] == ["dream", "new"])
    }

    @Test func updatesAndDeletesManyRows() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let rated = backend.mutation("RateDramas")
        let classified = backend.mutation("ClassifyAll")
        let deleted = backend.mutation("DeleteUndated")
        let cleared = backend.mutation("DeleteAllReviews")

        // then
        expectGoldenSQL(["rated": rated, "classified": classified, "deleted": deleted])
        #expect(rated.data == json(#"{"movie_updateMany": 2}"#))
        #expect(classified.data == json(#"{"movie_updateMany": 5}"#))
        #expect(deleted.data == json(#"{"movie_deleteMany": 1}"#))
        #expect(cleared.data == json(#"{"review_deleteMany": 3}"#))
        #expect(try backend.rows("SELECT count(*) FROM review") == [[.integer(0)]])
    }

    @Test func refusesToDeleteManyWithoutWhereOrAll() throws {
        // given: `where` comes from a variable (a literal call without it does not validate)
        let backend = try TestBackend(
            "mutation DeleteReviews($where: Review_Filter) @auth(level: PUBLIC) { review_deleteMany(where: $where) }")

        // when: the variable is absent
        let result = backend.mutation("DeleteReviews")

        // then
        #expect(result.data == json(#"{"review_deleteMany": null}"#))
        #expect(
            result.errorSummaries == [
                "review_deleteMany INVALID_ARGUMENT deleteMany needs `where`, or `all: true` to affect every row"
            ])
        #expect(try backend.rows("SELECT count(*) FROM review") == [[.integer(3)]])
    }

    @Test func deletesByKeyAndReturnsIt() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let deleted = backend.mutation("DeleteReview", ["movieId": .string(EngineFixtures.barbie), "userId": "u1"])
        let again = backend.mutation("DeleteReview", ["movieId": .string(EngineFixtures.barbie), "userId": "u1"])

        // then
        expectGoldenSQL(deleted)
        #expect(
            deleted.data == json(#"{"review_delete": {"movieId": "a0000000000000000000000000000002", "userId": "u1"}}"#)
        )
        #expect(again.data == json(#"{"review_delete": null}"#))
    }

    @Test func setsReferencesByKeyWithServerValuesAndRelativeDates() throws {
        // given
        let backend = try TestBackend(Self.operations)
        let before = Date()

        // when
        let result = backend.mutation("Review", ["movieId": .string(EngineFixtures.cleo)], auth: EngineFixtures.bob)
        let reviews = backend.query("ReviewsOf", ["movieId": .string(EngineFixtures.cleo)])

        // then
        expectGoldenSQL(result)
        #expect(
            result.data == json(#"{"review_insert": {"movieId": "a0000000000000000000000000000004", "userId": "u2"}}"#))
        let review = try #require(reviews.data?["reviews"]?[0])
        #expect(review["userId"] == "u2")
        let fortnight: [String] = [before, Date()].map { Self.utcDate($0.addingTimeInterval(14 * 86_400)) }
        #expect(fortnight.contains(review["reviewDate"]?.stringValue ?? ""))
    }

    @Test func cascadesAndNullsReferencesOnDelete() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let person = backend.mutation("DeletePerson", ["id": .string(EngineFixtures.gerwig)])
        let movie = backend.mutation("DeleteMovie", ["id": .string(EngineFixtures.inception)])

        // then: the optional director is set to NULL; a movie's reviews, cast and metadata go with it
        #expect(person.data == json(#"{"person_delete": {"id": "d0000000000000000000000000000002"}}"#))
        #expect(
            try backend.rows(
                "SELECT title, director_id FROM movie WHERE title IN ('Barbie', 'Little Women') ORDER BY title")
                == [[.text("Barbie"), .null], [.text("Little Women"), .null]])
        #expect(movie.data == json(#"{"movie_delete": {"id": "a0000000000000000000000000000001"}}"#))
        #expect(
            try backend.rows("SELECT count(*) FROM review WHERE movie_id = '\(EngineFixtures.inception)'") == [
                [.integer(0)]
            ])
        #expect(
            try backend.rows("SELECT count(*) FROM movie_actor WHERE movie_id = '\(EngineFixtures.inception)'") == [
                [.integer(0)]
            ])
        #expect(try backend.rows("SELECT count(*) FROM movie_metadata") == [[.integer(1)]])
    }

    @Test func readsEarlierResultsAndQueriesInsideAMutation() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.mutation("AddMovieWithMetadata", ["title": "Metropolis"])

        // then: the metadata points at the new movie; the nested query sees both writes
        expectGoldenSQL(result)
        #expect(result.errors.isEmpty, "\(result.body)")
        let id = try #require(result.data?["movie_insert"]?["id"]?.stringValue)
        #expect(
            result.data?["query"]
                == json(
                    #"{"movies": [{"title": "Metropolis", "extras": {"source": "import", "tags": [1, 2]}, "movieMetadata_on_movie": {"language": "de"}}]}"#
                ))
        #expect(try backend.rows("SELECT movie_id FROM movie_metadata WHERE language = 'de'") == [[.text(id)]])
    }
}
