import DataConnectWire
import EmulatorTesting
import Testing

@testable import DataConnectEngine

/// `X_Filter`: scalar operators, patterns, logic, server values, relative dates, list columns and
/// relations.
@Suite(.onBothDatabases) struct FilterTests {
    /// One filter sent as the `$where` variable, the titles it selects (in title order) and the key
    /// fragment of its SQL condition.
    struct Case: CustomTestStringConvertible, Sendable {
        let filter: String
        let titles: [String]
        let sql: String
        init(_ filter: String, _ titles: [String], sql: String) {
            self.filter = filter
            self.titles = titles
            self.sql = sql
        }
        var testDescription: String { filter }
    }

    static let operations = """
        query Movies($where: Movie_Filter) @auth(level: PUBLIC) {
          movies(where: $where, orderBy: [{title: ASC}]) { title }
        }
        query MyReviews @auth(level: USER) {
          reviews(where: {userId: {eq_expr: "auth.uid"}}, orderBy: [{rating: ASC}]) { rating }
        }
        query OthersReviews @auth(level: USER) {
          reviews(where: {userId: {ne_expr: "auth.uid"}}) { rating }
        }
        query CreatedBeforeNow @auth(level: PUBLIC) {
          movies(where: {createdAt: {lt_expr: "request.time"}}) { title }
        }
        query ReleasedOverTenYearsAgo @auth(level: PUBLIC) {
          movies(where: {releaseDate: {lt_date: {today: true, sub: {years: 10}}}}, orderBy: [{title: ASC}]) { title }
        }
        query ReleasedInTheWeekBefore2020 @auth(level: PUBLIC) {
          movies(where: {releaseDate: {gt_date: {on: "2019-12-31", sub: {days: 7}}}}, orderBy: [{title: ASC}]) { title }
        }
        query CreatedBefore10OnJan3 @auth(level: PUBLIC) {
          movies(where: {createdAt: {lt_time: {at: "2024-01-03T00:00:00Z", add: {hours: 10}}}}, orderBy: [{title: ASC}]) { title }
        }
        query Optional($q: String, $director: String) @auth(level: PUBLIC) {
          movies(where: {_not: {title: {eq: $q}}, director: {name: {eq: $director}}}, orderBy: [{title: ASC}]) { title }
        }
        query DirectorsOfDramas @auth(level: PUBLIC) {
          people(where: {movies_on_director: {exist: {genre: {eq: DRAMA}}}}, orderBy: [{name: ASC}]) { name }
        }
        """

    static let all = ["50% Off_Sale", "Barbie", "Cleo from 5 to 7", "Inception", "Little Women"]

    func run(_ backend: TestBackend, _ filter: String) -> EngineResult {
        backend.query("Movies", ["where": json(filter)])
    }

