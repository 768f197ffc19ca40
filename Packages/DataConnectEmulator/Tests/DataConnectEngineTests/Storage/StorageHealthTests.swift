import EmulatorTesting
import Foundation
import PostgreSQLKit
import SQLiteKit
import Synchronization
import Testing

@testable import DataConnectEngine
@testable import DataConnectPostgreSQLStore
@testable import DataConnectSQLiteStore

/// Storage errors that mean damage are classified as such, and recorded once.
@Suite struct StorageHealthTests {
    @Test(arguments: [
        ResultCode.corrupt, ResultCode(rawValue: 11 | (1 << 8)), ResultCode(rawValue: 11 | (3 << 8)),
        ResultCode.notADatabase,
    ])
    func sqliteCorruptAndNotADatabaseMeanDamageWhateverTheExtendedCode(_ code: ResultCode) {
        #expect(DatabaseError(SQLiteError(extendedCode: code, message: "malformed")).kind == .damaged)
    }

    @Test(arguments: ["XX001", "XX002"])
    func postgreSQLDataCorruptionClassesMeanDamage(_ state: String) {
        let error = PGError(kind: .server, sqlState: state, message: "invalid page in block 7")
        #expect(DatabaseError(error).kind == .damaged)
    }

    @Test func onlyTheFirstDamageIsRecordedAndObservedOnce() {
        // given
        let health = StorageHealth(location: "/data/dataconnect.sqlite", remedy: "Restore a copy")
        let seen = Counter()
        health.setObserver { _ in seen.add() }

        // when
        health.recordDamage("database disk image is malformed")
        health.recordDamage("file is not a database")

        // then
        #expect(health.failure?.detail == "database disk image is malformed")
        #expect(seen.value == 1)
    }

    // SQLite's write-ahead log.
    @Test(.on(.sqlite)) func theWriteAheadLogSummaryCountsCommittedTransactions() throws {
        // given: three transactions left in the log of a process that did not checkpoint
        let directory = NSTemporaryDirectory() + "dataconnect-wal-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/db.sqlite"
        let writer = try Connection(path: file)
        _ = try writer.journalMode(.wal)
        try writer.execute("PRAGMA wal_autocheckpoint = 0")
        try writer.execute("CREATE TABLE t (x)")
        try writer.execute("INSERT INTO t VALUES (1)")
        try writer.execute("INSERT INTO t VALUES (2)")
        try writer.keepWriteAheadLogOnClose()

        // when
        let log = WriteAheadLog.read(file + "-wal")

        // then
        #expect(log?.transactions == 3)
        #expect(WriteAheadLog.refusalNote(forDatabase: file).contains("still holds 3 committed transactions"))
        _ = writer
    }
}

/// A thread-safe count.
final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}
