import PostgreSQLKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct AsyncPipelineTests {
    /// Waits for the connection's socket as an event loop would, and reads every event until `synchronizations`
    /// synchronization points came back.
    private func events(of connection: PGConnection, synchronizations: Int) throws -> [String] {
        var seen: [String] = []
        var remaining = synchronizations
        while remaining > 0 {
            var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            #expect(poll(&descriptor, 1, 30_000) == 1, "no answer within 30 s")
            try connection.consumeInput()
            while remaining > 0, let event = connection.nextPipelineEvent() {
                switch event {
                case .result(let result): seen.append("row \(result.string(row: 0, column: 0) ?? "null")")
                case .failure(let error): seen.append("error \(error.sqlState ?? "")")
                case .skipped: seen.append("skipped")
                case .statementEnd: seen.append("end")
                case .synchronization:
                    seen.append("sync")
                    remaining -= 1
                }
            }
        }
        return seen
    }

    @Test func statementsSentTogetherAreAnsweredInOrderWithoutBlocking() throws {
        // given a prepared statement and a pipeline that does not block
        let connection = try TestDatabase.connect()
        let echo = try connection.prepare("SELECT ($1::int * 2)::text")
        try echo.prepareOnServerIfNeeded()
        #expect(echo.isPreparedOnServer)
        try connection.beginAsyncPipeline()
        #expect(connection.isInPipeline)

        // when three statements go out in one segment, two more in a second
        for value in 1...3 { try connection.send(echo, [.int(Int64(value))]) }
        try connection.sendSynchronization()
        for value in 4...5 { try connection.send(echo, [.int(Int64(value))]) }
        try connection.sendSynchronization()
        while try connection.flush() {}
        let seen = try events(of: connection, synchronizations: 2)
        try connection.endAsyncPipeline()

        // then each statement's row comes back in order, each followed by its end, each segment by its
        // synchronization point, and the connection blocks again as before
        #expect(
            seen == [
                "row 2", "end", "row 4", "end", "row 6", "end", "sync", "row 8", "end", "row 10", "end", "sync",
            ])
        #expect(!connection.isInPipeline)
        #expect(try echo.execute([.int(21)]).string(row: 0, column: 0) == "42")
    }

    @Test func aFailingStatementSkipsTheRestOfItsSegmentOnly() throws {
        // given a statement that fails for a zero divisor
        let connection = try TestDatabase.connect()
        let divide = try connection.prepare("SELECT (10 / $1::int)::text")
        try divide.prepareOnServerIfNeeded()
        try connection.beginAsyncPipeline()

        // when the second of three fails, and a second segment follows
        for divisor in [5, 0, 2] { try connection.send(divide, [.int(Int64(divisor))]) }
        try connection.sendSynchronization()
        try connection.send(divide, [.int(1)])
        try connection.sendSynchronization()
        while try connection.flush() {}
        let seen = try events(of: connection, synchronizations: 2)
        try connection.endAsyncPipeline()

        // then the failure is the division's (22012), the third statement is skipped, and the next segment runs
        #expect(seen == ["row 2", "end", "error 22012", "end", "skipped", "end", "sync", "row 10", "end", "sync"])
        #expect(connection.transactionStatus == .idle)
    }

    @Test func sendingAnotherConnectionsStatementIsRefused() throws {
        let first = try TestDatabase.connect()
        let second = try TestDatabase.connect()
        let statement = try first.prepare("SELECT 1")
        try second.beginAsyncPipeline()
        defer { try? second.endAsyncPipeline() }
        let error = #expect(throws: PGError.self) { try second.send(statement, []) }
        #expect(error?.description.contains("belongs to another connection") == true)
    }
}
