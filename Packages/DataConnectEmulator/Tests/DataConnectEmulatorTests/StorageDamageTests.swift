import DataConnectEngine
import DataConnectTestSupport
import DataConnectWire
import EmulatorTesting
import Foundation
import SQLiteKit
import Testing

@testable import DataConnectEmulator

#if canImport(FoundationNetworking)
import FoundationNetworking
import DataConnectSQLiteStore
#endif

/// A database file damaged under a running emulator: every later request is refused with 503, no write is
/// acknowledged after the damage is found, and the next start says what the write-ahead log still holds.
@Suite(.on(.sqlite))  // damaged SQLite files
struct StorageDamageTests {
    static let backend = Repository.root + "/Tests/Backends/library"

    /// A data directory whose database has the library schema, 300 members and a `filler` table of 2,000 rows,
    /// folded into the file (no write-ahead log); returns the directory, the file and the filler's pages.
    static func makeDataDirectory() throws -> (directory: String, file: String, fillerPages: ClosedRange<Int>) {
        let directory = NSTemporaryDirectory() + "dataconnect-damage-" + UUID().uuidString
        let file = directory + "/" + SQLitePool.fileName
        let first = try emulator(directory, clock: ManualClock(), log: Lines())
        let members = (0..<300).map { index -> JSONValue in
            ["id": .string("uid-\(index)"), "name": .string("Member \(index) " + String(repeating: "x", count: 60))]
        }
        let response = first.executeAdmin(
            "mutation($data: [Member_Data!]!) { member_insertMany(data: $data) }", variables: ["data": .array(members)])
        #expect(response.status == .ok)
        first.stop()
        let connection = try Connection(path: file)
        let before = try pageCount(connection)
        try connection.execute(
            "CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL);"
                + "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) "
                + "INSERT INTO filler SELECT i, printf('filler %d %s', i, hex(randomblob(30))) FROM n;"
                + "PRAGMA wal_checkpoint(TRUNCATE)")
        return (directory, file, (before + 2)...(try pageCount(connection) - 1))
    }

    static func pageCount(_ connection: Connection) throws -> Int {
        guard case .integer(let count) = try connection.query("PRAGMA page_count")[0][0] else { return 0 }
        return Int(count)
    }

    static func emulator(_ directory: String, clock: ManualClock, log: Lines) throws -> Emulator {
        let emulator = try Emulator(
            options: Emulator.Options(
                backend: backend, port: 0, dataDirectory: directory, readers: 1, threads: 2,
                log: { log.append($0) }, clock: clock, auth: false))
        try emulator.start()
        return emulator
    }

    /// Overwrites whole pages of the file with bytes that are no b-tree page.
    static func damage(_ file: String, pages: ClosedRange<Int>, pageSize: Int = 4_096) throws {
        let handle = try #require(FileHandle(forWritingAtPath: file))
        defer { try? handle.close() }
        for page in pages {
            try handle.seek(toOffset: UInt64((page - 1) * pageSize))
            handle.write(Data(repeating: 0xA5, count: pageSize))
        }
    }

    static func post(_ url: String, _ body: JSONValue) async throws -> HTTPResult {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.timeoutInterval = HangGuard.eventSeconds
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.serialized())
        let (data, response) = try await URLSession.shared.data(for: request)
        return HTTPResult(status: try #require(response as? HTTPURLResponse).statusCode, body: Array(data))
    }

    static func admin(_ emulator: Emulator, _ query: String) async throws -> HTTPResult {
        try await post(
            emulator.url + "/v1/projects/p/locations/l/services/library:executeGraphql", ["query": .string(query)])
    }

    static func info(_ emulator: Emulator) async throws -> JSONValue {
        let (data, _) = try await URLSession.shared.data(from: URL(string: emulator.url + "/emulator/info")!)
        return try JSONValue(parsing: Array(data))
    }

    /// Why an emulator on `directory` does not start, or `started`.
    static func startError(_ directory: String) -> String {
        do {
            _ = try emulator(directory, clock: ManualClock(), log: Lines())
            return "started"
        } catch {
            return "\(error)"
        }
    }

