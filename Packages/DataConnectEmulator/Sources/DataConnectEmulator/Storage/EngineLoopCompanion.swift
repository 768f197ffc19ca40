import DataConnectEngine
import DataConnectPostgreSQLStore
import DataConnectWire
import EmulatorHTTP
import Synchronization

/// What the emulator keeps beside each loop of its HTTP/1.1 side: on PostgreSQL, a pipe (``PostgreSQLPipe``) that
/// sends the statements of the loop's queries down one pooled connection together and answers each request as its
/// result arrives, so that the loop's thread never sleeps in a statement while other connections wait. On SQLite it
/// stays idle: statements there run in process, with nothing to wait for.
final class EngineLoopCompanion: LoopCompanion {
    /// The pipe to the pool of the engine served now; replaced when a reload brings another pool.
    private var pipe: PostgreSQLPipe?
    private var pool: PostgreSQLPool?
    /// The counts of every loop's pipes, for `/emulator/info`.
    private let totals: PipelineTotals
    /// The pipe's counts already added to ``totals``.
    private var counted = (statements: 0, writes: 0)

    init(totals: PipelineTotals) {
        self.totals = totals
    }
    /// The loans of the pipes replaced so far, so that ``watchedSocket``'s generations keep growing across pipes.
    private var generation = 0

    /// The pipe to `pool`, made on first use; the pipe to an earlier pool is emptied first.
    func pipe(to pool: PostgreSQLPool) -> PostgreSQLPipe {
        if let pipe, self.pool === pool { return pipe }
        if let pipe {
            pipe.settle()
            count()
            generation += pipe.loans
            counted = (0, 0)
        }
        let made = PostgreSQLPipe(pool: pool)
        self.pipe = made
        self.pool = pool
        return made
    }

    func flush() {
        guard let pipe else { return }
        pipe.flush()
        count()
    }

    /// Adds what the pipe sent since the last count to ``totals``.
    private func count() {
        guard let pipe, pipe.statistics.writes != counted.writes else { return }
        totals.add(
            statements: pipe.statistics.statements - counted.statements, writes: pipe.statistics.writes - counted.writes
        )
        counted = pipe.statistics
    }

    var watchedSocket: LoopSocket? {
        guard let pipe, let socket = pipe.socket else { return nil }
        return LoopSocket(socket: socket, writable: pipe.wantsWrite, generation: generation + pipe.loans)
    }

    func socketReady() {
        pipe?.socketReady()
    }

    func settle() {
        pipe?.settle()
    }

    func stop() {
        pipe?.stop()
    }
}

/// A query whose statement the loop's ``EngineLoopCompanion`` runs: the engine's ``PendingRead`` and how its answer
/// becomes the HTTP response.
struct EngineLoopWork: LoopWork {
    let pending: PendingRead
    let pool: PostgreSQLPool
    /// The HTTP response for the engine's answer (the request log and the CORS headers included).
    let respond: (EngineResponse) -> HTTPResponse

    func start(on companion: any LoopCompanion, answer: @escaping (HTTPResponse) -> Void) -> Bool {
        guard let companion = companion as? EngineLoopCompanion else { return false }
        let pending = self.pending
        let respond = self.respond
        companion.pipe(to: pool).enqueue(pending.sql, parameters: pending.parameters, timeout: pending.timeout) {
            outcome in
            answer(respond(pending.finish(outcome)))
        }
        return true
    }

    func runHere() -> HTTPResponse {
        respond(pending.runHere())
    }
}

/// What the loops' pipes sent in all: statements, and the writes they went out in (fewer writes than statements: the
/// statements of concurrent requests went out together).
final class PipelineTotals: Sendable {
    private let statements = Atomic<Int>(0)
    private let writes = Atomic<Int>(0)

    func add(statements: Int, writes: Int) {
        self.statements.add(statements, ordering: .relaxed)
        self.writes.add(writes, ordering: .relaxed)
    }

    /// `{"statements": …, "writes": …}`.
    var json: JSONValue {
        [
            "statements": .number(JSONNumber(statements.load(ordering: .relaxed))),
            "writes": .number(JSONNumber(writes.load(ordering: .relaxed))),
        ]
    }
}
