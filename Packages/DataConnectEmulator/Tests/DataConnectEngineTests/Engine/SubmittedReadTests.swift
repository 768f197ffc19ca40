import DataConnectWire
import EmulatorTesting
import Testing

@testable import DataConnectEngine

/// ``Engine/start(_:beforeRunningHere:)``: a query answered by one statement is left to the caller, whose outcome
/// ``PendingRead/finish(_:)`` turns into the same answer ``Engine/execute(_:)`` gives; every other request runs
/// to its answer at once.
@Suite(.onBothDatabases) struct SubmittedReadTests {
    static let operations = """
        query Movie($id: UUID!) @auth(level: PUBLIC) { movie(id: $id) { title director { name } } }
        query Movies($limit: Int) @auth(level: PUBLIC) {
          movies(orderBy: [{title: ASC}], limit: $limit) { id title tags actors_via_MovieActor { name } }
        }
        query MaybeDirector($withDirector: Boolean!) @auth(level: PUBLIC) {
          movies(orderBy: [{title: ASC}], limit: 2) { title director @include(if: $withDirector) { name } }
        }
        query Redacted @auth(level: PUBLIC) {
          movies(orderBy: [{title: ASC}], limit: 2) { title director @redact { name } }
        }
        query Count @auth(level: PUBLIC) { movies { genre _count } }
        query TwoFields @auth(level: PUBLIC) {
          first: movie(id: "a0000000000000000000000000000001") { title }
          second: movie(id: "a0000000000000000000000000000002") { title }
        }
        query OneOfTwo($second: Boolean!) @auth(level: PUBLIC) {
          first: movie(id: "a0000000000000000000000000000001") { title }
          second: movie(id: "a0000000000000000000000000000002") @include(if: $second) { title }
        }
        query Typename @auth(level: PUBLIC) { __typename }
        query Signed @auth(level: USER) { movies(limit: 1) { title } }
        mutation Rename @auth(level: PUBLIC) { actor_update(id: "c0000000000000000000000000000001", data: {name: "Leo"}) }
        """

    static func request(
        _ name: String, _ variables: JSONObject = [:], mutation: Bool = false, auth: AuthContext? = EngineFixtures.alice
    ) -> EngineRequest {
        EngineRequest(
            kind: .connector(connector: TestBackend.connectorID, operationName: name, mutation: mutation),
            variables: variables, auth: auth)
    }

    /// Runs a pending read's statement as a caller would: prepared on a reader, its first column of its first row.
    static func run(_ pending: PendingRead, on backend: TestBackend) throws -> SubmittedReadOutcome {
        try backend.store.access.read { source -> SubmittedReadOutcome in
            let statement: any DatabaseStatement
            do throws(DatabaseError) {
                statement = try source.statement(pending.sql)
            } catch {
                return .notPrepared(error)
            }
            defer { statement.finish() }
            do throws(DatabaseError) {
                try statement.bindParameters(pending.parameters)
                guard try statement.nextRow() else { return .value(nil) }
                return .value(statement.textBytes(at: 0))
            } catch {
                return .failed(error)
            }
        }
    }

    /// The body `start` leads to: the finished answer, or the pending read run and finished.
    static func startedBody(_ request: EngineRequest, on backend: TestBackend) throws -> (left: Bool, body: String) {
        switch backend.engine.start(request) {
        case .finished(let response):
            return (false, String(decoding: response.body, as: UTF8.self))
        case .read(let pending):
            let response = pending.finish(try run(pending, on: backend))
            return (true, String(decoding: response.body, as: UTF8.self))
        }
    }

