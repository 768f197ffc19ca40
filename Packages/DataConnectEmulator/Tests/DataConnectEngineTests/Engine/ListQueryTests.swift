import DataConnectWire
import EmulatorTesting
import Testing

@testable import DataConnectEngine

/// List root fields `xs(where, orderBy, offset, limit, distinct)`.
@Suite(.onBothDatabases) struct ListQueryTests {
    static let operations = """
        query RecentMovies @auth(level: PUBLIC) {
          movies(where: {releaseYear: {ge: 2000}}, orderBy: [{releaseYear: DESC}]) { title }
        }
        query ByDirectorThenYear @auth(level: PUBLIC) {
          movies(orderBy: [{directorId: ASC}, {releaseYear: DESC}]) { title }
        }
        query ByDirectorName @auth(level: PUBLIC) {
          movies(orderBy: [{director: {name: ASC}}, {title: ASC}]) { title }
        }
        query ByYear($direction: OrderDirection!) @auth(level: PUBLIC) {
          movies(orderBy: [{releaseYear: $direction}]) { title }
        }
        query ByGenre @auth(level: PUBLIC) { movies(orderBy: [{genre: ASC}, {title: ASC}]) { title genre } }
        query AllEvents @auth(level: PUBLIC) { events { name } }
        query Page($limit: Int, $offset: Int) @auth(level: PUBLIC) {
          movies(orderBy: [{title: ASC}], limit: $limit, offset: $offset) { title }
        }
        query Genres @auth(level: PUBLIC) { movies(distinct: true, orderBy: [{genre: ASC}], limit: 2) { genre } }
        query FixedPage @auth(level: PUBLIC) { movies(orderBy: [{title: ASC}], limit: 2, offset: 1) { title } }
        query NegativeLimit @auth(level: PUBLIC) { movies(orderBy: [{title: ASC}], limit: -1) { title } }
        query Search($q: String, $titleOrder: OrderDirection) @auth(level: PUBLIC) {
          movies(where: {title: {contains: $q}}, orderBy: [{title: $titleOrder}, {releaseYear: DESC}]) { title }
        }
        """

    static func titles(_ result: EngineResult, _ field: String = "movies") -> [String] {
        (result.data?[field]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }
    }

    @Test func filtersAndOrders() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("RecentMovies")

        // then
        expectGoldenSQL(result)
        #expect(
            result.data
                == json(#"{"movies": [{"title": "Barbie"}, {"title": "Little Women"}, {"title": "Inception"}]}"#))
    }

    @Test func ordersBySeveralKeys() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("ByDirectorThenYear")

        // then: ties on the director are broken by year; the movie without a director is last
        expectGoldenSQL(result)
        #expect(Self.titles(result) == ["Inception", "Barbie", "Little Women", "Cleo from 5 to 7", "50% Off_Sale"])
    }

    @Test func ordersByAFieldOfAForwardReference() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("ByDirectorName")

        // then
        expectGoldenSQL(result)
        #expect(Self.titles(result) == ["Barbie", "Little Women", "Inception", "Cleo from 5 to 7", "50% Off_Sale"])
    }

    @Test(arguments: [
        ("ASC", ["Cleo from 5 to 7", "Inception", "Little Women", "Barbie", "50% Off_Sale"]),
        ("DESC", ["50% Off_Sale", "Barbie", "Little Women", "Inception", "Cleo from 5 to 7"]),
    ])
    func placesNullsLastAscendingAndFirstDescending(direction: String, expected: [String]) throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("ByYear", ["direction": .string(direction)])

        // then
        expectGoldenSQL(result, variant: direction)
        #expect(Self.titles(result) == expected)
    }

    @Test func ordersEnumsByDeclaration() throws {
        // given: Genre is declared DRAMA, COMEDY, SCIFI
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("ByGenre")

        // then
        expectGoldenSQL(result)
        #expect(
            result.data?["movies"]?.arrayValue?.map { $0["genre"] ?? .null }
                == ["DRAMA", "DRAMA", "COMEDY", "SCIFI", nil])
        #expect(Self.titles(result) == ["Cleo from 5 to 7", "Little Women", "Barbie", "Inception", "50% Off_Sale"])
    }

    @Test func limitsToOneHundredRowsByDefault() throws {
        // given: 105 events
        let backend = try TestBackend(Self.operations)
        let rows = (1...105).map { "{name: \"e\($0)\"}" }.joined(separator: ", ")
        #expect(
            backend.admin("mutation { event_insertMany(data: [\(rows)]) }", auth: EngineFixtures.alice).errors.isEmpty)

        // when
        let result = backend.query("AllEvents")

        // then
        expectGoldenSQL(result)
        #expect(result.data?["events"]?.arrayValue?.count == 100)
    }

    @Test func pagesWithLimitAndOffset() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let page = backend.query("Page", ["limit": 2, "offset": 1])
        let rest = backend.query("Page", ["offset": 3])

        // then: titles sort as 50% Off_Sale, Barbie, Cleo..., Inception, Little Women
        expectGoldenSQL(page)
        #expect(Self.titles(page) == ["Barbie", "Cleo from 5 to 7"])
        #expect(Self.titles(rest) == ["Inception", "Little Women"])
    }

    @Test func pagesWithALimitAndOffsetWrittenInTheOperation() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let fixed = backend.query("FixedPage")
        let variables = backend.query("Page", ["limit": 2, "offset": 1])

        // then: the same page; the golden SQL carries the counts in the statement, not as parameters
        expectGoldenSQL(fixed)
        #expect(Self.titles(fixed) == ["Barbie", "Cleo from 5 to 7"])
        #expect(Self.titles(fixed) == Self.titles(variables))
    }

    @Test func refusesANegativeLimitWrittenInTheOperation() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("NegativeLimit")

        // then: refused when bound, as a negative variable is, with the argument named
        #expect(result.data == .null)
        #expect(
            result.errors.map { $0["message"]?.stringValue } == [#""limit" must be a non-negative integer, got -1"#])
        #expect(result.errors.map { $0["extensions"]?["code"]?.stringValue } == ["INVALID_ARGUMENT"])
    }

    @Test func removesDuplicatesBeforeLimiting() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("Genres")

        // then: the two first distinct genres, not the distinct values of the first two rows
        expectGoldenSQL(result)
        #expect(result.data == json(#"{"movies": [{"genre": "DRAMA"}, {"genre": "COMEDY"}]}"#))
    }

    @Test func dropsClausesWhoseVariableIsAbsent() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when: neither $q nor $titleOrder is sent
        let result = backend.query("Search")
        let filtered = backend.query("Search", ["q": "o", "titleOrder": "ASC"])

        // then: no WHERE, and only the year ordering is left
        expectGoldenSQL(["result": result, "filtered": filtered])
        #expect(Self.titles(result) == ["50% Off_Sale", "Barbie", "Little Women", "Inception", "Cleo from 5 to 7"])
        #expect(Self.titles(filtered) == ["Cleo from 5 to 7", "Inception", "Little Women"])
    }
}
