import DataConnectWire
import EmulatorTesting
import Testing

@testable import DataConnectEngine

/// Any nesting depth, selection width and filter size that validation admits compiles to SQL the database
/// accepts: relations deeper than one statement may nest are fetched by statements of their own, and
/// objects wider than one `json_object` call are built in parts.
@Suite(.onBothDatabases) struct CompileShapeTests {
    /// `director { name movies_on_director { title director { ... } } }`, `levels` (even) relations below a
    /// person.
    static func directorChain(_ levels: Int) -> String {
        var selection = "name"
        for level in stride(from: levels, to: 0, by: -1) {
            selection =
                level % 2 == 1
                ? "movies_on_director(orderBy: {title: ASC}, limit: 10) { title \(selection) }"
                : "director { name \(selection) }"
        }
        return "name \(selection)"
    }

    /// The answer ``directorChain(_:)`` gives for Gerwig (two movies, both hers).
    static func gerwigChain(_ levels: Int, entityIDs: Bool = false) -> JSONValue {
        func person(_ remaining: Int) -> JSONValue {
            var object: JSONObject = ["name": "Gerwig"]
            if remaining > 0 {
                object["movies_on_director"] = .array(
                    [("Barbie", EngineFixtures.barbie), ("Little Women", EngineFixtures.littleWomen)].map { movie in
                        var row: JSONObject = ["title": .string(movie.0)]
                        if remaining > 1 { row["director"] = person(remaining - 2) }
                        return .object(row)
                    })
            }
            return .object(object)
        }
        return person(levels)
    }

    @Test func eightLevelsOfRelationsAnswerInSeveralStatements() throws {
        // given eight relation levels below a lookup, more than one SQLite statement parses
        let backend = try TestBackend(
            """
            query Chain($id: UUID!) @auth(level: PUBLIC) { person(id: $id) { \(Self.directorChain(8)) } }
            """)

        // when
        let result = backend.query("Chain", ["id": .string(EngineFixtures.gerwig)])

        // then
        expectGoldenSQL(result)
        try result.requireOK()
        #expect(result.data?["person"] == Self.gerwigChain(8))
    }

    @Test func deepRelationsUnderAListKeepEveryParentsRows() throws {
        // given a list root with a filter, an order and a limit at every level
        let backend = try TestBackend(
            """
            query Chains @auth(level: PUBLIC) {
              people(where: {name: {ne: "Varda"}}, orderBy: {name: ASC}) { \(Self.directorChain(10)) }
            }
            """)

        // when
        let result = backend.query("Chains")

        // then: Gerwig's chain, and Nolan's (one movie, his own)
        try result.requireOK()
        let people = try #require(result.data?["people"]?.arrayValue)
        #expect(people.map { $0["name"] } == ["Gerwig", "Nolan"])
        #expect(people.first == Self.gerwigChain(10))
        var nolan = people.last
        for _ in 0..<5 {
            #expect(nolan?["movies_on_director"]?.arrayValue?.map { $0["title"] } == ["Inception"])
            nolan = nolan?["movies_on_director"]?[0]?["director"]
        }
    }

    @Test func splitRelationsReportTheirEntityIDs() throws {
        // given a client-cache connector and a chain split across statements
        let backend = try TestBackend(
            """
            query Chain($id: UUID!) @auth(level: PUBLIC) { person(id: $id) { \(Self.directorChain(6)) } }
            """, clientCache: true)

        // when
        let result = backend.query("Chain", ["id": .string(EngineFixtures.gerwig)])

        // then: the hidden keys never reach the answer, and the deepest rows have their ids
        try result.requireOK()
        #expect(result.data?["person"] == Self.gerwigChain(6))
        #expect(!Self.hasEmptyName(result.body))
        #expect(!result.body.jsonString().contains("$dc:"))
        let paths = result.dataConnect.compactMap { $0["path"]?.arrayValue?.count }
        #expect(paths.contains(7), "ids of the movies six levels down: \(result.dataConnect)")
    }