    static func walSize(_ file: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: file + "-wal"))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test func theProbeFindsDamageNoRequestHitAndEveryLaterRequestIsRefused() async throws {
        // given: a running emulator, whose file is damaged where no request reads
        let (directory, file, filler) = try Self.makeDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ManualClock()
        let log = Lines()
        var emulator: Emulator? = try Self.emulator(directory, clock: clock, log: log)
        let running = try #require(emulator)
        try Self.damage(file, pages: filler)
        let acknowledged = try await Self.admin(
            running, #"mutation { member_insert(data: {id: "uid-late", name: "Late"}) }"#)
        #expect(acknowledged.status == 200, "\(acknowledged)")
        #expect(try await Self.info(running)["storage"]?["state"] == "ok")

        // when: the probe runs
        clock.advance(by: running.options.integrityProbeInterval)

        // then
        let info = try await Self.info(running)
        #expect(info["storage"]?["state"] == "failed")
        #expect(info["storage"]?["file"]?.stringValue == file)
        let read = try await Self.admin(running, "query { members { id } }")
        #expect(read.status == 503)
        #expect(read.errorStatus == "UNAVAILABLE")
        #expect(read.errorMessage.contains(file) && read.errorMessage.contains(".recover"), "\(read)")
        let walBefore = Self.walSize(file)
        let write = try await Self.admin(running, #"mutation { member_insert(data: {id: "uid-lost", name: "Lost"}) }"#)
        #expect(write.status == 503)
        #expect(Self.walSize(file) == walBefore)
        let clear = try await Self.post(running.url + "/emulator/clear", [:])
        #expect(clear.status == 503)
        #expect(log.lines.filter { $0.contains("is damaged") }.count == 1, "\(log.lines)")

        // when: it stops and starts again
        running.stop()
        emulator = nil
        _ = emulator
        #expect(Self.walSize(file) > 0)
        let refusal = Self.startError(directory)

        // then
        #expect(refusal.contains("still holds 1 committed transaction"), "\(refusal)")
        #expect(refusal.contains("sqlite3 \(file) .recover"), "\(refusal)")
    }

    @Test func aReadThatHitsDamageFailsTheServiceAndLaterWritesAreRefused() async throws {
        // given
        let (directory, file, _) = try Self.makeDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = Lines()
        let emulator = try Self.emulator(directory, clock: ManualClock(), log: log)
        defer { emulator.stop() }
        let memberPages = try {
            let connection = try Connection(path: file, configuration: .init(mode: .readOnly))
            return try connection.query("SELECT pageno FROM dbstat WHERE name = 'member' AND pagetype = 'leaf'")
                .compactMap { row -> Int? in if case .integer(let page) = row[0] { Int(page) } else { nil } }
        }()
        for page in memberPages { try Self.damage(file, pages: page...page) }

        // when
        let read = try await Self.admin(emulator, "query { members { id name } }")

        // then
        #expect(read.status == 503, "\(read)")
        #expect(read.errorStatus == "UNAVAILABLE")
        #expect(read.errorMessage.contains(file))
        let write = try await Self.admin(emulator, #"mutation { member_insert(data: {id: "uid-x", name: "X"}) }"#)
        #expect(write.status == 503)
        #expect(try await Self.info(emulator)["storage"]?["state"] == "failed")
        #expect(log.lines.filter { $0.contains("is damaged") }.count == 1, "\(log.lines)")
    }

    @Test func aDataDirectoryThatIsAFileIsNamed() throws {
        // given
        let path = NSTemporaryDirectory() + "dataconnect-file-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }

        // when
        let refusal = Self.startError(path)

        // then
        #expect(refusal.contains("the data directory \(path) is a file, not a directory"), "\(refusal)")
    }

    @Test func aDatabasePathThatIsADirectoryIsNamed() throws {
        // given
        let directory = NSTemporaryDirectory() + "dataconnect-dir-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: directory + "/" + SQLitePool.fileName, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        // when
        let refusal = Self.startError(directory)

        // then
        #expect(refusal.contains("is a directory, not a database file"), "\(refusal)")
    }
}
