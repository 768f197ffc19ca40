import DataConnectEngine
import PostgreSQLKit

#if canImport(Glibc)
import Glibc
#endif

/// Read statements of many requests sent to PostgreSQL down one pooled connection without waiting for each: the
/// statements queued while an event loop handled a round of events go out together in pipeline mode, more follow
/// while earlier ones are still being answered, and each request's result is handed to its completion as the loop
/// finds it on the connection's socket.
///
/// One request, one statement; the statements of one round end with one synchronization point, so that libpq writes
/// them in one go (it writes at every synchronization point). Each statement reads its own snapshot (PostgreSQL's
/// read committed), as in autocommit; a statement that fails fails its request alone: the round's later statements,
/// which PostgreSQL skips then, are sent again. The pipe borrows a connection
/// from the pool when the first statement is queued and gives it back once every statement sent is answered and
/// none waits; a statement not yet prepared on that connection, or with another time limit than the pipeline's
/// `statement_timeout`, waits until the pipeline is empty, since preparing and setting blocks.
///
/// The pipe belongs to one event loop and is used from the thread that owns the loop (one at a time):
/// ``enqueue(_:parameters:timeout:completion:)`` while requests run, ``flush()`` before the loop waits,
/// ``socketReady()`` when ``socket`` is ready (for writing as well when ``wantsWrite``). Completions are called on
/// that thread, from ``flush()``, ``socketReady()``, ``settle()`` or ``stop()``, exactly once each.
public final class PostgreSQLPipe {
    /// Called with a statement's outcome.
    public typealias Completion = (SubmittedReadOutcome) -> Void

    private struct Queued {
        let sql: String
        let parameters: [DatabaseValue]
        let timeout: Duration
        let completion: Completion
    }

    /// A statement sent and not yet answered.
    private struct Sent {
        let item: Queued
        var outcome: SubmittedReadOutcome?
        /// Whether PostgreSQL skipped it after an earlier statement of its round failed.
        var skipped = false
    }

    private let pool: PostgreSQLPool
    private var queued: [Queued] = []
    private var queueHead = 0
    private var sent: [Sent] = []
    private var answered = 0
    /// Synchronization points sent and not yet read back.
    private var synchronizations = 0
    /// The `statement_timeout` the connection runs the pipeline with.
    private var pipelineTimeout: Duration?
    private var source: PostgreSQLSource?
    /// Whether bytes sent to the server are not all written yet.
    public private(set) var wantsWrite = false
    /// How many statements the pipe has sent, and in how many writes: a measure of how well it batches.
    public private(set) var statistics = (statements: 0, writes: 0)

    /// Creates a pipe drawing its connection from `pool`.
    public init(pool: PostgreSQLPool) {
        self.pool = pool
    }

    /// Counts the loans of a connection from the pool: a socket of a later loan may have the number of an earlier,
    /// closed one.
    public private(set) var loans = 0

    /// The socket of the connection the pipe holds, `nil` when it holds none.
    public var socket: Int32? {
        guard let source else { return nil }
        let socket = source.connection.socket
        return socket >= 0 ? socket : nil
    }

    /// Whether statements wait to be sent or answered.
    public var isBusy: Bool { queueHead < queued.count || source != nil }

    /// Whether every statement sent was answered and every synchronization point read back.
    private var isDrained: Bool { answered == sent.count && synchronizations == 0 }

    /// Queues a read statement; it goes out at the next ``flush()``.
    ///
    /// - Parameters:
    ///   - sql: The statement, in the dialect's SQL with `$n` placeholders.
    ///   - parameters: The values of its placeholders, in storage form.
    ///   - timeout: The request's time limit, set as the connection's `statement_timeout`.
    ///   - completion: Called once with the outcome.
    public func enqueue(
        _ sql: String, parameters: [DatabaseValue], timeout: Duration, completion: @escaping Completion
    ) {
        queued.append(Queued(sql: sql, parameters: parameters, timeout: timeout, completion: completion))
    }

    /// Sends the queued statements. Borrowing a connection may wait for the pool (every connection lent out);
    /// statements the database refuses to prepare fail here.
    public func flush() {
        guard queueHead < queued.count else { return }
        // Stopping: nothing more goes out (what is out was cancelled).
        if pool.isClosing {
            failQueued(DatabaseError(.interrupted, "the database is closing"))
            if isDrained { release(resetting: false) }
            return
        }
        if source == nil {
            do {
                source = try pool.borrow()
                loans += 1
            } catch {
                failQueued(error)
                return
            }
        }
        guard let source else { return }
        // Another thread waits for a connection: this one goes back once what is out is answered.
        if pool.hasWaiters && !isDrained { return }
        let connection = source.connection
        var wrote = false
        while queueHead < queued.count {
            let item = queued[queueHead]
            var ready =
                connection.isInPipeline && item.timeout == pipelineTimeout ? source.preparedStatement(item.sql) : nil
            if ready == nil {
                // Preparing and the session's settings block: they wait until nothing sent is unanswered.
                if wrote || !isDrained { break }
                ready = prepare(item, on: source)
                guard ready != nil else {
                    queueHead += 1
                    continue
                }
            }
            guard let statement = ready else { break }
            queueHead += 1
            sent.append(Sent(item: item))
            do {
                try connection.send(statement, item.parameters.map(PostgreSQLStatement.parameter))
            } catch {
                fail(DatabaseError(error))
                return
            }
            statistics.statements += 1
            wrote = true
        }
        compactQueue()
        if wrote {
            statistics.writes += 1
            do {
                try connection.sendSynchronization()
                synchronizations += 1
                wantsWrite = try connection.flush()
            } catch {
                fail(DatabaseError(error))
            }
        } else if isDrained, queueHead == queued.count {
            release(resetting: false)
        }
    }

