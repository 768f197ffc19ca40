import DataConnectWire
import Testing

@testable import DataConnectEngine

/// Selection sets: aliases, fragments, `@skip`/`@include`, `__typename` and `_id`.
@Suite struct SelectionTests {
    static let operations = """
        fragment PersonBits on Person { name }
        fragment MovieBits on Movie { title director { ...PersonBits } }

        query TwoLists @auth(level: PUBLIC) {
          old: movies(where: {releaseYear: {lt: 2000}}) { name: title }
          recent: movies(where: {releaseYear: {ge: 2020}}) { title year: releaseYear }
        }
        query WithFragments @auth(level: PUBLIC) {
          movie(id: "a0000000000000000000000000000002") { ...MovieBits ... on Movie { releaseYear } }
        }
        query Conditional($withDirector: Boolean!, $skipYear: Boolean = false) @auth(level: PUBLIC) {
          movie(id: "a0000000000000000000000000000001") {
            title
            director @include(if: $withDirector) { name }
            releaseYear @skip(if: $skipYear)
          }
        }
        query TypeNames @auth(level: PUBLIC) {
          __typename
          movie(id: "a0000000000000000000000000000001") { __typename director { __typename } }
        }
        query EntityIDs @auth(level: PUBLIC) {
          movie(id: "a0000000000000000000000000000001") { _id reviews_on_movie(orderBy: [{userId: ASC}]) { _id } }
        }
        """

    @Test func aliasesRootFieldsAndColumns() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("TwoLists")

        // then: one statement per root field
        #expect(sqlTextDiffers || result.sql.count == 2)
        #expect(sqlTextDiffers || result.sql[0].contains(#"json_object('name', t1."title")"#))
        #expect(
            sqlTextDiffers || result.sql[1].contains(#"json_object('title', t1."title", 'year', t1."release_year")"#))
        #expect(
            result.data
                == json(#"{"old": [{"name": "Cleo from 5 to 7"}], "recent": [{"title": "Barbie", "year": 2023}]}"#))
    }

    @Test func inlinesFragments() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("WithFragments")

        // then
        #expect(
            sqlTextDiffers
                || result.allSQL.contains(
                    #"json_object('title', t1."title", 'director', dataconnect_embed((SELECT json_object('name', t2."name") FROM "People" AS t2"#
                ))
        #expect(
            result.data
                == json(#"{"movie": {"title": "Barbie", "director": {"name": "Gerwig"}, "releaseYear": 2023}}"#))
    }

    @Test func skipsAndIncludesFieldsByVariable() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let without = backend.query("Conditional", ["withDirector": false])
        let with = backend.query("Conditional", ["withDirector": true, "skipYear": true])

        // then
        #expect(
            sqlTextDiffers
                || without.sql == [
                    #"SELECT dataconnect_embed((SELECT json_object('title', t1."title", 'releaseYear', t1."release_year") FROM "movie" AS t1 WHERE t1."id" = ?1 LIMIT 1))"#
                ])
        #expect(without.data == json(#"{"movie": {"title": "Inception", "releaseYear": 2010}}"#))
        #expect(sqlTextDiffers || with.allSQL.contains("'director'"))
        #expect(!with.allSQL.contains("'releaseYear'"))
        #expect(with.data == json(#"{"movie": {"title": "Inception", "director": {"name": "Nolan"}}}"#))
    }

    @Test func namesTypes() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("TypeNames")

        // then
        #expect(
            sqlTextDiffers
                || result.allSQL.contains(
                    #"json_object('__typename', 'Movie', 'director', dataconnect_embed((SELECT json_object('__typename', 'Person')"#
                )
        )
        #expect(
            result.data
                == json(
                    #"{"__typename": "Query", "movie": {"__typename": "Movie", "director": {"__typename": "Person"}}}"#)
        )
    }

    @Test func derivesEntityIDsFromKeys() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("EntityIDs")

        // then: one key column for a movie, two (in key order) for a review
        #expect(sqlTextDiffers || result.allSQL.contains(#"'_id', 'Movie' || '/' || CAST(t1."id" AS TEXT)"#))
        #expect(
            result.data
                == json(
                    #"{"movie": {"_id": "Movie/a0000000000000000000000000000001", "reviews_on_movie": ["#
                        + #"{"_id": "Review/a0000000000000000000000000000001/u1"}, {"_id": "Review/a0000000000000000000000000000001/u2"}]}}"#
                ))
    }
}
