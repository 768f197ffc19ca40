import Foundation
import SQLiteKit
import Testing

@Suite struct ConcurrencyTests {
    @Test func walReadersSeeTheLastCommitWhileAWriterWorks() throws {
        // given a WAL database on disk with one row, and a second connection to it
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let writer = try Connection(path: path)
        #expect(try writer.journalMode(.wal) == .wal)
        try writer.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        let reader = try Connection(path: path)
        #expect(try reader.journalMode() == .wal)

        // when the writer inserts inside an open transaction
        try writer.execute("BEGIN IMMEDIATE")
        try writer.execute("INSERT INTO t VALUES (2)")

        // then the reader is not blocked and sees the committed state only
        #expect(try reader.query("SELECT count(*) FROM t").first?[0] == .integer(1))

        // when the writer commits, then the reader sees the new row
        try writer.execute("COMMIT")
        #expect(try reader.query("SELECT count(*) FROM t").first?[0] == .integer(2))
    }

    @Test func inMemoryDatabasesStayInMemoryMode() throws {
        let connection = try Connection()
        #expect(try connection.journalMode(.wal) == .memory)
    }

    @Test func busyTimeoutGivesUpAfterWaiting() throws {
        // given a connection holding the write lock
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let holder = try Connection(path: path)
        try holder.journalMode(.wal)
        try holder.execute("CREATE TABLE t(x)")
        try holder.execute("BEGIN IMMEDIATE")
        let waiter = try Connection(path: path, configuration: .init(busyTimeout: .milliseconds(150)))

        // when another connection tries to write
        let clock = ContinuousClock()
        let start = clock.now
        let error = #expect(throws: SQLiteError.self) { try waiter.execute("INSERT INTO t VALUES (1)") }
        let waited = clock.now - start

        // then it waited about the timeout, then failed with SQLITE_BUSY
        #expect(error?.code == .busy)
        #expect(waited >= .milliseconds(100))
        try holder.execute("ROLLBACK")
    }

    @Test func aWriterBlockedByTheLockSucceedsOnceItIsReleased() throws {
        // given a connection holding the write lock, and another thread that releases it once the waiter is
        // blocked: the waiter's busy handler says when it is, and retries once the lock is released
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let holder = try Connection(path: path)
        try holder.journalMode(.wal)
        try holder.execute("CREATE TABLE t(x)")
        try holder.execute("BEGIN IMMEDIATE")
        try holder.execute("INSERT INTO t VALUES ('first')")
        let waiter = try Connection(path: path)
        let blocked = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        waiter.setBusyHandler { attempt in
            if attempt == 0 { blocked.signal() }
            guard released.wait(timeout: .now() + .seconds(120)) == .success else { return false }  // a hang guard
            released.signal()  // released stays released, should SQLite ask again
            return true
        }
        let releaser = Thread {
            guard blocked.wait(timeout: .now() + .seconds(120)) == .success else { return }
            try? holder.execute("COMMIT")
            released.signal()
        }

        // when another connection writes meanwhile
        releaser.start()
        try waiter.execute("INSERT INTO t VALUES ('second')")

        // then it was blocked (the releaser ran only then), and succeeded after the commit
        let rows = try waiter.query("SELECT x FROM t ORDER BY rowid")
        #expect(rows.map { $0[0] } == ["first", "second"])
    }

    @Test func serializedConnectionsAreSafeToShare() async throws {
        // given one connection shared by many tasks
        let connection = try Connection()
        try connection.execute("CREATE TABLE t(x)")

        // when they write concurrently, each with single-call statements
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    for step in 0..<50 {
                        try? connection.execute("INSERT INTO t VALUES (?)", [.integer(Int64(index * 100 + step))])
                    }
                }
            }
        }

        // then every row arrived
        #expect(try connection.query("SELECT count(*) FROM t").first?[0] == .integer(400))
    }
}
