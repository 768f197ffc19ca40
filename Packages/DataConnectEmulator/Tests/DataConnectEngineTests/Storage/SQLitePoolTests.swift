import EmulatorTesting
import Foundation
import SQLiteKit
import Synchronization
import Testing

@testable import DataConnectEngine
@testable import DataConnectSQLiteStore

@Suite(.on(.sqlite))  // the SQLite pool
struct SQLitePoolTests {
    @Test func memoryPoolSharesOneDatabaseBetweenWriterAndReaders() throws {
        // given
        let pool = try SQLitePool(location: .memory, readers: 2)
        #expect(pool.path.hasPrefix("file:/dataconnect-") && pool.path.hasSuffix("?vfs=memdb"))

        // when
        try pool.write { db in
            try db.connection.execute("CREATE TABLE chef (id TEXT PRIMARY KEY, name TEXT NOT NULL)")
            try db.connection.execute("INSERT INTO chef VALUES ('c1', 'Ada'), ('c2', 'Grace')")
        }
        let first = try pool.read { db in try db.connection.query("SELECT name FROM chef ORDER BY id") }
        let second = try pool.read { db in try db.connection.query("SELECT count(*) FROM chef") }

        // then
        #expect(first.map { $0["name"] as String? } == ["Ada", "Grace"])
        #expect(second[0][0] == .integer(2))
    }

    @Test func memoryPoolJournalsInMemoryAndRollsBack() throws {
        // given
        let pool = try SQLitePool(location: .memory, readers: 1)
        try pool.write { try $0.connection.execute("CREATE TABLE chef (name TEXT)") }

        // when
        let mode = try pool.write { try $0.connection.journalMode() }
        try? pool.write { db in
            try db.connection.transaction(.immediate) {
                try db.connection.execute("INSERT INTO chef VALUES ('Ada')")
                throw CancellationError()
            }
        }

        // then
        #expect(mode == .memory)
        #expect(try pool.read { try StorageFixtures.scalar($0.connection, "SELECT count(*) FROM chef") } == 0)
    }

    @Test func twoMemoryPoolsAreSeparateDatabases() throws {
        // given
        let a = try SQLitePool(location: .memory, readers: 1)
        let b = try SQLitePool(location: .memory, readers: 1)

        // when
        try a.write { try $0.connection.execute("CREATE TABLE only_in_a (x)") }

        // then
        let tables = try b.read { try $0.connection.query("SELECT name FROM sqlite_schema") }
        #expect(tables.isEmpty)
        #expect(a.path != b.path)
    }

    @Test func readersAreQueryOnly() throws {
        // given
        let pool = try SQLitePool(location: .memory, readers: 1)
        try pool.write { try $0.connection.execute("CREATE TABLE t (x)") }

        // when
        let error = pool.read { db in
            #expect(db.role == .reader)
            return #expect(throws: SQLiteError.self) { try db.connection.execute("INSERT INTO t VALUES (1)") }
        }

        // then
        #expect(error?.code == .readOnly)
    }

    @Test func fileDatabaseUsesWALWithNormalSyncAndForeignKeys() throws {
        // given
        let directory = try StorageFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }

        // when
        let pool = try SQLitePool(location: .dataDirectory(directory + "/nested"), readers: 2)

