import EmulatorTesting
import Foundation
import SQLiteKit
import Testing

@testable import DataConnectEngine
@testable import DataConnectSQLiteStore

/// A damaged or empty database file stops the pool from opening, says what is wrong, and is left untouched.
@Suite(.on(.sqlite))  // SQLite database files
struct DatabaseFileCheckTests {
    /// A file database with a table of 2,000 rows (many pages), closed again.
    static func makeDatabase() throws -> (directory: String, file: String) {
        let directory = NSTemporaryDirectory() + "dataconnect-filecheck-" + UUID().uuidString
        let file = directory + "/" + SQLitePool.fileName
        do {
            let pool = try SQLitePool(location: .file(file), readers: 1)
            try pool.write { db in
                try db.connection.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
                try db.connection.execute(
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) "
                        + "INSERT INTO note SELECT i, printf('note %d %s', i, hex(randomblob(40))) FROM n")
                try db.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        return (directory, file)
    }

    static func openError(_ file: String) -> String? {
        do {
            _ = try SQLitePool(location: .file(file), readers: 1)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aHealthyFileOpensWithItsData() throws {
        // given
        let (directory, file) = try Self.makeDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }

        // when
        let pool = try SQLitePool(location: .file(file), readers: 1)

        // then
        #expect(try pool.read { try $0.connection.query("SELECT count(*) FROM note") }[0][0] == .integer(2000))
    }

    @Test func anEmptyFileIsReportedAndKept() throws {
        // given
        let directory = NSTemporaryDirectory() + "dataconnect-filecheck-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/" + SQLitePool.fileName
        _ = FileManager.default.createFile(atPath: file, contents: Data())

        // when
        let error = Self.openError(file)

        // then
        #expect(error?.contains("is empty (0 bytes)") == true, "\(error ?? "opened")")
        #expect(FileManager.default.contents(atPath: file) == Data())
    }

    @Test(arguments: [
        ("garbage in the middle", "PRAGMA quick_check found"),
        ("a foreign header", "does not start with the SQLite header"),
        ("half a page cut off", "not a whole number of"),
    ])
    func aDamagedFileIsReportedAndKept(_ damage: String, _ reason: String) throws {
        // given
        let (directory, file) = try Self.makeDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        switch damage {
        case "garbage in the middle":
            let middle = bytes.count / 2
            for index in middle..<(middle + 8_192) { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        case "a foreign header":
            bytes.replaceSubrange(0..<16, with: Array("PK\u{3}\u{4} not sqlite!".utf8).prefix(16))
        default:
            bytes.removeLast(2_048)
        }
        let damaged = Data(bytes)
        try damaged.write(to: URL(fileURLWithPath: file))

        // when
        let error = Self.openError(file)

        // then
        #expect(error?.contains("is damaged: ") == true && error?.contains(reason) == true, "\(error ?? "opened")")
        #expect(error?.contains("It was not modified") == true)
        #expect(FileManager.default.contents(atPath: file) == damaged, "the file is left as it was")
    }
}
