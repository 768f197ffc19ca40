import DataConnectEmulator
import DataConnectWire
import EmulatorTesting
import Foundation
import Synchronization
import Testing

/// `--seed` runs only on an empty database: a persistent database started again keeps its data and logs why the
/// seed was skipped; a failing seed names the file, line and column. On SQLite and on PostgreSQL.
@Suite(.onBothDatabases) struct SeedOnceTests {
    static let schema = "type Shelf @table(key: \"label\") { label: String!, rank: Int }"
    static let seed = """
        # Seed data: runs once, on an empty database.
        mutation @transaction {
          a: shelf_insert(data: {label: "A", rank: 1})
          b: shelf_insert(data: {label: "B", rank: 2})
        }
        """

    @Test func aSecondStartOnTheSameDatabaseSkipsTheSeedAndKeepsTheData() throws {
        // given: a persistent database seeded once
        let backend = try Self.backend()
        defer { try? FileManager.default.removeItem(atPath: backend) }
        let database = try PersistentDatabase()
        let seed = backend + "/seed_data.gql"
        let firstLog = Lines()
        try database.emulator(backend, seed: seed, log: firstLog).stop()

        // when
        let secondLog = Lines()
        let second = try database.emulator(backend, seed: seed, log: secondLog)
        let shelves = Self.count(second)
        second.stop()

        // then
        #expect(firstLog.contains("seeded from \(seed)"))
        #expect(
            secondLog.lines.filter { $0.hasPrefix("seed skipped") } == [
                "seed skipped: table Shelf has rows; \(seed) runs only on an empty database"
            ])
        #expect(!secondLog.contains("seeded from"))
        #expect(shelves == 2)
    }

    @Test func aClearedDatabaseIsSeededAgainAtTheNextStart() throws {
        // given: a seeded persistent database, cleared (as POST /emulator/clear does, which does not seed)
        let backend = try Self.backend()
        defer { try? FileManager.default.removeItem(atPath: backend) }
        let database = try PersistentDatabase()
        let seed = backend + "/seed_data.gql"
        let first = try database.emulator(backend, seed: seed, log: Lines())
        try first.clear()
        let cleared = Self.count(first)
        first.stop()

        // when
        let log = Lines()
        let second = try database.emulator(backend, seed: seed, log: log)
        let shelves = Self.count(second)
        second.stop()

        // then
        #expect(cleared == 0)
        #expect(log.contains("seeded from \(seed)"))
        #expect(shelves == 2)
    }

    @Test(.on(.postgreSQL))  // several processes on one PostgreSQL database
    func emulatorsStartingAtOnceOnOnePostgreSQLDatabaseSeedOnce() async throws {
        // given
        let backend = try Self.backend()
        defer { try? FileManager.default.removeItem(atPath: backend) }
        let database = try PersistentDatabase()
        let seed = backend + "/seed_data.gql"
        let logs = [Lines(), Lines()]

        // when: two start at once
        let emulators = try await withThrowingTaskGroup(of: Emulator.self) { group in
            for log in logs {
                group.addTask { try database.emulator(backend, seed: seed, log: log) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let shelves = Self.count(emulators[0])
        for emulator in emulators { emulator.stop() }

        // then: one seeded, the other waited and skipped
        #expect(logs.filter { $0.contains("seeded from \(seed)") }.count == 1)
        #expect(logs.filter { $0.contains("seed skipped: table Shelf has rows") }.count == 1)
        #expect(shelves == 2)
    }

    @Test func aFailingSeedNamesTheFileAndTheLineAndColumnOfTheFailingField() throws {
        // given: a seed whose second field inserts a key the first one inserted
        let backend = try Self.backend()
        defer { try? FileManager.default.removeItem(atPath: backend) }
        let seed = backend + "/seed_data.gql"
        try """
        mutation @transaction {
          a: shelf_insert(data: {label: "A"})
          again: shelf_insert(data: {label: "A"})
        }
        """.write(toFile: seed, atomically: true, encoding: .utf8)
        let database = try PersistentDatabase()

        // when
        let message: String
        do {
            try database.emulator(backend, seed: seed, log: Lines()).stop()
            message = ""
        } catch {
            message = error.message
        }

        // then: one line, at `again:` (3:3); the field rolled back with it is left out
        #expect(message.hasPrefix("the seed file failed: \(seed):3:3: "), "\(message)")
        #expect(!message.contains("\n"), "\(message)")
    }

    // MARK: Helpers

    /// The number of shelves, read through the admin API.
    static func count(_ emulator: Emulator) -> Int? {
        let response = emulator.executeAdmin("query { shelfs { label } }")
        let body = try? JSONValue(parsing: response.body)
        return body?["data"]?["shelfs"]?.arrayValue?.count
    }

    /// A scratch backend with ``schema`` and ``seed`` as `seed_data.gql`.
    static func backend() throws -> String {
        let directory = try TestEmulatorTests.temporaryBackend(schema: schema, operations: nil)
        try seed.write(toFile: directory + "/seed_data.gql", atomically: true, encoding: .utf8)
        return directory
    }
}

/// A database that outlives one emulator: a SQLite data directory, or a PostgreSQL schema of its own.
final class PersistentDatabase: Sendable {
    let dataDirectory: String?
    let postgreSQL: TestPostgreSQLSchema?

    /// Creates the database: the running test's (its ``TestDatabaseTrait``) unless `database` is given.
    init(_ database: TestDatabase? = nil) throws {
        switch try database ?? TestDatabase.required() {
        case .sqlite:
            let directory = NSTemporaryDirectory() + "emulator-data-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            dataDirectory = directory
            postgreSQL = nil
        case .postgreSQL:
            dataDirectory = nil
            postgreSQL = try TestPostgreSQLSchema()
        }
    }

    deinit {
        if let dataDirectory { try? FileManager.default.removeItem(atPath: dataDirectory) }
    }

    /// An emulator (not listening) on this database, as `dataconnect emulator` builds it.
    func emulator(_ backend: String, seed: String? = nil, log: Lines) throws(EmulatorError) -> Emulator {
        try Emulator(
            options: Emulator.Options(
                backend: backend, port: 0, dataDirectory: dataDirectory, postgreSQL: postgreSQL?.connectionString,
                seedFile: seed, readers: 1, threads: 1, log: { log.append($0) }))
    }
}

/// The lines an emulator logged.
final class Lines: Sendable {
    private let storage = Mutex<[String]>([])

    /// Every line so far; a message of several lines counts as several.
    var lines: [String] { storage.withLock { $0 } }

    func append(_ message: String) {
        storage.withLock { $0 += message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Whether some line contains `text`.
    func contains(_ text: String) -> Bool {
        lines.contains { $0.contains(text) }
    }
}
