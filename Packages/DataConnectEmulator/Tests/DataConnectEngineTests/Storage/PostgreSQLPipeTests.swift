import DataConnectTestSupport
import Dispatch
import EmulatorTesting
import PostgreSQLKit
import Synchronization
import Testing

@testable import DataConnectEngine
@testable import DataConnectPostgreSQLStore

#if canImport(Glibc)
import Glibc
#endif

/// ``PostgreSQLPipe``: statements of many requests down one pooled connection, answered in order, each failing
/// alone, the connection given back when the pipe drains or another thread waits for it.
@Suite struct PostgreSQLPipeTests {
    /// What the completions received, as text: the value, or the kind of failure.
    final class Outcomes {
        var received: [String] = []

        func completion(_ label: String = "") -> PostgreSQLPipe.Completion {
            { [self] outcome in
                switch outcome {
                case .value(let bytes):
                    received.append(label + (bytes.map { String(decoding: $0, as: UTF8.self) } ?? "nil"))
                case .notPrepared(let error): received.append(label + "not prepared: \(error.kind)")
                case .failed(let error): received.append(label + "failed: \(error.kind)")
                }
            }
        }
    }

    static func pool(size: Int = 2) throws -> (PostgreSQLPool, TestPostgreSQLSchema) {
        let schema = try TestPostgreSQLSchema()
        return (try PostgreSQLPool(connectionString: schema.connectionString, size: size), schema)
    }

    /// Drives the pipe as a loop would, socket readiness included, until it holds and queues nothing.
    static func drive(_ pipe: PostgreSQLPipe) {
        pipe.flush()
        while pipe.isBusy {
            if let socket = pipe.socket {
                var descriptor = pollfd(
                    fd: socket, events: Int16(POLLIN) | (pipe.wantsWrite ? Int16(POLLOUT) : 0), revents: 0)
                _ = poll(&descriptor, 1, 30_000)
                pipe.socketReady()
            }
            pipe.flush()
        }
    }

    static let double = "SELECT ($1::int * 2)::text"

    @Test func statementsQueuedTogetherGoOutInOneWriteAndAnswerInOrder() throws {
        // given a pipe and ten statements queued in one round
        let (pool, schema) = try Self.pool()
        defer { withExtendedLifetime(schema) {} }
        let pipe = PostgreSQLPipe(pool: pool)
        let outcomes = Outcomes()
        for value in 1...10 {
            pipe.enqueue(
                Self.double, parameters: [.integer(Int64(value))], timeout: .seconds(30),
                completion: outcomes.completion())
        }

        // when
        Self.drive(pipe)

        // then: answered in order, sent in one write, the connection back in the pool
        #expect(outcomes.received == (1...10).map { String($0 * 2) })
        #expect(pipe.statistics.statements == 10)
        #expect(pipe.statistics.writes == 1)
        #expect(!pipe.isBusy)
        #expect(pipe.socket == nil)
        let free = try (0..<2).map { _ in try pool.borrow() }
        for source in free { pool.giveBack(source) }
    }

    @Test func statementsQueuedWhileOthersAreOutFollowOnTheSameConnection() throws {
        // given a round out
        let (pool, schema) = try Self.pool()
        defer { withExtendedLifetime(schema) {} }
        let pipe = PostgreSQLPipe(pool: pool)
        let outcomes = Outcomes()
        pipe.enqueue(
            "SELECT (pg_sleep(0.2))::text || 'slow'", parameters: [], timeout: .seconds(30),
            completion: outcomes.completion())
        pipe.flush()
        let socket = try #require(pipe.socket)

        // when another round is queued before the first is answered
        pipe.enqueue(
            "SELECT (pg_sleep(0.2))::text || 'slow'", parameters: [], timeout: .seconds(30),
            completion: outcomes.completion())
        pipe.flush()

        // then it went out at once, behind the first, on the same connection
        #expect(pipe.statistics.writes == 2)
        #expect(pipe.socket == socket)
        #expect(outcomes.received.isEmpty)
        Self.drive(pipe)
        #expect(outcomes.received == ["slow", "slow"])
    }