        // then
        #expect(pool.path == directory + "/nested/dataconnect.sqlite")
        #expect(FileManager.default.fileExists(atPath: pool.path))
        let writerSettings = try pool.write { db in
            [
                try StorageFixtures.scalar(db.connection, "PRAGMA journal_mode"),
                try StorageFixtures.scalar(db.connection, "PRAGMA synchronous"),
                try StorageFixtures.scalar(db.connection, "PRAGMA foreign_keys"),
            ]
        }
        let readerSettings = try pool.read { db in
            [
                try StorageFixtures.scalar(db.connection, "PRAGMA foreign_keys"),
                try StorageFixtures.scalar(db.connection, "PRAGMA query_only"),
            ]
        }
        #expect(writerSettings == ["wal", 1, 1])
        #expect(readerSettings == [1, 1])
    }

    @Test func walReaderKeepsItsSnapshotWhileTheWriterCommits() throws {
        // given
        let directory = try StorageFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try SQLitePool(location: .dataDirectory(directory), readers: 2, busyTimeout: .milliseconds(100))
        try pool.write { db in
            try db.connection.execute("CREATE TABLE chef (name TEXT)")
            try db.connection.execute("INSERT INTO chef VALUES ('Ada')")
        }

        // when: a reader's loan (one read transaction) lasts while the writer commits a new row
        let (before, during) = try pool.read { reader in
            let before = try StorageFixtures.scalar(reader.connection, "SELECT count(*) FROM chef")
            try pool.write { writer in
                try writer.connection.transaction(.immediate) {
                    try writer.connection.execute("INSERT INTO chef VALUES ('Grace')")
                }
            }
            let during = try StorageFixtures.scalar(reader.connection, "SELECT count(*) FROM chef")
            return (before, during)
        }
        let after = try pool.read { try StorageFixtures.scalar($0.connection, "SELECT count(*) FROM chef") }

        // then: the commit did not wait for the reader, which kept its snapshot; the next read sees the row
        #expect(before == .integer(1))
        #expect(during == .integer(1))
        #expect(after == .integer(2))
    }

    @Test func walReaderSeesCommittedDataWhileTheWriterIsBusy() throws {
        // given
        let directory = try StorageFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try SQLitePool(location: .dataDirectory(directory), readers: 2, busyTimeout: .milliseconds(100))
        try pool.write { db in
            try db.connection.execute("CREATE TABLE chef (name TEXT)")
            try db.connection.execute("INSERT INTO chef VALUES ('Ada')")
        }

        // when: the writer is inside an uncommitted transaction
        let seen = try pool.write { writer in
            try writer.connection.execute("BEGIN IMMEDIATE")
            try writer.connection.execute("INSERT INTO chef VALUES ('Grace')")
            return try pool.read { try $0.connection.query("SELECT name FROM chef") }.map { $0["name"] as String? }
        }

        // then: the reader saw only committed data, and the open transaction was rolled back with the loan
        #expect(seen == ["Ada"])
        let after = try pool.read { try StorageFixtures.scalar($0.connection, "SELECT count(*) FROM chef") }
        #expect(after == .integer(1))
    }

    @Test func memoryReaderWaitsForAnOpenWriteTransactionToCommit() throws {
        // given: the reader reports when it finds the database locked, and retries once the writer has committed
        let pool = try SQLitePool(location: .memory, readers: 1)
        try pool.write { db in
            try db.connection.execute("CREATE TABLE chef (name TEXT)")
            try db.connection.execute("INSERT INTO chef VALUES ('Ada')")
        }
        let writing = DispatchSemaphore(value: 0)
        let readerBlocked = DispatchSemaphore(value: 0)
        let committed = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        pool.read { reader in
            reader.connection.setBusyHandler { attempt in
                if attempt == 0 { readerBlocked.signal() }
                // a hang guard: on a busy machine the writer's thread may be slow to commit
                guard committed.wait(timeout: .now() + .seconds(120)) == .success else { return false }
                committed.signal()  // committed stays committed, should SQLite ask again
                return true
            }
        }

        // when: another thread holds a write transaction until the reader is blocked by it, then commits
        DispatchQueue.global().async {
            try? pool.write { db in
                try db.connection.transaction(.immediate) {
                    try db.connection.execute("INSERT INTO chef VALUES ('Grace')")
                    writing.signal()
                    _ = readerBlocked.wait(timeout: .now() + .seconds(120))
                }
            }
            committed.signal()
            done.signal()
        }
        writing.wait()
        let count = try pool.read { try StorageFixtures.scalar($0.connection, "SELECT count(*) FROM chef") }
        done.wait()

        // then: memdb has no WAL, so the read waited for the commit instead of reading the old snapshot
        #expect(count == .integer(2))
    }

    @Test func memoryReaderFailsBusyWhenAWriteTransactionOutlastsTheTimeout() throws {
        // given
        let pool = try SQLitePool(location: .memory, readers: 1, busyTimeout: .milliseconds(20))
        try pool.write { try $0.connection.execute("CREATE TABLE chef (name TEXT)") }

        // when
        let error = try pool.write { writer in
            try writer.connection.execute("BEGIN IMMEDIATE")
            try writer.connection.execute("INSERT INTO chef VALUES ('Grace')")
            return pool.read { reader in
                #expect(throws: SQLiteError.self) { try reader.connection.query("SELECT * FROM chef") }
            }
        }

        // then
        #expect(error?.code == .busy)
    }

    @Test(arguments: [false, true])
    func concurrentReadsAndSerializedWritesSucceed(onFile: Bool) async throws {
        // given
        let directory = try StorageFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try SQLitePool(location: onFile ? .dataDirectory(directory) : .memory, readers: 2)
        try pool.write { try $0.connection.execute("CREATE TABLE counter (n INTEGER NOT NULL)") }

        // when: four writers and four readers run at once
        let observed = try await withThrowingTaskGroup(of: Int64.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for step in 0..<50 {
                        try pool.write { db in
                            try db.connection.transaction(.immediate) {
                                try db.cachedStatement("INSERT INTO counter VALUES (?)").execute([
                                    .integer(Int64(writer * 100 + step))
                                ])
                            }
                        }
                    }
                    return -1
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    var last: Int64 = 0
                    for _ in 0..<200 {
                        let count = try pool.read { db in
                            try db.cachedStatement("SELECT count(*) FROM counter").query()[0][0]
                        }
                        guard case .integer(let n) = count, n >= last else { throw CancellationError() }
                        last = n
                    }
                    return last
                }
            }
            var results: [Int64] = []
            for try await value in group { results.append(value) }
            return results
        }

        // then: every write landed and every reader saw a growing count
        let total = try pool.read { try StorageFixtures.scalar($0.connection, "SELECT count(*) FROM counter") }
        #expect(total == .integer(200))
        #expect(observed.count == 8)
    }

    @Test func cachedStatementsAreReusedPerConnection() throws {
        // given
        let pool = try SQLitePool(location: .memory, readers: 1)
        try pool.write { try $0.connection.execute("CREATE TABLE t (x INTEGER)") }

        // when
        let (first, second, count) = try pool.write { db in
            let first = try db.cachedStatement("INSERT INTO t VALUES (?)")
            try first.execute([1])
            let second = try db.cachedStatement("INSERT INTO t VALUES (?)")
            try second.execute([2])
            return (ObjectIdentifier(first), ObjectIdentifier(second), db.cachedStatementCount)
        }
        let again = try pool.write { db in ObjectIdentifier(try db.cachedStatement("INSERT INTO t VALUES (?)")) }

        // then
        #expect(first == second)
        #expect(first == again)
        #expect(count == 1)
    }

    @Test func aStatementLeftMidwayIsResetWhenTheLoanEnds() throws {
        // given
        let directory = try StorageFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try SQLitePool(location: .dataDirectory(directory), readers: 1)
        try pool.write { db in
            try db.connection.execute("CREATE TABLE t (x INTEGER)")
            try db.connection.execute("INSERT INTO t VALUES (1), (2)")
        }

        // when: a read steps once and returns, leaving the statement (and its read snapshot) open
        try pool.read { db in
            let select = try db.cachedStatement("SELECT x FROM t")
            _ = try select.step()
        }
        try pool.write { try $0.connection.execute("INSERT INTO t VALUES (3)") }

        // then: the next read starts a new snapshot
        let count = try pool.read { try StorageFixtures.scalar($0.connection, "SELECT count(*) FROM t") }
        #expect(count == .integer(3))
        let snapshot = pool.read { $0.keptSnapshot?.commits }
        #expect(snapshot == pool.commits.load(ordering: .relaxed))
    }

    @Test func aThreadGetsBackTheReaderItUsedLast() throws {
        // given: two threads, each holding a reader at the same time, then handing it back in turn
        let pool = try SQLitePool(location: .memory, readers: 3)
        let firstHolds = DispatchSemaphore(value: 0)
        let secondHolds = DispatchSemaphore(value: 0)
        let firstReturned = DispatchSemaphore(value: 0)
        let secondReturned = DispatchSemaphore(value: 0)
        let firstReadAgain = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let borrowed = BorrowLog()
        let record = borrowed.record

        // when: the first thread returns its reader, then the second; the first reads again, then the second
        let first = Thread {
            pool.read { connection in
                record("first", connection)
                firstHolds.signal()
                secondHolds.wait()
            }
            firstReturned.signal()
            secondReturned.wait()
            pool.read { record("first", $0) }
            firstReadAgain.signal()
            done.signal()
        }
        let second = Thread {
            firstHolds.wait()
            pool.read { connection in
                record("second", connection)
                secondHolds.signal()
                firstReturned.wait()
            }
            secondReturned.signal()
            firstReadAgain.wait()
            pool.read { record("second", $0) }
            done.signal()
        }
        first.start()
        second.start()
        done.wait()
        done.wait()

        // then: the reader handed back last went to the thread that had it, not to the first thread asking
        let seen = borrowed.entries
        let firstThread = try #require(seen["first"])
        let secondThread = try #require(seen["second"])
        #expect(firstThread.count == 2 && secondThread.count == 2)
        #expect(firstThread[0] != secondThread[0])
        #expect(firstThread[1] == firstThread[0])
        #expect(secondThread[1] == secondThread[0])
    }
}

/// Which reader each named thread borrowed, in order.
private final class BorrowLog: Sendable {
    private let state = Mutex<[String: [ObjectIdentifier]]>([:])

    var entries: [String: [ObjectIdentifier]] { state.withLock { $0 } }

    @Sendable func record(_ name: String, _ connection: SQLitePooledConnection) {
        state.withLock { $0[name, default: []].append(ObjectIdentifier(connection)) }
    }
}