    /// Leaves pipeline mode if in it, sets the statement timeout, prepares the item's statement on the server
    /// unless it is prepared already, and enters pipeline mode again; `nil` (the item answered) when that fails.
    private func prepare(_ item: Queued, on source: PostgreSQLSource) -> PGStatement? {
        let connection = source.connection
        do throws(PGError) {
            if connection.isInPipeline { try connection.endAsyncPipeline() }
            source.setStatementTimeout(item.timeout)
            pipelineTimeout = item.timeout
            var statement: PGStatement?
            do throws(DatabaseError) {
                let prepared = try source.cachedStatement(item.sql).statement
                do {
                    try prepared.prepareOnServerIfNeeded()
                } catch {
                    throw DatabaseError(error)
                }
                statement = prepared
            } catch {
                pool.storageHealth.recordDamage(ifReportedBy: error)
                item.completion(.notPrepared(error))
            }
            try connection.beginAsyncPipeline()
            return statement
        } catch {
            item.completion(.failed(DatabaseError(error)))
            source.needsReset = true
            return nil
        }
    }

    /// Writes what is left to write and reads the results that arrived, completing their requests; once every
    /// statement sent is answered, sends what waits or gives the connection back.
    public func socketReady() {
        guard let source else { return }
        let connection = source.connection
        do {
            if wantsWrite { wantsWrite = try connection.flush() }
            try connection.consumeInput()
        } catch {
            fail(DatabaseError(.unavailable, error.description))
            return
        }
        var skipped: [Queued] = []
        while !isDrained, let event = connection.nextPipelineEvent() {
            switch event {
            case .result(let result):
                guard answered < sent.count else { continue }
                if sent[answered].outcome == nil {
                    sent[answered].outcome = .value(result.rowCount > 0 ? result.bytes(row: 0, column: 0) : nil)
                }
            case .failure(let error):
                guard answered < sent.count else { continue }
                let failure = DatabaseError(error)
                pool.storageHealth.recordDamage(ifReportedBy: failure)
                sent[answered].outcome = .failed(failure)
            case .skipped:
                guard answered < sent.count else { continue }
                sent[answered].skipped = true
            case .statementEnd:
                guard answered < sent.count else { continue }
                let done = sent[answered]
                answered += 1
                if done.skipped {
                    skipped.append(done.item)
                } else {
                    done.item.completion(done.outcome ?? .value(nil))
                }
            case .synchronization:
                synchronizations -= 1
            }
        }
        if !skipped.isEmpty {
            // Sent again, first, in their order.
            queued.insert(contentsOf: skipped, at: queueHead)
        }
        guard isDrained else {
            // Under steady load the pipe may not drain for a while: what is answered leaves the list meanwhile.
            if answered >= 64 {
                sent.removeFirst(answered)
                answered = 0
            }
            return
        }
        sent.removeAll(keepingCapacity: true)
        answered = 0
        if queueHead < queued.count && !pool.hasWaiters {
            flush()
        } else {
            release(resetting: false)
        }
    }

    /// Sends what is queued and waits for every answer, blocking the calling thread (the loop's): before a request
    /// runs on that thread with a connection of its own, so that the pipe does not hold one it waits for.
    public func settle() {
        while isBusy {
            if source == nil || queueHead < queued.count && isDrained {
                flush()
                continue
            }
            guard let socket else {
                fail(DatabaseError(.unavailable, "the connection to PostgreSQL has no socket"))
                continue
            }
            var descriptor = pollfd(
                fd: socket, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0)
            _ = poll(&descriptor, 1, 1_000)
            socketReady()
        }
    }

    /// Fails every statement queued or out with `error` (the loop is stopping) and gives the connection back.
    public func stop(_ error: DatabaseError = DatabaseError(.interrupted, "the database is closing")) {
        if source != nil { fail(error) }
        failQueued(error)
    }

    /// Fails the statements not yet answered and drops the connection's session (results may still be pending on
    /// it); the queued ones stay queued.
    private func fail(_ error: DatabaseError) {
        let unanswered = sent[answered...].map(\.item.completion)
        sent = []
        answered = 0
        synchronizations = 0
        release(resetting: true)
        for completion in unanswered { completion(.failed(error)) }
    }

    /// Fails the statements not yet sent.
    private func failQueued(_ error: DatabaseError) {
        let waiting = queued[queueHead...].map(\.completion)
        queued = []
        queueHead = 0
        for completion in waiting { completion(.failed(error)) }
    }

    /// Drops the statements already sent from the queue's storage.
    private func compactQueue() {
        if queueHead == queued.count {
            queued.removeAll(keepingCapacity: queued.capacity <= 256)
            queueHead = 0
        } else if queueHead > 64 {
            queued.removeFirst(queueHead)
            queueHead = 0
        }
    }

    /// Leaves pipeline mode and gives the connection back.
    private func release(resetting: Bool) {
        guard let source else { return }
        self.source = nil
        wantsWrite = false
        pipelineTimeout = nil
        let connection = source.connection
        if resetting || connection.isInPipeline && (try? connection.endAsyncPipeline()) == nil {
            source.needsReset = true
        }
        pool.giveBack(source)
    }
}