    @Test(arguments: [false, true])
    func aQueryOfOneStatementIsLeftToTheCallerAndAnswersAsExecuteDoes(entityIDs: Bool) throws {
        // given: queries of every shape, with and without entity ids
        let backend = try TestBackend(Self.operations, clientCache: entityIDs)
        let cases: [(EngineRequest, leftToCaller: Bool)] = [
            (Self.request("Movie", ["id": "a0000000000000000000000000000001"]), true),
            (Self.request("Movie", ["id": "a00000000000000000000000000000ff"]), true),
            (Self.request("Movies", ["limit": 3]), true),
            (Self.request("Movies"), true),
            (Self.request("MaybeDirector", ["withDirector": true]), true),
            (Self.request("MaybeDirector", ["withDirector": false]), true),
            (Self.request("Redacted"), true),
            (Self.request("Count"), true),
            (Self.request("OneOfTwo", ["second": false]), true),
            // two root fields, a built-in field, a refusal, a variable of the wrong type, a mutation: run at once
            (Self.request("OneOfTwo", ["second": true]), false),
            (Self.request("TwoFields"), false),
            (Self.request("Typename"), false),
            (Self.request("Signed", auth: nil), false),
            (Self.request("Movies", ["limit": "three"]), false),
            (Self.request("Nope"), false),
        ]

        for (request, leftToCaller) in cases {
            // when
            let started = try Self.startedBody(request, on: backend)
            let executed = String(decoding: backend.engine.execute(request).body, as: UTF8.self)

            // then
            #expect(started.left == leftToCaller, "\(request.kind)")
            #expect(started.body == executed, "\(request.kind) \(request.variables)")
        }
    }

    @Test func aMutationRunsAtOnceAfterTheCallerGaveItsConnectionsBack() throws {
        // given
        let backend = try TestBackend(Self.operations)
        var calls = 0

        // when
        let started = backend.engine.start(Self.request("Rename", mutation: true)) { calls += 1 }

        // then: run here, announced first, with what it changed
        guard case .finished(let response) = started else {
            Issue.record("a mutation was left to the caller")
            return
        }
        #expect(calls == 1)
        #expect(response.status == .ok)
        #expect(response.mutation?.tables.isEmpty == false)
        #expect(try backend.rows("SELECT name FROM actor WHERE id = 'c0000000000000000000000000000001'").count == 1)
    }

    @Test func aRefusedRequestIsNotAnnounced() throws {
        let backend = try TestBackend(Self.operations)
        var calls = 0
        _ = backend.engine.start(Self.request("Signed", auth: nil)) { calls += 1 }
        #expect(calls == 0)
    }

    @Test func failuresOfTheStatementAnswerAsOnTheEnginesOwnPath() throws {
        // given a backend whose list query is left to the caller
        let backend = try TestBackend(Self.operations)
        func body(_ outcome: SubmittedReadOutcome) throws -> JSONValue {
            guard case .read(let pending) = backend.engine.start(Self.request("Movies")) else {
                Issue.record("Movies was not left to the caller")
                return .null
            }
            return try JSONValue(parsing: pending.finish(outcome).body)
        }

        // when its statement failed in the ways a database reports
        let timedOut = try body(.failed(DatabaseError(.interrupted, "canceling statement due to statement timeout")))
        let lost = try body(.failed(DatabaseError(.unavailable, "server closed the connection unexpectedly")))
        let refused = try body(.notPrepared(DatabaseError(.tooComplex, "stack depth limit exceeded")))
        let failed = try body(.failed(DatabaseError(.other, "division by zero")))

        // then: the time limit and a lost server end the request; a refused statement too; another failure is the
        // query's error with null data
        #expect(timedOut["error"]?["status"] == "DEADLINE_EXCEEDED", "\(timedOut)")
        #expect(lost["error"]?["status"] == "UNAVAILABLE", "\(lost)")
        #expect(refused["error"] != nil, "\(refused)")
        #expect(failed["data"] == .null, "\(failed)")
        #expect(failed["errors"]?[0]?["message"]?.stringValue?.contains("division by zero") == true, "\(failed)")
    }
}

/// ``PendingRead/finish(_:)`` on a database that tracks damage (PostgreSQL's pool does; SQLite in memory does not).
@Suite(.on(.postgreSQL)) struct SubmittedReadDamageTests {
    @Test func damageFoundByTheStatementMakesEveryAnswerUnavailable() throws {
        // given a pending read
        let backend = try TestBackend(SubmittedReadTests.operations)
        guard case .read(let pending) = backend.engine.start(SubmittedReadTests.request("Movies")) else {
            Issue.record("Movies was not left to the caller")
            return
        }
        let health = try #require(backend.engine.storageHealth)

        // when its statement finds the data damaged
        let response = pending.finish(.failed(DatabaseError(.damaged, "index \"movie_pkey\" contains corrupted page")))

        // then: this request and the next are UNAVAILABLE
        #expect(response.status == .unavailable)
        #expect(health.failure != nil)
        guard case .finished(let next) = backend.engine.start(SubmittedReadTests.request("Movies")) else {
            Issue.record("a request on a damaged database was left to the caller")
            return
        }
        #expect(next.status == .unavailable)
    }
}
