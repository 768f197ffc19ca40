import DataConnectWire
import EmulatorTesting
import Foundation
import Testing

/// Vector similarity and full-text search over HTTP, on the database of this test process
/// (`Tests/Backends/search`: six films, searchable titles and descriptions, 4-dimensional embeddings).
@Suite(.onBothDatabases) struct SearchAndSimilarityTests {
    let emulator: TestEmulator
    let client: EmulatorClient

    init() throws {
        let directory = Repository.root + "/Tests/Backends/search"
        emulator = try TestEmulator(
            backend: directory, seedFile: directory + "/seed_data.gql", database: TestDatabase.required())
        client = EmulatorClient(emulator, connector: "catalog")
    }

    /// The seed's embeddings (m6 has none).
    static let embeddings: [String: [Double]] = [
        "m1": [1, 0, 0, 0], "m2": [0.9, 0.1, 0, 0], "m3": [0, 1, 0, 0], "m4": [0, 0, 1, 0],
        "m5": [0.5, 0.5, 0.5, 0.5],
    ]

    static func distance(_ method: String, _ a: [Double], _ b: [Double]) -> Double {
        let dot = zip(a, b).map(*).reduce(0, +)
        switch method {
        case "L2": return zip(a, b).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
        case "COSINE":
            let norms = a.map { $0 * $0 }.reduce(0, +).squareRoot() * b.map { $0 * $0 }.reduce(0, +).squareRoot()
            return 1 - dot / norms
        default: return -dot
        }
    }

    /// The expected rows: by distance, then id.
    static func expected(_ method: String, _ compare: [Double]) -> [(String, Double)] {
        embeddings.map { ($0.key, distance(method, $0.value, compare)) }
            .sorted { abs($0.1 - $1.1) > 1e-12 ? $0.1 < $1.1 : $0.0 < $1.0 }
    }

    static func rows(_ result: HTTPResult, _ field: String) -> [JSONValue] {
        result.data?[field]?.arrayValue ?? []
    }

    static func ids(_ result: HTTPResult, _ field: String) -> [String] {
        rows(result, field).compactMap { $0["id"]?.stringValue }
    }

    /// Whether the request was refused with 400 as an invalid argument (or, for `compare_embed`, a failed
    /// precondition), never `INTERNAL`.
    static func isInvalidArgument(_ result: HTTPResult) -> Bool {
        result.status == 400 && ["INVALID_ARGUMENT", "FAILED_PRECONDITION"].contains(result.errorStatus)
    }

    static func vector(_ values: [Double]) -> JSONValue {
        .array(values.map { .number(JSONNumber($0)) })
    }

    @Test(arguments: ["L2", "COSINE", "INNER_PRODUCT"])
    func similarityOrdersByDistance(method: String) async throws {
        // given
        let compare = [0.8, 0.3, 0.1, 0]
        // when
        let result = try await client.query("similar", ["compare": Self.vector(compare), "method": .string(method)])
        // then
        #expect(result.status == 200, "\(result)")
        let rows = Self.rows(result, "movies_embedding_similarity")
        let expected = Self.expected(method, compare)
        #expect(rows.compactMap { $0["id"]?.stringValue } == expected.map(\.0))
        for (row, (_, distance)) in zip(rows, expected) {
            let got = row["_metadata"]?["distance"]?.doubleValue ?? .nan
            #expect(abs(got - distance) < 1e-9, "\(row)")
            #expect(row["_metadata"]?["relevance"] == .null)
        }
    }

    @Test func similarityDefaultsToTheNegativeInnerProduct() async throws {
        let result = try await client.query("similarDefault", ["compare": Self.vector([1, 0, 0, 0])])
        #expect(result.status == 200, "\(result)")
        let rows = Self.rows(result, "movies_embedding_similarity")
        #expect(rows.compactMap { $0["id"]?.stringValue } == ["m1", "m2", "m5", "m3", "m4"])
        #expect(rows.first?["_metadata"]?["distance"]?.doubleValue == -1)
    }

