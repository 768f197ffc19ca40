import DataConnectWire
import EmulatorTesting
import Testing

@testable import DataConnectEngine

/// Relation fields: forward references, `_on_` reverse lists and one-to-one fields, `_via_` many-to-many.
@Suite(.onBothDatabases) struct RelationFieldTests {
    static let operations = """
        query MovieWithDirector($id: UUID!) @auth(level: PUBLIC) { movie(id: $id) { title director { name birthYear } } }
        query MoviesWithDirectors @auth(level: PUBLIC) {
          movies(where: {title: {in: ["Inception", "Barbie", "50% Off_Sale"]}}, orderBy: [{title: ASC}]) {
            title director { name birthYear }
          }
        }
        query LatestByDirector($id: UUID!) @auth(level: PUBLIC) {
          person(id: $id) { name movies_on_director(orderBy: [{releaseYear: DESC}], limit: 1) { title } }
        }
        query Metadata @auth(level: PUBLIC) {
          movies(where: {title: {in: ["Inception", "Barbie"]}}, orderBy: [{title: ASC}]) { title movieMetadata_on_movie { language } }
        }
        query Cast($id: UUID!) @auth(level: PUBLIC) {
          movie(id: $id) {
            main: actors_via_MovieActor(where: {role: {eq: "main"}}) { name }
            everyone: actors_via_MovieActor(orderBy: [{role: ASC}]) { name }
          }
        }
        query Filmography($id: UUID!) @auth(level: PUBLIC) {
          actor(id: $id) { name movies_via_MovieActor(orderBy: [{role: DESC}]) { title } }
        }
        query ReviewsWithAuthors @auth(level: PUBLIC) {
          movie(id: "a0000000000000000000000000000001") {
            reviews_on_movie(orderBy: [{rating: DESC}]) { rating user { username } movie { title } }
          }
        }
        """

    @Test func readsAForwardReference() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let directed = backend.query("MovieWithDirector", ["id": .string(EngineFixtures.inception)])
        let undirected = backend.query("MovieWithDirector", ["id": .string(EngineFixtures.sale)])

        // then
        expectGoldenSQL(directed)
        #expect(
            directed.data
                == json(#"{"movie": {"title": "Inception", "director": {"name": "Nolan", "birthYear": 1970}}}"#))
        #expect(undirected.data == json(#"{"movie": {"title": "50% Off_Sale", "director": null}}"#))
    }

    @Test func aListReadsAnOptionalReferenceAsNullWhenItIsUnset() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("MoviesWithDirectors")

        // then: one row per movie, the unset director null, and no subquery per row
        expectGoldenSQL(result)
        #expect(
            result.data
                == json(
                    #"{"movies": [{"title": "50% Off_Sale", "director": null}, "#
                        + #"{"title": "Barbie", "director": {"name": "Gerwig", "birthYear": 1983}}, "#
                        + #"{"title": "Inception", "director": {"name": "Nolan", "birthYear": 1970}}]}"#))
    }

    @Test func readsAOneToManyReverseListWithArguments() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("LatestByDirector", ["id": .string(EngineFixtures.gerwig)])

        // then
        expectGoldenSQL(result)
        #expect(result.data == json(#"{"person": {"name": "Gerwig", "movies_on_director": [{"title": "Barbie"}]}}"#))
    }

    @Test func readsAOneToOneReverseField() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("Metadata")

        // then
        expectGoldenSQL(result)
        #expect(
            result.data
                == json(
                    #"{"movies": [{"title": "Barbie", "movieMetadata_on_movie": null}, "#
                        + #"{"title": "Inception", "movieMetadata_on_movie": {"language": "en"}}]}"#))
    }

    @Test func readsManyToManyFilteredAndOrderedOnTheJoinTable() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when: the same field twice under two aliases with different arguments
        let result = backend.query("Cast", ["id": .string(EngineFixtures.barbie)])

        // then
        expectGoldenSQL(result)
        #expect(
            result.data
                == json(
                    #"{"movie": {"main": [{"name": "Margot"}], "everyone": [{"name": "Saoirse"}, {"name": "Margot"}]}}"#
                ))
    }

    @Test func readsManyToManyFromTheOtherSide() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("Filmography", ["id": .string(EngineFixtures.saoirse)])

        // then: Little Women (main) before Barbie (cameo)
        expectGoldenSQL(result)
        #expect(
            result.data
                == json(
                    #"{"actor": {"name": "Saoirse", "movies_via_MovieActor": [{"title": "Little Women"}, {"title": "Barbie"}]}}"#
                ))
    }

    @Test func nestsRelationsBothWays() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("ReviewsWithAuthors")

        // then: both to-one relations are joined into the list's page (their columns carried through it) rather
        // than read by a subquery per object; on PostgreSQL, below the movie, the join is lateral (one row found
        // through the key)
        expectGoldenSQL(result)
        #expect(result.allSQL.contains(#"(SELECT t2."rating", t3."username" AS _jt3_0"#))
        #expect(
            result.allSQL.contains(#"LEFT JOIN LATERAL (SELECT * FROM "user" AS t3 WHERE"#)
                == (TestDatabase.current == .postgreSQL))
        #expect(
            result.data
                == json(
                    #"{"movie": {"reviews_on_movie": ["#
                        + #"{"rating": 5, "user": {"username": "alice"}, "movie": {"title": "Inception"}}, "#
                        + #"{"rating": 4, "user": {"username": "bob"}, "movie": {"title": "Inception"}}]}}"#))
    }
}
