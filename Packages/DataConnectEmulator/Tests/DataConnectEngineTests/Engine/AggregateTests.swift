import DataConnectWire
import EmulatorTesting
import Testing

@testable import DataConnectEngine

/// Aggregate fields: `_count`, `f_count`, `f_sum`, `f_avg`, `f_min`, `f_max`, grouping, `having`, and
/// ordering by aggregates.
@Suite(.onBothDatabases) struct AggregateTests {
    static let operations = """
        query CountMovies @auth(level: PUBLIC) { movies { _count } }
        query CountNone @auth(level: PUBLIC) { movies(where: {releaseYear: {gt: 3000}}) { _count releaseYear_max } }
        query CountPaged($limit: Int, $offset: Int) @auth(level: PUBLIC) {
          movies(limit: $limit, offset: $offset) { _count releaseYear_max }
        }
        query Counts @auth(level: PUBLIC) {
          movies { releaseYear_count genre_count genres: genre_count(distinct: true) }
        }
        query Sums @auth(level: PUBLIC) { movies { releaseYear_sum budget_sum rating_sum } }
        query Averages @auth(level: PUBLIC) { movies { releaseYear_avg rating_avg budget_avg } }
        query Extremes @auth(level: PUBLIC) {
          movies {
            releaseYear_min releaseYear_max budget_min budget_max rating_max
            releaseDate_min releaseDate_max createdAt_min createdAt_max
          }
        }
        query PerGenre @auth(level: PUBLIC) { movies(orderBy: [{_count: DESC}, {genre: ASC}]) { genre _count } }
        query PopularGenres @auth(level: PUBLIC) { movies(having: {_count: {ge: 2}}) { genre _count releaseYear_max } }
        query ByLatestYear @auth(level: PUBLIC) {
          movies(where: {genre: {isNull: false}}, orderBy: [{releaseYear_max: DESC}]) { genre releaseYear_max }
        }
        query DirectorStats @auth(level: PUBLIC) {
          people(orderBy: [{name: ASC}]) { name movies_on_director { _count releaseYear_max } }
        }
        """

    @Test func theOneGroupOfAListWithoutPlainFieldsIsPagedLikeAnyRow() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let results = [
            backend.query("CountPaged", [:]), backend.query("CountPaged", ["limit": 1]),
            backend.query("CountPaged", ["limit": 0]), backend.query("CountPaged", ["offset": 0]),
            backend.query("CountPaged", ["offset": 1]), backend.query("CountPaged", ["limit": .null, "offset": .null]),
        ]

        // then: the group is there unless the page is empty or starts past it
        let one = json(#"{"movies": [{"_count": 5, "releaseYear_max": 2023}]}"#)
        let none = json(#"{"movies": []}"#)
        #expect(results.map(\.data) == [one, one, none, one, none, one])
    }

    @Test func countsRows() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("CountMovies")
        let none = backend.query("CountNone")

        // then: one element, even for no rows
        expectGoldenSQL(result)
        #expect(result.data == json(#"{"movies": [{"_count": 5}]}"#))
        #expect(none.data == json(#"{"movies": [{"_count": 0, "releaseYear_max": null}]}"#))
    }

    @Test func countsNonNullAndDistinctValues() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("Counts")

        // then
        expectGoldenSQL(result)
        #expect(result.data == json(#"{"movies": [{"releaseYear_count": 4, "genre_count": 4, "genres": 3}]}"#))
    }

    @Test func sumsInTheFieldsType() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("Sums")

        // then: Int64 sums are strings
        expectGoldenSQL(result)
        let row = try #require(result.data?["movies"]?[0])
        #expect(row["releaseYear_sum"] == 8014)
        #expect(row["budget_sum"] == "345000000")
        #expect(abs((row["rating_sum"]?.doubleValue ?? 0) - 31.5) < 1e-9)
    }

    @Test func averagesAsFloats() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("Averages")

        // then
        expectGoldenSQL(result)
        let row = try #require(result.data?["movies"]?[0])
        #expect(row["releaseYear_avg"] == 2003.5)
        #expect(abs((row["rating_avg"]?.doubleValue ?? 0) - 7.875) < 1e-9)
        #expect(abs((row["budget_avg"]?.doubleValue ?? 0) - 115_000_000) < 1e-6)
    }

    @Test func findsExtremesOfNumbersDatesAndTimestamps() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("Extremes")

        // then: Int64 as strings, timestamps trimmed like columns
        expectGoldenSQL(result)
        #expect(
            result.data
                == json(
                    #"{"movies": [{"releaseYear_min": 1962, "releaseYear_max": 2023, "budget_min": "40000000", "#
                        + #""budget_max": "160000000", "rating_max": 8.8, "releaseDate_min": "1962-04-11", "#
                        + #""releaseDate_max": "2023-07-21", "createdAt_min": "2024-01-01T10:00:00Z", "#
                        + #""createdAt_max": "2024-01-05T10:00:00Z"}]}"#))
    }

    @Test func groupsBySelectedFieldsAndOrdersByAggregates() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("PerGenre")

        // then: genre ties are ordered by declaration, NULL last
        expectGoldenSQL(result)
        #expect(
            result.data
                == json(
                    #"{"movies": [{"genre": "DRAMA", "_count": 2}, {"genre": "COMEDY", "_count": 1}, "#
                        + #"{"genre": "SCIFI", "_count": 1}, {"genre": null, "_count": 1}]}"#))
    }

    @Test func filtersGroupsWithHaving() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("PopularGenres")

        // then
        expectGoldenSQL(result)
        #expect(result.data == json(#"{"movies": [{"genre": "DRAMA", "_count": 2, "releaseYear_max": 2019}]}"#))
    }

    @Test func ordersGroupsByAFieldAggregate() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("ByLatestYear")

        // then
        expectGoldenSQL(result)
        #expect(
            result.data
                == json(
                    #"{"movies": [{"genre": "COMEDY", "releaseYear_max": 2023}, {"genre": "DRAMA", "releaseYear_max": 2019}, "#
                        + #"{"genre": "SCIFI", "releaseYear_max": 2010}]}"#))
    }

    @Test func aggregatesANestedRelationList() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("DirectorStats")

        // then
        expectGoldenSQL(result)
        #expect(
            result.data
                == json(
                    #"{"people": [{"name": "Gerwig", "movies_on_director": [{"_count": 2, "releaseYear_max": 2023}]}, "#
                        + #"{"name": "Nolan", "movies_on_director": [{"_count": 1, "releaseYear_max": 2010}]}, "#
                        + #"{"name": "Varda", "movies_on_director": [{"_count": 1, "releaseYear_max": 1962}]}]}"#))
    }
}
