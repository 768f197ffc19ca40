import DataConnectWire
import Foundation
import Synchronization
import Testing

@testable import FirebaseDataConnect

/// The two storages every cache test runs on.
enum CacheBackend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory
    case persistent

    var testDescription: String { rawValue }

    /// Settings for this backend; persistent files go to a fresh temporary folder.
    func settings(maxAge: TimeInterval) -> CacheSettings {
        switch self {
        case .memory: CacheSettings(storage: .memory, maxAge: maxAge)
        case .persistent:
            CacheSettings(
                storage: .persistent, maxAge: maxAge,
                directory: FileManager.default.temporaryDirectory.appendingPathComponent("dc-cache-\(UUID())").path)
        }
    }
}

/// Warnings the cache reported, collected from any thread.
final class WarningLog: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// A clock that stands still until a test moves it.
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    /// The current time.
    var now: Date { current.withLock { $0 } }

    /// Moves the time forward.
    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}

/// A `DataConnect` with a client cache over a scripted transport, on a test clock.
struct CachedConnector {
    let transport: RecordingTransport
    let dataConnect: DataConnect
    let warnings = WarningLog()
    let clock = TestClock()

    init(_ backend: CacheBackend, maxAge: TimeInterval, transport: RecordingTransport = RecordingTransport()) {
        self.transport = transport
        let warnings = self.warnings
        let clock = self.clock
        dataConnect = DataConnect(
            app: DataConnectFixtures.makeApp(), connectorConfig: DataConnectFixtures.config,
            settings: DataConnectSettings(cacheSettings: backend.settings(maxAge: maxAge)),
            transport: transport, environment: [:], cacheWarning: { warnings.append($0) }, cacheClock: { clock.now })
    }

    func listRef(_ genre: String = "Sci-Fi") -> QueryRefObservation<MovieList, GenreVariables> {
        dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: genre), resultsDataType: MovieList.self)
    }

    /// A response of movies with the entity ids a cache-enabled connector sends.
    static func movies(_ titles: [(id: String, title: String)]) -> GraphQLResponse {
        GraphQLResponse(
            data: ["movies": .array(titles.map { .object(["id": .string($0.id), "title": .string($0.title)]) })],
            extensions: .init(dataConnect: [
                DataConnectProperties(
                    path: [.field("movies")], entityIds: titles.map { "Movie/\($0.id)" }, action: .list)
            ]))
    }

    static let unreachable = TransportError.connection("Could not connect to the server.", code: -1004)
}