    @Test func similarityKeepsRowsWithinTheDistanceAndWhere() async throws {
        let within = try await client.query(
            "similar", ["compare": Self.vector([1, 0, 0, 0]), "method": "L2", "within": 0.5])
        #expect(Self.ids(within, "movies_embedding_similarity") == ["m1", "m2"], "\(within)")
        let filtered = try await client.query(
            "similar",
            ["compare": Self.vector([0, 1, 0, 0]), "method": "L2", "where": ["genre": ["eq": "scifi"]]])
        #expect(Self.ids(filtered, "movies_embedding_similarity") == ["m5", "m2", "m1"], "\(filtered)")
        let page = try await client.query(
            "similar", ["compare": Self.vector([1, 0, 0, 0]), "method": "L2", "limit": 2, "offset": 1])
        #expect(Self.ids(page, "movies_embedding_similarity") == ["m2", "m5"], "\(page)")
    }

    @Test func badVectorsAreInvalidArguments() async throws {
        let short = try await client.query("similar", ["compare": Self.vector([1, 0, 0])])
        #expect(Self.isInvalidArgument(short), "\(short)")
        #expect(short.description.contains("size 4"), "\(short)")
        let words = try await client.query("similar", ["compare": ["a", "b", "c", "d"]])
        #expect(Self.isInvalidArgument(words), "\(words)")
        let embed = try await client.query("similarToText")
        #expect(Self.isInvalidArgument(embed), "\(embed)")
        #expect(embed.description.contains("compare"), "\(embed)")
        #expect(!embed.description.contains("INTERNAL"))
        let written = try await client.admin(
            #"mutation { movie_insert(data: {id: "m9", title: "T", genre: "g", year: 2000, embedding: [1, 2]}) }"#)
        #expect(Self.isInvalidArgument(written), "\(written)")
        #expect(written.description.contains("size 4"), "\(written)")
    }

    @Test(arguments: [
        ("QUERY", "machines", ["m1", "m2", "m5"]),
        ("QUERY", "machines -reloaded", ["m1", "m5"]),
        ("QUERY", "\"electric sheep\"", ["m5"]),
        ("QUERY", "cats or robbery", ["m3", "m4"]),
        ("PLAIN", "fights, machines!", ["m1", "m2"]),
        ("PHRASE", "learns the truth", ["m1"]),
        ("ADVANCED", "machin:* & !reloaded", ["m1", "m5"]),
        ("ADVANCED", "(cats | robbery) & !dog", ["m3"]),
        ("ADVANCED", "hot <-> afternoon", ["m4"]),
        ("QUERY", "", []),
    ])
    func searchFindsTheMatchingRows(format: String, query: String, expected: [String]) async throws {
        // when
        let result = try await client.query("search", ["query": .string(query), "format": .string(format)])
        // then
        #expect(result.status == 200, "\(result)")
        let rows = Self.rows(result, "movies_search")
        #expect(Set(rows.compactMap { $0["id"]?.stringValue }) == Set(expected), "\(result)")
        let relevance = rows.compactMap { $0["_metadata"]?["relevance"]?.doubleValue }
        #expect(relevance.count == rows.count)
        #expect(relevance == relevance.sorted(by: >), "descending relevance: \(relevance)")
        #expect(relevance.allSatisfy { $0 > 0 })
        #expect(rows.allSatisfy { $0["_metadata"]?["distance"] == .null })
    }

    @Test func searchRanksTheBetterMatchFirst() async throws {
        let result = try await client.query("search", ["query": "cats"])
        #expect(Self.ids(result, "movies_search") == ["m3"], "\(result)")
        let both = try await client.query("search", ["query": "matrix machines"])
        #expect(Set(Self.ids(both, "movies_search")) == ["m1", "m2"], "\(both)")
    }

    @Test func searchAppliesThresholdWhereLimitAndOrderBy() async throws {
        let none = try await client.query("search", ["query": "machines", "threshold": 1000])
        #expect(Self.ids(none, "movies_search") == [], "\(none)")
        let recent = try await client.query("search", ["query": "machines", "where": ["year": ["gt": 2005]]])
        #expect(Self.ids(recent, "movies_search") == ["m5"], "\(recent)")
        let one = try await client.query("search", ["query": "machines", "limit": 1])
        #expect(Self.ids(one, "movies_search").count == 1, "\(one)")
        let newest = try await client.query("searchNewestFirst", ["query": "machines"])
        #expect(Self.ids(newest, "movies_search") == ["m5", "m2", "m1"], "\(newest)")
    }

    @Test(arguments: ["cats & (", "!", "a <2x> b", "title:cats &", String(repeating: "(", count: 100) + "cats"])
    func unreadableAdvancedQueriesAreInvalidArguments(query: String) async throws {
        let result = try await client.query("search", ["query": .string(query), "format": "ADVANCED"])
        #expect(Self.isInvalidArgument(result), "\(result)")
        #expect(result.description.contains("search query"), "\(result)")
    }

    @Test func searchFollowsWrites() async throws {
        // given
        let added = try await client.admin(
            #"mutation { movie_insert(data: {id: "m7", title: "Sheep Counting", genre: "drama", year: 2021}) }"#)
        #expect(added.status == 200, "\(added)")
        let renamed = try await client.admin(
            #"mutation { movie_update(id: "m3", data: {title: "Dogs", description: "barking"}) }"#)
        #expect(renamed.status == 200, "\(renamed)")
        let removed = try await client.admin(#"mutation { movie_delete(id: "m5") }"#)
        #expect(removed.status == 200, "\(removed)")
        // then
        #expect(Self.ids(try await client.query("search", ["query": "sheep"]), "movies_search") == ["m7"])
        #expect(Self.ids(try await client.query("search", ["query": "cats"]), "movies_search") == [])
        #expect(Self.ids(try await client.query("search", ["query": "barking"]), "movies_search") == ["m3"])
    }

    @Test func similarityFollowsWrites() async throws {
        // given: a new film nearest to the compared vector, m1 moved away, m2 deleted
        let added = try await client.admin(
            #"mutation { movie_insert(data: {id: "m7", title: "T", genre: "g", year: 2000, embedding: [0, 0, 0, 1]}) }"#
        )
        #expect(added.status == 200, "\(added)")
        let moved = try await client.admin(#"mutation { movie_update(id: "m1", data: {embedding: [0, 0, 1, 0]}) }"#)
        #expect(moved.status == 200, "\(moved)")
        let renamed = try await client.admin(#"mutation { movie_update(id: "m4", data: {title: "Renamed"}) }"#)
        #expect(renamed.status == 200, "\(renamed)")
        let removed = try await client.admin(#"mutation { movie_delete(id: "m2") }"#)
        #expect(removed.status == 200, "\(removed)")
        let cleared = try await client.admin(#"mutation { movie_update(id: "m3", data: {embedding: null}) }"#)
        #expect(cleared.status == 200, "\(cleared)")
        // when
        let result = try await client.query("similar", ["compare": Self.vector([0, 0, 0.1, 1]), "method": "L2"])
        // then: m4 and m1 tie at the same vector and come in key order; m3 has no vector any more
        #expect(result.status == 200, "\(result)")
        #expect(Self.ids(result, "movies_embedding_similarity") == ["m7", "m5", "m1", "m4"], "\(result)")
    }

    @Test func metadataIsNullOutsideRankedFields() async throws {
        let result = try await client.query("listMovies")
        #expect(result.status == 200, "\(result)")
        let rows = Self.rows(result, "movies")
        #expect(rows.count == 6)
        #expect(rows.allSatisfy { $0["_metadata"] == .null }, "\(result)")
    }
}