    @Test func roundsKeptOutWithoutPauseAreAnsweredInOrder() throws {
        // given a pipe kept from draining: each round ends with a statement that sleeps, and the next round is queued
        // as soon as the first answers of the round before are read
        let (pool, schema) = try Self.pool(size: 1)
        defer { withExtendedLifetime(schema) {} }
        let pipe = PostgreSQLPipe(pool: pool)
        let outcomes = Outcomes()
        var expected: [String] = []
        var rounds = 0
        func queueRound() {
            rounds += 1
            for value in 1...100 {
                expected.append(String(value * 2))
                pipe.enqueue(
                    Self.double, parameters: [.integer(Int64(value))], timeout: .seconds(30),
                    completion: outcomes.completion())
            }
            expected.append("slow \(rounds)")
            pipe.enqueue(
                "SELECT (pg_sleep(0.02))::text || 'slow ' || $1::text", parameters: [.integer(Int64(rounds))],
                timeout: .seconds(30), completion: outcomes.completion())
            pipe.flush()
        }

        // when six rounds go out, each while the one before is still being answered
        queueRound()
        while pipe.isBusy {
            if let socket = pipe.socket {
                var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, 30_000)
                pipe.socketReady()
            }
            if rounds < 6 { queueRound() } else { pipe.flush() }
        }

