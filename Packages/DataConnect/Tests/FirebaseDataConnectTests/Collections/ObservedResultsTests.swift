import DataConnectTestSupport
import DataConnectWire
import Foundation
import Testing

@testable import FirebaseDataConnect

/// Observed results fed by a ref executing against a scripted transport, recorded as value sequences.
@Suite struct ObservedResultsTests {
    struct Catalogue: Decodable, Sendable {
        struct Movie: Decodable, Sendable, Identifiable, Hashable {
            var id: String
            var title: String
            var genre: String
            static func == (lhs: Movie, rhs: Movie) -> Bool { lhs.id == rhs.id }
            func hash(into hasher: inout Hasher) { hasher.combine(id) }
        }
        var movies: [Movie]
    }

    static func response(_ movies: [(String, String, String)]) -> GraphQLResponse {
        GraphQLResponse(data: [
            "movies": .array(
                movies.map { .object(["id": .string($0.0), "title": .string($0.1), "genre": .string($0.2)]) })
        ])
    }

    /// Collects `count` values from `stream`; returns none when the hang guard passes first.
    static func collect<Value: Sendable>(_ count: Int, from stream: AsyncStream<Value>) async -> [Value] {
        await withTaskGroup(of: [Value].self) { group in
            group.addTask {
                var values: [Value] = []
                for await value in stream {
                    values.append(value)
                    if values.count == count { break }
                }
                return values
            }
            group.addTask {
                try? await Task.sleep(for: HangGuard.event)
                return []
            }
            let first = await group.next() ?? []
            group.cancelAll()
            return first
        }
    }

    @Test func sortedResultsReportEachChangeAndSkipUnchangedResults() async throws {
        // given: a ref whose data is the list of three versions
        let transport = RecordingTransport(replies: [
            .success(Self.response([("1", "Cube", "Sci-Fi"), ("2", "Alien", "Sci-Fi")])),
            .success(Self.response([("2", "Alien", "Sci-Fi"), ("1", "Cube", "Sci-Fi")])),  // same rows, other order
            .success(Self.response([("2", "Alien", "Sci-Fi"), ("3", "Brazil", "Comedy")])),
            .success(Self.response([("2", "Aliens", "Sci-Fi"), ("3", "Brazil", "Comedy")])),
        ])
        let ref = DataConnectFixtures.dataConnect(transport).query(
            name: "listMovies", variables: NoVariables(), resultsDataType: Catalogue.self)
        _ = try await ref.execute()
        let titles = ref.results(\.movies, sortedBy: \.title)
        let updates = titles.updates  // subscribed here: later results are buffered for this sequence

        // when
        for _ in 0..<3 { _ = try await ref.execute() }
        let collecting = Task { await Self.collect(3, from: updates) }
        let snapshots = await collecting.value

        // then: the current list, then the insert and delete, then the edit; the reordering publishes nothing
        #expect(
            snapshots.map { $0.elements.map(\.title) } == [
                ["Alien", "Cube"], ["Alien", "Brazil"], ["Aliens", "Brazil"],
            ])
        #expect(
            snapshots.map(\.changes) == [
                ListChanges(insertions: [0, 1]), ListChanges(deletions: [1], insertions: [1]),
                ListChanges(modifications: [0]),
            ])
    }

    @Test func sectionedResultsRegroupAfterAnInsertAndADelete() async throws {
        // given
        let transport = RecordingTransport(replies: [
            .success(Self.response([("1", "Cube", "Sci-Fi"), ("2", "Alien", "Sci-Fi"), ("3", "Brazil", "Comedy")])),
            .success(
                Self.response([
                    ("1", "Cube", "Sci-Fi"), ("2", "Alien", "Sci-Fi"), ("3", "Brazil", "Comedy"),
                    ("4", "Dune", "Drama"),
                ])),
            .success(Self.response([("1", "Cube", "Sci-Fi"), ("2", "Alien", "Sci-Fi"), ("4", "Dune", "Drama")])),
        ])
        let ref = DataConnectFixtures.dataConnect(transport).query(
            name: "listMovies", variables: NoVariables(), resultsDataType: Catalogue.self)
        let byGenre = ref.results(\.movies, sortedBy: \.title).sectioned(by: \.genre)
        let updates = byGenre.updates  // subscribed here: later results are buffered for this sequence

        // when: no data yet, so the first snapshot comes from the first execution
        for _ in 0..<3 { _ = try await ref.execute() }
        let collecting = Task { await Self.collect(3, from: updates) }
        let snapshots = await collecting.value

        // then
        #expect(
            snapshots.map { $0.sections.map(\.key) } == [
                ["Comedy", "Sci-Fi"], ["Comedy", "Drama", "Sci-Fi"], ["Drama", "Sci-Fi"],
            ])
        #expect(
            snapshots.map(\.changes) == [
                SectionedChanges(insertedSections: [0, 1]), SectionedChanges(insertedSections: [1]),
                SectionedChanges(deletedSections: [0]),
            ])
        #expect(snapshots.last?.sections.last?.map(\.title) == ["Alien", "Cube"])
    }
}
