import DataConnectTesting
import FirebaseDataConnect
import Foundation
import SearchCatalog
import Testing

/// The shared seeded search emulator `DataConnect.catalogConnector` uses in these tests; nothing writes to it.
enum SearchCatalogFixture {
    /// Started once per database, on first use, for the whole suite.
    private static let started = SharedEmulators { database in
        try TestEmulator(backend: RepositoryPaths.search, seedFile: RepositoryPaths.searchSeed, database: database)
    }

    /// The running emulator, with the shared connector pointed at it.
    @discardableResult
    static func connect() throws -> TestEmulator {
        let emulator = try started.get()
        DataConnect.catalogConnector.useEmulator(host: emulator.host, port: emulator.port)
        return emulator
    }

    /// The seed's embeddings; `m6` has none.
    static let embeddings: [String: [Double]] = [
        "m1": [1, 0, 0, 0], "m2": [0.9, 0.1, 0, 0], "m3": [0, 1, 0, 0], "m4": [0, 0, 1, 0],
        "m5": [0.5, 0.5, 0.5, 0.5],
    ]

    /// The distance `method` gives between two vectors: L2, one minus the cosine, or the negative inner product.
    static func distance(_ method: VectorSimilarityMethod, _ a: [Double], _ b: [Double]) -> Double {
        let dot = zip(a, b).map(*).reduce(0, +)
        switch method {
        case .L2:
            return zip(a, b).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
        case .COSINE:
            let norms = a.map { $0 * $0 }.reduce(0, +).squareRoot() * b.map { $0 * $0 }.reduce(0, +).squareRoot()
            return 1 - dot / norms
        default:
            return -dot
        }
    }

    /// Every film with an embedding and its distance to `compare`: nearest first, ties by id.
    static func expected(_ method: VectorSimilarityMethod, _ compare: [Double]) -> [(id: String, distance: Double)] {
        embeddings.map { (id: $0.key, distance: distance(method, $0.value, compare)) }
            .sorted { abs($0.distance - $1.distance) > 1e-12 ? $0.distance < $1.distance : $0.id < $1.id }
    }
}

/// Every operation of `DataConnect.catalogConnector` (`Tests/Backends/search`) against a live emulator: vector
/// similarity and full-text search read through the generated, typed `_metadata`.
@Suite(.onBothDatabases, .serialized) struct SearchCatalogOperationsTests {
    let catalog = DataConnect.catalogConnector

    init() throws {
        try SearchCatalogFixture.connect()
    }

    /// Whether two distances agree to within rounding.
    private func close(_ got: Double?, _ expected: Double) -> Bool {
        guard let got else { return false }
        return abs(got - expected) < 1e-9
    }

    // MARK: - Similarity

    @Test(arguments: [VectorSimilarityMethod.L2, .COSINE, .INNER_PRODUCT])
    func similarOrdersByTheDistanceOfEachMethod(method: VectorSimilarityMethod) async throws {
        // given
        let compare = [0.8, 0.3, 0.1, 0]
        let expected = SearchCatalogFixture.expected(method, compare)

        // when
        let rows = try await catalog.similarQuery.execute(compare: compare) { $0.method = method }.data
            .movies_embedding_similarity

        // then
        #expect(rows.map(\.id) == expected.map(\.id), "m6 has no embedding")
        for (row, want) in zip(rows, expected) {
            #expect(close(row._metadata?.distance, want.distance), "\(row.id): \(String(describing: row._metadata))")
            #expect(row._metadata?.relevance == nil, "\(row.id)")
        }
    }

    @Test func similarDefaultUsesTheNegativeInnerProduct() async throws {
        // when
        let rows = try await catalog.similarDefaultQuery.execute(compare: [1, 0, 0, 0]).data
            .movies_embedding_similarity

        // then
        #expect(rows.map(\.id) == ["m1", "m2", "m5", "m3", "m4"])
        #expect(rows.map { $0._metadata?.distance } == [-1, -0.9, -0.5, 0, 0])
    }

    @Test func similarKeepsRowsWithinTheDistanceMatchingTheFilterOnThePage() async throws {
        // when
        let within = try await catalog.similarQuery.execute(compare: [1, 0, 0, 0]) {
            $0.method = .L2
            $0.within = 0.5
        }.data.movies_embedding_similarity
        let scifi = try await catalog.similarQuery.execute(compare: [0, 1, 0, 0]) {
            $0.method = .L2
            $0.where = Movie_Filter(genre: String_Filter(eq: "scifi"))
        }.data.movies_embedding_similarity
        let page = try await catalog.similarQuery.execute(compare: [1, 0, 0, 0]) {
            $0.method = .L2
            $0.limit = 2
            $0.offset = 1
        }.data.movies_embedding_similarity

        // then
        #expect(within.map(\.id) == ["m1", "m2"])
        #expect(close(within.first?._metadata?.distance, 0))
        #expect(close(within.last?._metadata?.distance, 0.02.squareRoot()))
        #expect(scifi.map(\.id) == ["m5", "m2", "m1"])
        #expect(close(scifi.first?._metadata?.distance, 1))
        #expect(page.map(\.id) == ["m2", "m5"])
        #expect(close(page.last?._metadata?.distance, 1))
    }