        // then every answer came, in order, each statement sent once
        #expect(outcomes.received == expected)
        #expect(pipe.statistics.statements == 606)
    }

    @Test func aFailingStatementFailsAloneAndTheRestOfItsRoundIsSentAgain() throws {
        // given a round whose second statement divides by zero
        let (pool, schema) = try Self.pool()
        defer { withExtendedLifetime(schema) {} }
        let pipe = PostgreSQLPipe(pool: pool)
        let outcomes = Outcomes()
        for divisor in [5, 0, 2, 1] {
            pipe.enqueue(
                "SELECT (10 / $1::int)::text", parameters: [.integer(Int64(divisor))], timeout: .seconds(30),
                completion: outcomes.completion())
        }

        // when
        Self.drive(pipe)

        // then: the failure is that statement's only; the two PostgreSQL skipped went out again and answered
        #expect(outcomes.received == ["2", "failed: other", "5", "10"])
        #expect(pipe.statistics.writes == 2)
        #expect(pipe.statistics.statements == 6)
    }

    @Test func aStatementTheDatabaseCannotPrepareFailsAlone() throws {
        let (pool, schema) = try Self.pool()
        defer { withExtendedLifetime(schema) {} }
        let pipe = PostgreSQLPipe(pool: pool)
        let outcomes = Outcomes()
        pipe.enqueue(Self.double, parameters: [.integer(1)], timeout: .seconds(30), completion: outcomes.completion())
        pipe.enqueue("SELEC nonsense", parameters: [], timeout: .seconds(30), completion: outcomes.completion())
        pipe.enqueue(Self.double, parameters: [.integer(3)], timeout: .seconds(30), completion: outcomes.completion())

        Self.drive(pipe)

        #expect(outcomes.received == ["2", "not prepared: other", "6"])
    }

    @Test func aStatementNotYetPreparedWaitsUntilWhatIsOutIsAnswered() throws {
        // given a round out
        let (pool, schema) = try Self.pool()
        defer { withExtendedLifetime(schema) {} }
        let pipe = PostgreSQLPipe(pool: pool)
        let outcomes = Outcomes()
        pipe.enqueue(Self.double, parameters: [.integer(1)], timeout: .seconds(30), completion: outcomes.completion())
        pipe.flush()

        // when a statement the connection has not prepared is queued, and one it has behind it
        pipe.enqueue(
            "SELECT ($1::int + 1)::text", parameters: [.integer(1)], timeout: .seconds(30),
            completion: outcomes.completion())
        pipe.enqueue(Self.double, parameters: [.integer(5)], timeout: .seconds(30), completion: outcomes.completion())
        pipe.flush()

        // then neither goes out before the first is answered (preparing blocks, and order is kept); then both do
        #expect(pipe.statistics.writes == 1)
        Self.drive(pipe)
        #expect(outcomes.received == ["2", "2", "10"])
        #expect(pipe.statistics.writes == 2)
    }

    @Test func aStatementWithAnotherTimeLimitWaitsAndRunsUnderItsOwn() throws {
        // given a statement out under a 30 s limit
        let (pool, schema) = try Self.pool(size: 1)
        defer { withExtendedLifetime(schema) {} }
        let pipe = PostgreSQLPipe(pool: pool)
        let outcomes = Outcomes()
        let show = "SELECT current_setting('statement_timeout')"
        pipe.enqueue(show, parameters: [], timeout: .seconds(30), completion: outcomes.completion())
        pipe.flush()

        // when the same statement is queued under a 5 s limit
        pipe.enqueue(show, parameters: [], timeout: .seconds(5), completion: outcomes.completion())
        pipe.flush()

        // then it waits for the first, and runs under its own limit
        #expect(pipe.statistics.writes == 1)
        Self.drive(pipe)
        #expect(outcomes.received == ["30s", "5s"])
    }

    @Test func theStatementTimeoutStopsALongStatement() throws {
        let (pool, schema) = try Self.pool()
        defer { withExtendedLifetime(schema) {} }
        let pipe = PostgreSQLPipe(pool: pool)
        let outcomes = Outcomes()
        pipe.enqueue(
            "SELECT (pg_sleep(30))::text", parameters: [], timeout: .milliseconds(100),
            completion: outcomes.completion())

        Self.drive(pipe)

        #expect(outcomes.received == ["failed: interrupted"])
    }

    @Test func stopFailsWhatIsOutAndWhatIsQueuedAndThePoolWorksOn() throws {
        // given a long statement out and another queued behind a statement that needs preparing
        let (pool, schema) = try Self.pool(size: 1)
        defer { withExtendedLifetime(schema) {} }
        let pipe = PostgreSQLPipe(pool: pool)
        let outcomes = Outcomes()
        pipe.enqueue(
            "SELECT (pg_sleep(30))::text", parameters: [], timeout: .seconds(60), completion: outcomes.completion())
        pipe.flush()
        pipe.enqueue(Self.double, parameters: [.integer(1)], timeout: .seconds(30), completion: outcomes.completion())
        pipe.flush()

        // when
        pipe.stop()

        // then: both answered with the stop; the connection went back, to be reconnected before its next use
        #expect(outcomes.received == ["failed: interrupted", "failed: interrupted"])
        #expect(!pipe.isBusy)
        let answer = try pool.withConnection { source in
            try source.connection.query("SELECT 'after'").string(row: 0, column: 0)
        }
        #expect(answer == "after")
    }

    @Test func aLostConnectionFailsWhatIsOutAndTheNextStatementsReconnect() throws {
        // given a pipe whose connection's backend is terminated from outside while a statement is out
        let (pool, schema) = try Self.pool(size: 1)
        defer { withExtendedLifetime(schema) {} }
        let pipe = PostgreSQLPipe(pool: pool)
        let outcomes = Outcomes()
        pipe.enqueue(
            "SELECT pg_backend_pid()::text", parameters: [], timeout: .seconds(30),
            completion: outcomes.completion("pid "))
        Self.drive(pipe)
        let pid = try #require(outcomes.received.first.map { String($0.dropFirst(4)) })
        pipe.enqueue(
            "SELECT (pg_sleep(30))::text", parameters: [], timeout: .seconds(60), completion: outcomes.completion())
        pipe.flush()
        let killer = try PGConnection(schema.clusterURL)
        try killer.execute("SELECT pg_terminate_backend(\(pid))")

        // when
        Self.drive(pipe)
        pipe.enqueue(Self.double, parameters: [.integer(21)], timeout: .seconds(30), completion: outcomes.completion())
        Self.drive(pipe)

        // then: the statement out fails as unavailable; the next one runs on a new session
        #expect(outcomes.received.dropFirst() == ["failed: unavailable", "42"])
    }

    @Test func aThreadWaitingForAConnectionGetsItWhenThePipeDrains() throws {
        // given a pool of one connection, held by the pipe with a statement out
        let (pool, schema) = try Self.pool(size: 1)
        defer { withExtendedLifetime(schema) {} }
        let pipe = PostgreSQLPipe(pool: pool)
        let outcomes = Outcomes()
        pipe.enqueue(
            "SELECT (pg_sleep(0.3))::text || 'first'", parameters: [], timeout: .seconds(30),
            completion: outcomes.completion())
        pipe.flush()

        // when another thread asks the pool for a connection, and more statements are queued meanwhile
        let other = DispatchSemaphore(value: 0)
        let otherAnswer = Mutex<String?>(nil)
        DispatchQueue.global().async {
            let answer = try? pool.withConnection { source in
                try source.connection.query("SELECT 'other'").string(row: 0, column: 0)
            }
            otherAnswer.withLock { $0 = answer ?? "failed" }
            other.signal()
        }
        // (the other thread blocks in the pool: nothing signals that, so its waiter count is read until it shows)
        let deadline = ContinuousClock.now + HangGuard.event
        while !pool.hasWaiters {
            try #require(ContinuousClock.now < deadline, "the other thread never waited for a connection")
            usleep(1_000)
        }
        pipe.enqueue(Self.double, parameters: [.integer(2)], timeout: .seconds(30), completion: outcomes.completion())
        pipe.flush()
        let sentWhileWaiting = pipe.statistics.writes
        Self.drive(pipe)

        // then: nothing more went out while the thread waited; it got the connection when the pipe drained, and the
        // pipe's next statement ran after
        #expect(sentWhileWaiting == 1)
        #expect(other.wait(timeout: .now() + 60) == .success)
        #expect(otherAnswer.withLock { $0 } == "other")
        #expect(outcomes.received == ["first", "4"])
    }
}
