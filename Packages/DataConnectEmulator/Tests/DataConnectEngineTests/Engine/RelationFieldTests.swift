import DataConnectWire
import Testing

@testable import DataConnectEngine

/// Relation fields: forward references, `_on_` reverse lists and one-to-one fields, `_via_` many-to-many.
@Suite struct RelationFieldTests {
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
        #expect(
            sqlTextDiffers
                || directed.sql == [
                    #"SELECT dataconnect_embed((SELECT json_object('title', t1."title", 'director', dataconnect_embed((SELECT json_object('name', t2."name", "#
                        + #"'birthYear', t2."birth_year") FROM "People" AS t2 WHERE t2."id" = t1."director_id" LIMIT 1))) "#
                        + #"FROM "movie" AS t1 WHERE t1."id" = ?1 LIMIT 1))"#
                ])
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
        #expect(sqlTextDiffers || result.allSQL.contains(#"LEFT JOIN "People" AS t2 ON t2."id" = t1."director_id""#))
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
        #expect(
            sqlTextDiffers
                || result.allSQL.contains(
                    #"FROM (SELECT t2."title", t2."release_year" AS _o0 FROM "movie" AS t2 WHERE t1."id" = t2."director_id" "#
                        + "ORDER BY _o0 DESC NULLS FIRST LIMIT ?2)")
        )
        #expect(result.data == json(#"{"person": {"name": "Gerwig", "movies_on_director": [{"title": "Barbie"}]}}"#))
    }

    @Test func readsAOneToOneReverseField() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("Metadata")

        // then
        #expect(
            sqlTextDiffers
                || result.allSQL.contains(#"FROM "movie_metadata" AS t2 WHERE t1."id" = t2."movie_id" LIMIT 1"#))
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
        #expect(
            sqlTextDiffers
                || result.allSQL.contains(
                    #"FROM "movie_actor" AS j2 JOIN "actor" AS t3 ON t3."id" = j2."actor_id" WHERE t1."id" = j2."movie_id" AND j2."role" = ?2"#
                ))
        #expect(
            sqlTextDiffers
                || result.allSQL.contains(
                    #"SELECT t5."name", j4."role" AS _o0 FROM "movie_actor" AS j4 JOIN "actor" AS t5"#)
        )
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
        #expect(
            sqlTextDiffers
                || result.allSQL.contains(
                    #"FROM "movie_actor" AS j2 JOIN "movie" AS t3 ON t3."id" = j2."movie_id" WHERE t1."id" = j2."actor_id" ORDER BY _o0 DESC"#
                ))
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

        // then: both to-one relations are joined into the list's page rather than read by a subquery per row
        #expect(
            sqlTextDiffers
                || result.allSQL.contains(
                    #"LEFT JOIN "user" AS t3 ON t3."id" = t2."user_id" LEFT JOIN "movie" AS t4 ON t4."id" = t2."movie_id""#
                ))
        #expect(
            !result.allSQL.contains(#""user" AS t3 WHERE"#)
                && result.allSQL.contains(#"(SELECT t2."rating", t3."username" AS _jt3_0"#))
        #expect(
            result.data
                == json(
                    #"{"movie": {"reviews_on_movie": ["#
                        + #"{"rating": 5, "user": {"username": "alice"}, "movie": {"title": "Inception"}}, "#
                        + #"{"rating": 4, "user": {"username": "bob"}, "movie": {"title": "Inception"}}]}}"#))
    }
}
