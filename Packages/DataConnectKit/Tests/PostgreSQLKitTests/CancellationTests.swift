import Foundation
import PostgreSQLKit
import PostgreSQLTesting
import Synchronization
import Testing

@Suite struct CancellationTests {
    /// The outcome of a statement run on another thread.
    final class Outcome: Sendable {
        let value = Mutex<Result<PGResult, PGError>?>(nil)
        let finished = DispatchSemaphore(value: 0)
    }

    @Test func cancelsARunningStatementFromAnotherThread() throws {
        // given a connection sleeping in a statement on another thread
        let url = try PostgreSQLCluster.shared().url
        let connection = try PGConnection(url)
        let observer = try PGConnection(url)
        let canceller = try connection.makeCanceller()
        let outcome = Outcome()
        Thread {
            let result = Result { () throws(PGError) in try connection.query("SELECT pg_sleep(60)") }
            outcome.value.withLock { $0 = result }
            outcome.finished.signal()
        }.start()
        let guardDeadline = ContinuousClock.now.advanced(by: .seconds(60))
        while try observer.query(
            "SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event = 'PgSleep'",
            [.int(Int64(connection.backendPID))]
        ).rowCount == 0 {
            try #require(ContinuousClock.now < guardDeadline, "the statement never started")
        }

        // when the canceller cancels it
        try canceller.cancel()

        // then the statement fails as canceled, and the connection stays usable
        try #require(outcome.finished.wait(timeout: .now() + 120) == .success, "the statement was not interrupted")
        let result = try #require(outcome.value.withLock { $0 })
        #expect(throws: PGError.self) { try result.get() }
        if case .failure(let error) = result {
            #expect(error.isQueryCanceled)
            #expect(error.kind == .server)
        }
        #expect(connection.transactionStatus == .idle)
        #expect(try connection.query("SELECT 1").int64(row: 0, column: 0) == 1)
    }

    @Test func cancellingAnIdleConnectionDoesNothing() throws {
        // given an idle connection
        let connection = try TestDatabase.connect()

        // when cancelled
        try connection.makeCanceller().cancel()

        // then its next statement runs
        #expect(try connection.query("SELECT 2").int64(row: 0, column: 0) == 2)
    }
}