    @Test func twoHundredSelectedFieldsAnswerInOrder() throws {
        // given 200 fields, more than three json_object calls take
        let backend = try TestBackend(
            """
            query Wide @auth(level: PUBLIC) {
              movies(where: {title: {eq: "Barbie"}}) { \((1...200).map { "f\($0): title" }.joined(separator: " ")) id }
            }
            """, clientCache: true)

        // when
        let result = backend.query("Wide")

        // then
        try result.requireOK()
        let movie = try #require(result.data?["movies"]?[0]?.objectValue)
        #expect(Array(movie.keys) == (1...200).map { "f\($0)" } + ["id"])
        #expect(movie.values.dropLast().allSatisfy { $0 == "Barbie" })
        #expect(result.dataConnect.first?["entityIds"] == [.string("Movie/\(EngineFixtures.barbie)")])
    }

    @Test func aThousandAliasedFieldsAnswer() throws {
        // given the most aliases the limits admit: 16 json_object calls
        let backend = try TestBackend("query Unused @auth(level: PUBLIC) { movies { id } }")
        let fields = (1...1_000).map { "f\($0): releaseYear" }.joined(separator: " ")

        // when
        let result = backend.admin(#"{ movie(id: "\#(EngineFixtures.inception)") { \#(fields) } }"#)

        // then
        try result.requireOK()
        let movie = try #require(result.data?["movie"]?.objectValue)
        #expect(movie.count == 1_000)
        #expect(movie.keys.first == "f1" && movie.keys.last == "f1000")
        #expect(movie["f500"] == 2010)
    }

    @Test func objectsInPartsOfPartsAreMergedInOrder() throws {
        // given an object past 63 x 63 pairs: parts whose parts are objects
        let inner: JSONValue = [
            "$dc:part0": ["$dc:part0": ["a": 1, "b": 2], "$dc:part1": ["c": 3]],
            "$dc:part1": ["d": ["$dc:part0": ["e": 5]]],
        ]

        // when
        let merged = ReadAssembler.resolve(.array([inner]), fetched: [:])

        // then
        #expect(merged == [["a": 1, "b": 2, "c": 3, "d": ["e": 5]]])
        #expect(merged[0]?.objectValue.map { Array($0.keys) } == ["a", "b", "c", "d"])
    }

    @Test func aThousandTermOrAnswersUnderTheDefaultLimits() throws {
        // given 1,000 alternatives, the default maxFilterTerms
        let backend = try TestBackend("query Unused @auth(level: PUBLIC) { movies { id } }")
        let terms = (1..<1_000).map { #"{title: {eq: "t\#($0)"}}"# } + [#"{title: {eq: "Barbie"}}"#]

        // when
        let result = backend.admin(#"{ movies(where: {_or: [\#(terms.joined(separator: ", "))]}) { title } }"#)

        // then
        try result.requireOK()
        #expect(result.data?["movies"] == [["title": "Barbie"]])
    }

    @Test func aCheckReadingResponseByIndexSeesEarlierFields() throws {
        // given a check that reads an earlier root field as response['movies'] (not response.movies)
        let backend = try TestBackend(
            """
            query Checked @auth(level: PUBLIC) {
              movies(where: {title: {eq: "Barbie"}}) { title }
              again: movies(where: {title: {eq: "Barbie"}}) @check(expr: "size(response['movies']) == 1") { title }
            }
            """)

        // when
        let result = backend.query("Checked")

        // then
        try result.requireOK()
        #expect(result.data?["again"] == [["title": "Barbie"]])
    }

    @Test func statementsOfTheFullShapeAreCompiledAtLoad() throws {
        // given an operation with one required variable
        let backend = try TestBackend("query Fine($id: UUID!) @auth(level: PUBLIC) { movie(id: $id) { title } }")

        // when the first request comes, its statement is already compiled
        let operation = try #require(backend.engine.operations[TestBackend.connectorID]?["Fine"])

        // then
        #expect(operation.plans.withLock { $0.count } == 1)
        let result = backend.query("Fine", ["id": .string(EngineFixtures.barbie)])
        #expect(result.data?["movie"] == ["title": "Barbie"])
        #expect(operation.plans.withLock { $0.count } == 1, "the request reused the statement compiled at load")
    }

    /// Whether an object in `value` has a member with the empty name (the hidden entity-id member's).
    static func hasEmptyName(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let object): return object.contains { $0.key.isEmpty || hasEmptyName($0.value) }
        case .array(let items): return items.contains(where: hasEmptyName)
        default: return false
        }
    }
}
