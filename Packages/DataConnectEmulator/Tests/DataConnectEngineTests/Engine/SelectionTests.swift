import DataConnectWire
import EmulatorTesting
import Testing

@testable import DataConnectEngine

/// Selection sets: aliases, fragments, `@skip`/`@include`, `__typename` and `_id`.
@Suite(.onBothDatabases) struct SelectionTests {
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
        expectGoldenSQL(result)
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
        expectGoldenSQL(result)
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
        expectGoldenSQL(["without": without, "with": with])
        #expect(without.data == json(#"{"movie": {"title": "Inception", "releaseYear": 2010}}"#))
        #expect(!with.allSQL.contains("'releaseYear'"))
        #expect(with.data == json(#"{"movie": {"title": "Inception", "director": {"name": "Nolan"}}}"#))
    }

    @Test func namesTypes() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("TypeNames")

        // then
        expectGoldenSQL(result)
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
        expectGoldenSQL(result)
        #expect(
            result.data
                == json(
                    #"{"movie": {"_id": "Movie/a0000000000000000000000000000001", "reviews_on_movie": ["#
                        + #"{"_id": "Review/a0000000000000000000000000000001/u1"}, {"_id": "Review/a0000000000000000000000000000001/u2"}]}}"#
                ))
    }
}
