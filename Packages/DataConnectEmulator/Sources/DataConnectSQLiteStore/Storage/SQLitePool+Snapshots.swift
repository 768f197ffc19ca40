import DataConnectEngine
import SQLiteKit

/// A read transaction a reader keeps open between loans.
struct KeptSnapshot {
    /// ``SQLitePool/commits`` when the transaction began, before its first read: the snapshot holds at least every
    /// transaction committed up to then.
    let commits: UInt64
    /// When the transaction began.
    let began: ContinuousClock.Instant
    /// When a loan last used it.
    var lastUse: ContinuousClock.Instant
}

/// Kept snapshots: a reader's read transaction lasts across loans while no write commits.
///
/// Each read in autocommit mode begins and ends a read transaction: SQLite takes a read mark in the write-ahead
/// log's index (an `fcntl` lock on the `-shm` file and back), reads the file's size, and checks its page cache. A
/// reader that keeps its transaction skips all of it for the next reads, as long as they may see the same snapshot:
///
/// - **Its own writes**: the writer's commit hook counts commits (``commits``). A loan whose reader began its
///   transaction before the last commit ends it and begins another, so that a read always sees every transaction
///   committed before it started (a client that got a mutation's answer reads what it wrote).
/// - **Other processes' writes** (another program on the same file): a snapshot lasts at most
///   ``snapshotLifetime`` (5 ms by default).
/// - **The log's growth**: a snapshot keeps the checkpoint from copying the frames committed after it. Snapshots
///   idle for ``snapshotIdleRelease`` (2 ms by default) are ended by the process's deadline watchdog
///   (``snapshotWatchdog``), and
///   ``checkpoint()`` ends them all and keeps readers from taking new ones while it runs.
///
/// Files only: in memory (no write-ahead log), a reader's open transaction would hold the writer back.
extension SQLitePool {
    /// Makes `connection` (a reader just borrowed) run in a snapshot that holds every committed transaction: its
    /// kept one when no write committed since it began and it is young enough, otherwise a new one. When a
    /// transaction cannot begin, the loan runs in autocommit mode, as without kept snapshots.
    func keepSnapshot(on connection: SQLitePooledConnection) {
        guard snapshotsPaused.load(ordering: .relaxed) == 0 else { return }
        let now = ContinuousClock.now
        // Read before the transaction begins: a commit after this load is either in the snapshot or counted later.
        let committed = commits.load(ordering: .acquiring)
        if let kept = connection.keptSnapshot {
            if kept.commits == committed, now - kept.began < snapshotLifetime {
                connection.keptSnapshot?.lastUse = now
                return
            }
            connection.endSnapshot()
        }
        guard connection.beginSnapshot() else { return }
        connection.keptSnapshot = KeptSnapshot(commits: committed, began: now, lastUse: now)
        scheduleRelease()
    }

    /// Ends the kept snapshots of the free readers: those unused for `idle`, or all for `nil`. Answers whether a
    /// reader may still keep one (one kept a snapshot used more recently, or one is lent out).
    @discardableResult
    func releaseSnapshots(idleFor idle: Duration?) -> Bool {
        let now = ContinuousClock.now
        return readers.withFreeConnections { connection in
            guard let kept = connection.keptSnapshot else { return false }
            if let idle, now - kept.lastUse < idle { return true }
            connection.endSnapshot()
            return false
        }
    }

    /// Has the watchdog end idle snapshots soon, unless it already will.
    private func scheduleRelease() {
        guard !releaseScheduled.load(ordering: .relaxed),
            releaseScheduled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        _ = snapshotWatchdog.schedule(at: .now + snapshotIdleRelease) { [weak self] in
            guard let self else { return }
            // Cleared first: a reader that keeps a snapshot from now on either schedules again or is seen below.
            releaseScheduled.store(false, ordering: .sequentiallyConsistent)
            if releaseSnapshots(idleFor: snapshotIdleRelease) { scheduleRelease() }
        }
    }
}

extension SQLitePooledConnection {
    /// Begins a read transaction (`BEGIN`: the snapshot is taken by the first read); `false` when it cannot.
    func beginSnapshot() -> Bool {
        guard let statements = try? preparedTransactionStatements() else { return false }
        defer { statements.begin.reset() }
        return (try? statements.begin.step()) != nil
    }

    /// Ends the kept read transaction (it changed nothing: `COMMIT` only lets go of the snapshot).
    func endSnapshot() {
        keptSnapshot = nil
        guard connection.isInTransaction else { return }
        if let commit = transactionStatements?.commit {
            defer { commit.reset() }
            if (try? commit.step()) != nil { return }
        }
        try? connection.execute("ROLLBACK TRANSACTION")
    }

    private func preparedTransactionStatements() throws(SQLiteError) -> (begin: Statement, commit: Statement) {
        if let transactionStatements { return transactionStatements }
        let statements = (
            begin: try connection.prepare("BEGIN DEFERRED TRANSACTION", persistent: true),
            commit: try connection.prepare("COMMIT TRANSACTION", persistent: true)
        )
        transactionStatements = statements
        return statements
    }
}