    @Test func similarRefusesAVectorOfTheWrongSize() async throws {
        // when
        let error = await #expect(throws: DataConnectServerError.self) {
            try await catalog.similarQuery.execute(compare: [1, 0, 0])
        }

        // then
        #expect(error?.code == .invalidArgument)
        #expect(error?.httpStatus == 400)
        #expect(error?.message?.contains("size 4") == true, "\(String(describing: error?.message))")
    }

    @Test func similarToTextIsRefusedWithoutVertexAI() async throws {
        // when
        let error = await #expect(throws: DataConnectServerError.self) {
            try await catalog.similarToTextQuery.execute()
        }

        // then
        #expect(error?.code == .invalidArgument || error?.code == .failedPrecondition, "\(String(describing: error))")
        #expect(error?.httpStatus == 400)
        #expect(error?.message?.contains("compare") == true, "\(String(describing: error?.message))")
    }

    // MARK: - Search

    @Test(arguments: [
        (Search_QueryFormat.QUERY, "machines", ["m1", "m2", "m5"]),
        (.QUERY, "machines -reloaded", ["m1", "m5"]),
        (.QUERY, "\"electric sheep\"", ["m5"]),
        (.QUERY, "cats or robbery", ["m3", "m4"]),
        (.PLAIN, "fights, machines!", ["m1", "m2"]),
        (.PHRASE, "learns the truth", ["m1"]),
        (.ADVANCED, "machin:* & !reloaded", ["m1", "m5"]),
        (.ADVANCED, "(cats | robbery) & !dog", ["m3"]),
        (.QUERY, "", []),
    ])
    func searchFindsTheMatchesByDescendingRelevance(
        format: Search_QueryFormat, query: String, expected: [String]
    ) async throws {
        // when
        let rows = try await catalog.searchQuery.execute {
            $0.query = query
            $0.format = format
        }.data.movies_search

        // then
        #expect(Set(rows.map(\.id)) == Set(expected))
        let relevance = rows.compactMap { $0._metadata?.relevance }
        #expect(relevance.count == rows.count, "every row has a relevance")
        #expect(relevance == relevance.sorted(by: >), "descending: \(relevance)")
        #expect(relevance.allSatisfy { $0 > 0 })
        #expect(rows.allSatisfy { $0._metadata?.distance == nil })
    }

    @Test func searchRanksTheOnlyMatchAndIgnoresTheUnsearchedColumns() async throws {
        // when
        let cats = try await catalog.searchQuery.execute { $0.query = "cats" }.data.movies_search
        let genre = try await catalog.searchQuery.execute { $0.query = "drama" }.data.movies_search
        let both = try await catalog.searchQuery.execute { $0.query = "matrix machines" }.data.movies_search

        // then
        #expect(cats.map(\.id) == ["m3"])
        #expect(genre.isEmpty, "genre is not searchable")
        #expect(Set(both.map(\.id)) == ["m1", "m2"])
    }

    @Test func searchAppliesTheThresholdTheFilterAndTheLimit() async throws {
        // when
        let all = try await catalog.searchQuery.execute { $0.query = "machines" }.data.movies_search
        let none = try await catalog.searchQuery.execute {
            $0.query = "machines"
            $0.threshold = 1000
        }.data.movies_search
        let atLeastTheLowest = try await catalog.searchQuery.execute {
            $0.query = "machines"
            $0.threshold = all.compactMap { $0._metadata?.relevance }.min()
        }.data.movies_search
        let recent = try await catalog.searchQuery.execute {
            $0.query = "machines"
            $0.where = Movie_Filter(year: Int_Filter(gt: 2005))
        }.data.movies_search
        let one = try await catalog.searchQuery.execute {
            $0.query = "machines"
            $0.limit = 1
        }.data.movies_search

        // then
        #expect(all.count == 3)
        #expect(none.isEmpty)
        #expect(Set(atLeastTheLowest.map(\.id)) == Set(all.map(\.id)), "the threshold is inclusive")
        #expect(recent.map(\.id) == ["m5"])
        #expect(one.count == 1)
        #expect(
            one.first?._metadata?.relevance == all.compactMap { $0._metadata?.relevance }.max(), "the most relevant")
    }

    @Test func searchRefusesAnUnreadableAdvancedQuery() async throws {
        // when
        let error = await #expect(throws: DataConnectServerError.self) {
            try await catalog.searchQuery.execute {
                $0.query = "cats & ("
                $0.format = .ADVANCED
            }
        }

        // then
        #expect(error?.code == .invalidArgument)
        #expect(error?.message?.contains("search query") == true, "\(String(describing: error?.message))")
    }

    @Test func searchNewestFirstOrdersTheMatchesByYear() async throws {
        // when
        let rows = try await catalog.searchNewestFirstQuery.execute { $0.query = "machines" }.data.movies_search

        // then
        #expect(rows.map(\.id) == ["m5", "m2", "m1"])
    }

    // MARK: - Lists

    @Test func listMoviesHasNoMetadataOutsideRankedFields() async throws {
        // when
        let rows = try await catalog.listMoviesQuery.execute().data.movies

        // then
        #expect(rows.map(\.id) == ["m1", "m2", "m3", "m4", "m5", "m6"])
        #expect(rows.allSatisfy { $0._metadata == nil })
    }
}