    func titles(_ result: EngineResult) -> [String] {
        (result.data?["movies"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }
    }

    func check(_ testCase: Case, sourceLocation: SourceLocation = #_sourceLocation) throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = run(backend, testCase.filter)

        // then
        expectGoldenSQL(result, variant: SQLGolden.slug(testCase.filter), sourceLocation: sourceLocation)
        #expect(result.errors.isEmpty, "\(result.body)", sourceLocation: sourceLocation)
        #expect(titles(result) == testCase.titles, sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        Case(#"{"releaseYear": {"eq": 2019}}"#, ["Little Women"], sql: #"WHERE t1."release_year" = ?1 "#),
        Case(
            #"{"releaseYear": {"ne": 2019}}"#, ["Barbie", "Cleo from 5 to 7", "Inception"],
            sql: #"t1."release_year" <> ?1"#),
        Case(#"{"releaseYear": {"gt": 2010}}"#, ["Barbie", "Little Women"], sql: #"t1."release_year" > ?1"#),
        Case(
            #"{"releaseYear": {"ge": 2010}}"#, ["Barbie", "Inception", "Little Women"], sql: #"t1."release_year" >= ?1"#
        ),
        Case(#"{"releaseYear": {"lt": 2010}}"#, ["Cleo from 5 to 7"], sql: #"t1."release_year" < ?1"#),
        Case(#"{"releaseYear": {"le": 2010}}"#, ["Cleo from 5 to 7", "Inception"], sql: #"t1."release_year" <= ?1"#),
        Case(#"{"rating": {"gt": 7.85}}"#, ["Cleo from 5 to 7", "Inception"], sql: #"t1."rating" > ?1"#),
        Case(
            #"{"title": {"ge": "Cleo"}}"#, ["Cleo from 5 to 7", "Inception", "Little Women"], sql: #"t1."title" >= ?1"#),
        Case(#"{"budget": {"gt": "100000000"}}"#, ["Barbie", "Inception"], sql: #"t1."budget" > ?1"#),
        Case(#"{"releaseDate": {"lt": "2000-01-01"}}"#, ["Cleo from 5 to 7"], sql: #"t1."release_date" < ?1"#),
        Case(
            #"{"createdAt": {"ge": "2024-01-03T11:00:00+01:00"}}"#,
            ["50% Off_Sale", "Cleo from 5 to 7", "Little Women"],
            sql: #"t1."created_at" >= ?1"#),
        Case(#"{"isClassic": {"eq": true}}"#, ["Cleo from 5 to 7"], sql: #"t1."is_classic" = ?1"#),
        Case(#"{"id": {"eq": "A0000000-0000-0000-0000-000000000002"}}"#, ["Barbie"], sql: #"t1."id" = ?1"#),
        Case(#"{"genre": {"ne": "DRAMA"}}"#, ["Barbie", "Inception"], sql: #"t1."genre" <> ?1"#),
        Case(#"{"extras": {"eq": {"cast": ["Leo"], "awards": 4}}}"#, ["Inception"], sql: #"t1."extras" = ?1"#),
    ])
    func comparesScalars(_ testCase: Case) throws {
        try check(testCase)
    }

    @Test(arguments: [
        Case(
            #"{"releaseYear": {"in": [2010, 2019]}}"#, ["Inception", "Little Women"],
            sql: #"t1."release_year" IN (SELECT value FROM json_each(?1))"#),
        Case(
            #"{"releaseYear": {"nin": [2010, 2019]}}"#, ["Barbie", "Cleo from 5 to 7"],
            sql: #"NOT (t1."release_year" IN (SELECT value FROM json_each(?1)))"#),
        Case(#"{"releaseYear": {"in": []}}"#, [], sql: "IN (SELECT value FROM json_each(?1))"),
        Case(#"{"releaseYear": {"nin": []}}"#, all, sql: "NOT (t1."),
        Case(
            #"{"genre": {"in": ["DRAMA", "COMEDY"]}}"#, ["Barbie", "Cleo from 5 to 7", "Little Women"],
            sql: #"t1."genre" IN (SELECT value FROM json_each(?1))"#),
        Case(
            #"{"id": {"in": ["a0000000-0000-0000-0000-000000000001", "{A0000000-0000-0000-0000-000000000004}"]}}"#,
            ["Cleo from 5 to 7", "Inception"], sql: #"t1."id" IN (SELECT value FROM json_each(?1))"#),
    ])
    func matchesListsOfValues(_ testCase: Case) throws {
        try check(testCase)
    }

    @Test(arguments: [
        Case(#"{"releaseYear": {"isNull": true}}"#, ["50% Off_Sale"], sql: #"t1."release_year" IS NULL"#),
        Case(
            #"{"releaseYear": {"isNull": false}}"#, ["Barbie", "Cleo from 5 to 7", "Inception", "Little Women"],
            sql: #"t1."release_year" IS NOT NULL"#),
    ])
    func testsForNull(_ testCase: Case) throws {
        try check(testCase)
    }

    @Test(arguments: [
        Case(
            #"{"title": {"contains": "o"}}"#, ["Cleo from 5 to 7", "Inception", "Little Women"],
            sql: #"(dataconnect_continue() AND t1."title" LIKE ?1 ESCAPE '\')"#),
        Case(#"{"title": {"contains": "barbie"}}"#, [], sql: "LIKE ?1"),
        Case(#"{"title": {"contains": "_"}}"#, ["50% Off_Sale"], sql: "LIKE ?1"),
        Case(#"{"title": {"contains": "% O"}}"#, ["50% Off_Sale"], sql: "LIKE ?1"),
        Case(#"{"title": {"startsWith": "5_"}}"#, [], sql: "LIKE ?1"),
        Case(#"{"title": {"startsWith": "Li"}}"#, ["Little Women"], sql: "LIKE ?1"),
        Case(#"{"title": {"startsWith": "b"}}"#, [], sql: "LIKE ?1"),
        Case(#"{"title": {"endsWith": "e"}}"#, ["50% Off_Sale", "Barbie"], sql: "LIKE ?1"),
    ])
    func matchesSubstringsCaseSensitivelyAndLiterally(_ testCase: Case) throws {
        try check(testCase)
    }

    @Test(arguments: [
        Case(
            #"{"title": {"pattern": {"like": "%o%"}}}"#, ["Cleo from 5 to 7", "Inception", "Little Women"],
            sql: #"t1."title" LIKE ?1"#),
        Case(
            #"{"title": {"pattern": {"like": "%O%", "ignoreCase": true}}}"#,
            ["50% Off_Sale", "Cleo from 5 to 7", "Inception", "Little Women"],
            sql: #"lower(t1."title") LIKE lower(?1)"#),
        Case(
            #"{"title": {"pattern": {"regex": "^[A-C]"}}}"#, ["Barbie", "Cleo from 5 to 7"],
            sql: #"dataconnect_regexp(?2, t1."title", ?1)"#),
        Case(#"{"title": {"pattern": {"regex": "^b", "ignoreCase": true}}}"#, ["Barbie"], sql: "dataconnect_regexp("),
    ])
    func matchesPatterns(_ testCase: Case) throws {
        try check(testCase)
    }

    @Test(arguments: [
        Case(
            #"{"_and": [{"releaseYear": {"ge": 2000}}, {"releaseYear": {"le": 2019}}]}"#,
            ["Inception", "Little Women"],
            sql: #"(t1."release_year" >= ?1 AND t1."release_year" <= ?2)"#),
        Case(
            #"{"_or": [{"genre": {"eq": "COMEDY"}}, {"isClassic": {"eq": true}}]}"#, ["Barbie", "Cleo from 5 to 7"],
            sql: #"(t1."genre" = ?1 OR t1."is_classic" = ?2)"#),
        Case(#"{"_not": {"genre": {"eq": "DRAMA"}}}"#, ["Barbie", "Inception"], sql: #"NOT (t1."genre" = ?1)"#),
        Case(
            #"{"genre": {"eq": "DRAMA"}, "releaseYear": {"gt": 2000}}"#, ["Little Women"],
            sql: #"t1."release_year" > ?1 AND t1."genre" = ?2"#),
        Case(#"{}"#, all, sql: #"FROM "movie" AS t1 ORDER BY"#),
    ])
    func combinesConditions(_ testCase: Case) throws {
        try check(testCase)
    }

    @Test(arguments: [
        Case(
            #"{"tags": {"includes": "pink"}}"#, ["Barbie"],
            sql: #"EXISTS (SELECT 1 FROM json_each(t1."tags") WHERE value = ?1)"#),
        Case(
            #"{"tags": {"excludes": "pink"}}"#, ["50% Off_Sale", "Cleo from 5 to 7", "Inception", "Little Women"],
            sql: #"NOT EXISTS (SELECT 1 FROM json_each(t1."tags") WHERE value = ?1)"#),
        Case(
            #"{"tags": {"includesAll": ["heist", "dream"]}}"#, ["Inception"],
            sql: "NOT EXISTS (SELECT 1 FROM json_each(?1) AS w"),
        Case(#"{"tags": {"includesAll": ["dream", "pink"]}}"#, [], sql: "NOT EXISTS (SELECT 1 FROM json_each(?1) AS w"),
        Case(
            #"{"tags": {"excludesAll": ["doll", "sisters"]}}"#, ["50% Off_Sale", "Cleo from 5 to 7", "Inception"],
            sql:
                #"NOT EXISTS (SELECT 1 FROM json_each(t1."tags") AS e WHERE e.value IN (SELECT value FROM json_each(?1)))"#
        ),
    ])
    func filtersListColumns(_ testCase: Case) throws {
        try check(testCase)
    }

    @Test(arguments: [
        Case(
            #"{"director": {"name": {"eq": "Gerwig"}}}"#, ["Barbie", "Little Women"],
            sql: #"EXISTS (SELECT 1 FROM "People" AS f2 WHERE f2."id" = t1."director_id" AND f2."name" = ?1)"#),
        Case(
            #"{"movieMetadata_on_movie": {"language": {"eq": "fr"}}}"#, ["Cleo from 5 to 7"],
            sql: #"EXISTS (SELECT 1 FROM "movie_metadata" AS f2 WHERE t1."id" = f2."movie_id" AND f2."language" = ?1)"#),
        Case(
            #"{"reviews_on_movie": {"exist": {"rating": {"ge": 4}}}}"#, ["Inception"],
            sql: #"EXISTS (SELECT 1 FROM "review" AS f2 WHERE t1."id" = f2."movie_id" AND f2."rating" >= ?1)"#),
        Case(#"{"reviews_on_movie": {}}"#, ["Barbie", "Inception"], sql: #"EXISTS (SELECT 1 FROM "review" AS f2"#),
        Case(
            #"{"reviews_on_movie": {"count": {"ge": 2}}}"#, ["Inception"],
            sql: #"(SELECT COUNT(*) FROM "review" AS f2 WHERE t1."id" = f2."movie_id") >= ?1"#),
        Case(
            #"{"reviews_on_movie": {"count": {"eq": 0}}}"#, ["50% Off_Sale", "Cleo from 5 to 7", "Little Women"],
            sql: "(SELECT COUNT(*) FROM"),
        Case(
            #"{"actors_via_MovieActor": {"exist": {"name": {"eq": "Saoirse"}}}}"#, ["Barbie", "Little Women"],
            sql:
                #"FROM "movie_actor" AS j3 JOIN "actor" AS f2 ON f2."id" = j3."actor_id" WHERE t1."id" = j3."movie_id" AND f2."name" = ?1"#
        ),
        Case(
            #"{"actors_via_MovieActor": {"count": {"ge": 2}}}"#, ["Barbie", "Little Women"], sql: #"JOIN "actor" AS f2"#
        ),
    ])
    func filtersThroughRelations(_ testCase: Case) throws {
        try check(testCase)
    }

    @Test func filtersThroughAReverseRelationFromTheOtherSide() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("DirectorsOfDramas")

        // then
        expectGoldenSQL(result)
        #expect(result.data == json(#"{"people": [{"name": "Gerwig"}, {"name": "Varda"}]}"#))
    }

    @Test func dropsNegationsAndRelationFiltersWhoseVariablesAreAbsent() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let none = backend.query("Optional")
        let director = backend.query("Optional", ["director": "Gerwig"])
        let both = backend.query("Optional", ["director": "Gerwig", "q": "Barbie"])

        // then: nothing left to negate or to match means no condition at all
        expectGoldenSQL(["director": director, "both": both])
        #expect(!none.allSQL.contains("WHERE"))
        #expect(titles(none) == Self.all)
        #expect(titles(director) == ["Barbie", "Little Women"])
        #expect(titles(both) == ["Little Women"])
    }

    @Test func comparesWithServerValues() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let mine = backend.query("MyReviews", auth: EngineFixtures.alice)
        let others = backend.query("OthersReviews", auth: EngineFixtures.alice)
        let beforeNow = backend.query("CreatedBeforeNow")

        // then
        expectGoldenSQL(["mine": mine, "others": others, "beforeNow": beforeNow])
        #expect(mine.data == json(#"{"reviews": [{"rating": 3}, {"rating": 5}]}"#))
        #expect(others.data == json(#"{"reviews": [{"rating": 4}]}"#))
        #expect(beforeNow.data?["movies"]?.arrayValue?.count == 5)
    }

    @Test func comparesWithRelativeDatesAndTimes() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let old = backend.query("ReleasedOverTenYearsAgo")
        let lateIn2019 = backend.query("ReleasedInTheWeekBefore2020")
        let early = backend.query("CreatedBefore10OnJan3")

        // then
        expectGoldenSQL(["old": old, "lateIn2019": lateIn2019, "early": early])
        #expect(old.data == json(#"{"movies": [{"title": "Cleo from 5 to 7"}, {"title": "Inception"}]}"#))
        #expect(lateIn2019.data == json(#"{"movies": [{"title": "Barbie"}, {"title": "Little Women"}]}"#))
        #expect(early.data == json(#"{"movies": [{"title": "Barbie"}, {"title": "Inception"}]}"#))
    }

    @Test func treatsSQLInVariablesAsData() throws {
        // given
        let backend = try TestBackend(Self.operations)
        let hostile = "'; DROP TABLE movie; --"

        // when
        let lookup = run(backend, #"{"title": {"eq": "'; DROP TABLE movie; --"}}"#)
        let insert = backend.admin(
            #"mutation($t: String!) { movie_insert(data: {id: "a00000000000000000000000000000ff", title: $t}) }"#,
            ["t": .string(hostile)], auth: EngineFixtures.alice)
        let again = run(backend, #"{"title": {"startsWith": "';"}}"#)

        // then: the text is bound, never spliced into SQL, and the table survives
        #expect(!lookup.allSQL.contains("DROP"))
        #expect(lookup.data == json(#"{"movies": []}"#))
        #expect(insert.errors.isEmpty)
        #expect(titles(again) == [hostile])
        #expect(titles(run(backend, "{}")).count == 6)
    }
}
