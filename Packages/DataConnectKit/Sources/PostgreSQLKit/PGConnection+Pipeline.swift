import CLibPQ

extension PGConnection {
    /// Runs prepared statements as one batch in pipeline mode: all are sent before any result is read, so the
    /// batch costs one round trip instead of one per statement.
    ///
    /// The batch ends with one synchronization point, so outside an explicit transaction it runs as one
    /// implicit transaction: when a statement fails, the statements before it roll back and those after it do
    /// not run. Inside a transaction (`BEGIN`), a failure leaves the transaction in error, as any failed
    /// statement does.
    ///
    /// ```swift
    /// let insert = try connection.prepare("INSERT INTO movies(id, title) VALUES ($1, $2)")
    /// let results = try connection.pipeline(movies.map { (insert, [.text($0.id), .text($0.title)]) })
    /// ```
    ///
    /// - Parameter steps: The statements with their parameters, run in order; each must belong to this
    ///   connection.
    /// - Returns: One result per step, in order.
    /// - Throws: ``PGError`` of the first step that failed; the connection leaves pipeline mode either way.
    public func pipeline(_ steps: [(statement: PGStatement, parameters: [PGValue])]) throws(PGError) -> [PGResult] {
        guard !steps.isEmpty else { return [] }
        for step in steps {
            guard step.statement.connection === self else {
                throw PGError(kind: .misuse, message: "statement \(step.statement.name) belongs to another connection")
            }
            try step.statement.prepareIfNeeded()
        }
        let buffers = try steps.map { step throws(PGError) in try PGParameterBuffer(step.parameters) }
        guard PQenterPipelineMode(handle) == 1 else {
            throw PGError.connectionFailure(handle, doing: "cannot enter pipeline mode")
        }
        var sendFailure: PGError?
        var sent = 0
        for (step, buffer) in zip(steps, buffers) {
            let accepted = buffer.withUnsafeArguments { count, values, lengths, formats in
                PQsendQueryPrepared(handle, step.statement.name, count, values, lengths, formats, 0)
            }
            guard accepted == 1 else {
                sendFailure = PGError.connectionFailure(handle, doing: "cannot send statement \(step.statement.name)")
                break
            }
            sent += 1
        }
        if PQpipelineSync(handle) != 1, sendFailure == nil {
            sendFailure = PGError.connectionFailure(handle, doing: "cannot end the pipeline")
        }
        let (results, firstError) = collectPipelineResults(expected: sent)
        // Leaving pipeline mode fails only while results are pending, which a broken connection can cause.
        if PQexitPipelineMode(handle) != 1, sendFailure == nil, firstError == nil {
            sendFailure = PGError.connectionFailure(handle, doing: "cannot leave pipeline mode")
        }
        if let error = firstError ?? sendFailure { throw error }
        return results
    }

    /// Reads the results of `expected` pipelined statements and then the synchronization point.
    ///
    /// Returns the successful results in order and the first error; statements skipped after an error
    /// (`PGRES_PIPELINE_ABORTED`) are not errors of their own.
    private func collectPipelineResults(expected: Int) -> (results: [PGResult], firstError: PGError?) {
        var results: [PGResult] = []
        results.reserveCapacity(expected)
        var firstError: PGError?
        var collected = 0
        while collected < expected {
            guard let raw = PQgetResult(handle) else {
                // No result where one was due: the connection broke.
                firstError =
                    firstError
                    ?? PGError.connectionFailure(handle, doing: "connection to \(PGError.endpoint(handle)) lost")
                return (results, firstError)
            }
            let status = PQresultStatus(raw)
            if status == PGRES_PIPELINE_ABORTED {
                PQclear(raw)
            } else {
                do {
                    results.append(try result(of: raw))
                } catch {
                    firstError = firstError ?? error
                }
            }
            // Each statement's results end with a null result.
            while let extra = PQgetResult(handle) { PQclear(extra) }
            collected += 1
        }
        // The synchronization point; a broken connection may give none.
        while let raw = PQgetResult(handle) {
            let status = PQresultStatus(raw)
            PQclear(raw)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        return (results, firstError)
    }
}
