import EmulatorTesting
import Foundation
import SQLiteKit
import Synchronization
import Testing

@testable import DataConnectEngine
@testable import DataConnectSQLiteStore

/// Readers of a file keep their read transaction between loans (`SQLitePool+Snapshots.swift`): what a read sees.
@Suite(.on(.sqlite))
struct SQLitePoolSnapshotTests {
    /// A pool on a new file with one table `t (x)` holding the row 1; snapshots last an hour unless said otherwise.
    private func makePool(
        readers: Int = 1, lifetime: Duration = .seconds(3_600), idleRelease: Duration = .seconds(3_600),
        watchdog: any DeadlineScheduler = DeadlineWatchdog.shared
    ) throws -> (SQLitePool, directory: String) {
        let directory = try StorageFixtures.temporaryDirectory()
        let pool = try SQLitePool(
            location: .dataDirectory(directory), readers: readers, snapshotLifetime: lifetime,
            snapshotIdleRelease: idleRelease, snapshotWatchdog: watchdog)
        try pool.write { db in
            try db.connection.execute("CREATE TABLE t (x INTEGER)")
            try db.connection.execute("INSERT INTO t VALUES (1)")
        }
        return (pool, directory)
    }

    private func count(_ pool: SQLitePool) throws -> SQLiteValue {
        try pool.read { try StorageFixtures.scalar($0.connection, "SELECT count(*) FROM t") }
    }

    /// Inserts a row through a connection of its own, as another process would.
    private func insertElsewhere(_ directory: String) throws {
        let other = try Connection(path: directory + "/" + SQLitePool.fileName)
        try other.execute("INSERT INTO t VALUES (2)")
    }

    @Test func aReaderKeepsItsSnapshotAcrossLoansUntilThePoolCommits() throws {
        // given: a read, so that the reader keeps a snapshot
        let (pool, directory) = try makePool()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try count(pool) == .integer(1))

        // when: another connection commits a row, then the pool's writer commits one
        try insertElsewhere(directory)
        let beforePoolWrite = try count(pool)
        try pool.write { try $0.connection.execute("INSERT INTO t VALUES (3)") }
        let afterPoolWrite = try count(pool)

        // then: the kept snapshot did not see the other connection's row; the pool's commit made the next read
        // begin a new one, which sees both
        #expect(beforePoolWrite == .integer(1))
        #expect(afterPoolWrite == .integer(3))
    }

    @Test func aSnapshotPastItsLifetimeIsNotKept() throws {
        // given: snapshots that outlive no loan
        let (pool, directory) = try makePool(lifetime: .zero)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try count(pool) == .integer(1))

        // when
        try insertElsewhere(directory)

        // then
        #expect(try count(pool) == .integer(2))
    }

    @Test func theWatchdogEndsSnapshotsLeftIdle() throws {
        // given: a read that kept its snapshot and had the watchdog scheduled
        let deadlines = ManualDeadlines()
        let (pool, directory) = try makePool(readers: 2, idleRelease: .zero, watchdog: deadlines)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try count(pool) == .integer(1))
        let keptBefore = pool.readers.withFreeConnections { $0.keptSnapshot != nil }

        // when: the release's time comes with the readers left alone
        #expect(deadlines.pending == 1)
        deadlines.passPending()
        let kept = pool.readers.withFreeConnections { $0.keptSnapshot != nil }
        try insertElsewhere(directory)

        // then: no reader keeps a snapshot, nothing more is scheduled, and the next read sees the other connection's
        // row
        #expect(keptBefore)
        #expect(!kept)
        #expect(deadlines.pending == 0)
        #expect(try count(pool) == .integer(2))
    }

    @Test func aCheckpointEmptiesTheLogWhileReadersKeepOldSnapshots() throws {
        // given: two readers keeping snapshots, then commits after them
        let (pool, directory) = try makePool(readers: 2)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let start = DispatchSemaphore(value: 0)
        let bothHold = DispatchGroup()
        let bothReturned = DispatchGroup()
        for _ in 0..<2 {
            bothHold.enter()
            bothReturned.enter()
            Thread {
                pool.read { db in
                    _ = try? StorageFixtures.scalar(db.connection, "SELECT count(*) FROM t")
                    bothHold.leave()
                    start.wait()
                }
                bothReturned.leave()
            }.start()
        }
        bothHold.wait()
        start.signal()
        start.signal()
        bothReturned.wait()
        try pool.write { db in
            for value in 10..<200 { try db.connection.execute("INSERT INTO t VALUES (?)", [.integer(Int64(value))]) }
        }
        var kept = 0
        _ = pool.readers.withFreeConnections { connection in
            if connection.keptSnapshot != nil { kept += 1 }
            return false
        }

        // when
        try pool.checkpoint()

        // then: the log is empty (a truncating checkpoint that readers held back leaves it as it was)
        let log = try FileManager.default.attributesOfItem(atPath: directory + "/" + SQLitePool.fileName + "-wal")
        #expect(kept == 2)
        #expect((log[.size] as? NSNumber)?.intValue == 0)
        #expect(try count(pool) == .integer(191))
    }

    @Test func aFailedReadLeavesTheReaderUsable() throws {
        // given
        let (pool, directory) = try makePool()
        defer { try? FileManager.default.removeItem(atPath: directory) }

        // when: a read fails, then the pool commits
        #expect(throws: SQLiteError.self) { try pool.read { try $0.connection.execute("SELECT * FROM missing") } }
        try pool.write { try $0.connection.execute("INSERT INTO t VALUES (2)") }

        // then
        #expect(try count(pool) == .integer(2))
    }

    @Test func aReadAfterAWriteSeesItWhileOtherThreadsReadAndWrite() async throws {
        // given: two readers, and threads each writing rows of their own and reading them back at once
        let (pool, directory) = try makePool(readers: 2, lifetime: .seconds(3_600), idleRelease: .milliseconds(1))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try pool.write { try $0.connection.execute("CREATE TABLE w (thread INTEGER, n INTEGER)") }

        // when
        let missed = try await withThrowingTaskGroup(of: Int.self) { group in
            for thread in 0..<3 {
                group.addTask {
                    var missed = 0
                    let me = SQLiteValue.integer(Int64(thread))
                    for n in 1...150 {
                        let row: [SQLiteValue] = [me, .integer(Int64(n))]
                        try pool.write { try $0.connection.execute("INSERT INTO w VALUES (?, ?)", row) }
                        let seen = try pool.read { db in
                            try StorageFixtures.scalar(db.connection, "SELECT max(n) FROM w WHERE thread = ?", [me])
                        }
                        if seen != .integer(Int64(n)) { missed += 1 }
                    }
                    return missed
                }
            }
            return try await group.reduce(0, +)
        }

        // then: every read saw the write its thread committed just before
        #expect(missed == 0)
    }

    @Test func aMemoryPoolKeepsNoSnapshot() throws {
        // given: in memory, a reader's open transaction would hold the writer back
        let pool = try SQLitePool(location: .memory, readers: 1)
        try pool.write { try $0.connection.execute("CREATE TABLE t (x)") }

        // when
        _ = try pool.read { try StorageFixtures.scalar($0.connection, "SELECT count(*) FROM t") }
        let inTransaction = pool.read { $0.connection.isInTransaction }

        // then
        #expect(!inTransaction)
    }
}
