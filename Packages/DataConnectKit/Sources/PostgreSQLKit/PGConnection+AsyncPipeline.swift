import CLibPQ

/// What reading a pipeline that runs without blocking found next (``PGConnection/nextPipelineEvent()``).
public enum PGPipelineEvent {
    /// A statement's result.
    case result(PGResult)
    /// A statement failed; the statements after it up to the next synchronization point are skipped.
    case failure(PGError)
    /// A statement skipped after an earlier one failed (`PGRES_PIPELINE_ABORTED`).
    case skipped
    /// The end of one statement's results.
    case statementEnd
    /// A synchronization point (``PGConnection/sendSynchronization()``) was reached.
    case synchronization
}

extension PGConnection {
    /// The connection's socket, for an event loop to wait on; -1 when there is none.
    public var socket: Int32 { PQsocket(handle) }

    /// Starts a pipeline that does not block: statements are sent with ``send(_:_:)`` and
    /// ``sendSynchronization()``, written with ``flush()`` as the socket takes them, and their results read with
    /// ``consumeInput()`` and ``nextPipelineEvent()`` as they arrive, so that the thread waits for the socket in its
    /// own event loop instead of inside libpq.
    ///
    /// ```swift
    /// let find = try connection.prepare("SELECT title FROM movies WHERE id = $1")
    /// try find.prepareOnServerIfNeeded()       // before the pipeline: preparing blocks
    /// try connection.beginAsyncPipeline()
    /// try connection.send(find, [.text("m1")])
    /// try connection.sendSynchronization()
    /// while try connection.flush() { /* wait until connection.socket is writable */ }
    /// // when connection.socket is readable:
    /// try connection.consumeInput()
    /// while let event = connection.nextPipelineEvent() { /* .result, .statementEnd, .synchronization */ }
    /// try connection.endAsyncPipeline()         // once every synchronization point was read
    /// ```
    ///
    /// Each synchronization point ends an implicit transaction: a statement that fails skips the others up to it.
    ///
    /// - Throws: ``PGError`` when libpq refuses (a broken connection, one already in a pipeline).
    public func beginAsyncPipeline() throws(PGError) {
        guard PQenterPipelineMode(handle) == 1 else {
            throw PGError.connectionFailure(handle, doing: "cannot enter pipeline mode")
        }
        guard PQsetnonblocking(handle, 1) == 0 else {
            _ = PQexitPipelineMode(handle)
            throw PGError.connectionFailure(handle, doing: "cannot make the connection non-blocking")
        }
    }

    /// Queues a prepared statement of this connection in the pipeline; it has to exist on the server already
    /// (``PGStatement/prepareOnServerIfNeeded()``).
    ///
    /// - Throws: ``PGError`` when the statement belongs to another connection, a parameter cannot be sent, or libpq
    ///   refuses the statement.
    public func send(_ statement: PGStatement, _ parameters: [PGValue]) throws(PGError) {
        guard statement.connection === self else {
            throw PGError(kind: .misuse, message: "statement \(statement.name) belongs to another connection")
        }
        let buffer = try PGParameterBuffer(parameters)
        let accepted = buffer.withUnsafeArguments { count, values, lengths, formats in
            PQsendQueryPrepared(handle, statement.name, count, values, lengths, formats, 0)
        }
        guard accepted == 1 else {
            throw PGError.connectionFailure(handle, doing: "cannot send statement \(statement.name)")
        }
    }

    /// Queues a synchronization point: the statements since the previous one form one implicit transaction.
    ///
    /// - Throws: ``PGError`` when libpq refuses.
    public func sendSynchronization() throws(PGError) {
        guard PQpipelineSync(handle) == 1 else {
            throw PGError.connectionFailure(handle, doing: "cannot end the pipeline's segment")
        }
    }

    /// Writes what the socket takes of the queued statements.
    ///
    /// - Returns: `true` while bytes remain to be written (wait until the socket is writable, then call again).
    /// - Throws: ``PGError`` when the connection broke.
    public func flush() throws(PGError) -> Bool {
        switch PQflush(handle) {
        case 0: return false
        case 1: return true
        default: throw PGError.connectionFailure(handle, doing: "cannot send to \(PGError.endpoint(handle))")
        }
    }

    /// Reads what the server sent (`PQconsumeInput`), without blocking.
    ///
    /// - Throws: ``PGError`` when the connection broke.
    public func consumeInput() throws(PGError) {
        guard PQconsumeInput(handle) == 1 else {
            throw PGError.connectionFailure(handle, doing: "connection to \(PGError.endpoint(handle)) lost")
        }
    }

    /// The next complete event of the pipeline, or `nil` when more input is needed first (or nothing is pending).
    public func nextPipelineEvent() -> PGPipelineEvent? {
        guard PQisBusy(handle) == 0 else { return nil }
        guard let raw = PQgetResult(handle) else { return .statementEnd }
        switch PQresultStatus(raw) {
        case PGRES_PIPELINE_SYNC:
            PQclear(raw)
            return .synchronization
        case PGRES_PIPELINE_ABORTED:
            PQclear(raw)
            return .skipped
        default:
            do {
                return .result(try result(of: raw))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Leaves the pipeline and blocking mode again; every synchronization point sent must have been read.
    ///
    /// - Throws: ``PGError`` when results are still pending (the connection should then be reset).
    public func endAsyncPipeline() throws(PGError) {
        _ = PQsetnonblocking(handle, 0)
        guard PQexitPipelineMode(handle) == 1 else {
            throw PGError.connectionFailure(handle, doing: "cannot leave pipeline mode")
        }
    }

    /// Whether the connection is in pipeline mode (``beginAsyncPipeline()`` or ``pipeline(_:)``).
    public var isInPipeline: Bool { PQpipelineStatus(handle) != PQ_PIPELINE_OFF }
}

extension PGStatement {
    /// Whether the statement exists on the server in the connection's current session.
    public var isPreparedOnServer: Bool { preparedSession == connection.session }

    /// Prepares the statement on the server unless it exists there in the connection's current session: for a
    /// statement about to be sent in a pipeline (``PGConnection/send(_:_:)``), where preparing cannot happen.
    ///
    /// - Throws: ``PGError``.
    public func prepareOnServerIfNeeded() throws(PGError) {
        try prepareIfNeeded()
    }
}
