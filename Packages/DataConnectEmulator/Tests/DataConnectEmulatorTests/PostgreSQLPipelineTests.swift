import DataConnectEmulator
import DataConnectEngine
import DataConnectTestSupport
import DataConnectWire
import Dispatch
import EmulatorTesting
import Foundation
import Synchronization
import Testing

/// Queries on PostgreSQL answered through each HTTP/1.1 loop's pipeline (``EngineLoopCompanion``): over real HTTP,
/// from many connections at once, pipelined on one connection, beside mutations, and through a stop.
@Suite(.on(.postgreSQL))
struct PostgreSQLPipelineTests {
    static let connector = "projects/p/locations/l/services/movies/connectors/movies"
    static let queryPath = "/v1/projects/p/locations/l/services/movies/connectors/movies:executeQuery"
    static let mutationPath = "/v1/projects/p/locations/l/services/movies/connectors/movies:executeMutation"

    static func start(_ schema: TestPostgreSQLSchema) throws -> Emulator {
        let emulator = try Emulator(
            options: Emulator.Options(
                backend: Backend.movies.directory, port: 0, postgreSQL: schema.connectionString,
                seedFile: Backend.movies.seedFile, readers: 2, threads: 2))
        try emulator.start()
        return emulator
    }

    static func body(_ operation: String, _ variables: JSONObject) -> String {
        JSONValue.object([
            "name": .string(connector), "operationName": .string(operation), "variables": .object(variables),
        ]).jsonString()
    }

    static func request(_ path: String, _ port: UInt16, _ body: String) -> [UInt8] {
        let bytes = Array(body.utf8)
        return Array("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(bytes.count)\r\n\r\n".utf8)
            + bytes
    }

    /// The movie ids of the seeded catalogue, read in process.
    static func movieIDs(_ emulator: Emulator) throws -> [String] {
        let response = emulator.engine.execute(
            EngineRequest(kind: .connector(connector: "movies", operationName: "listMovies", mutation: false)))
        let movies = try JSONValue(parsing: response.body)["data"]?["movies"]?.arrayValue ?? []
        return movies.compactMap { $0["id"]?.stringValue }
    }

    /// The engine's own answer to `getMovieById`, run in process on the calling thread (no pipeline).
    static func inProcessAnswer(_ emulator: Emulator, id: String) -> String {
        let response = emulator.engine.execute(
            EngineRequest(
                kind: .connector(connector: "movies", operationName: "getMovieById", mutation: false),
                variables: ["id": .string(id)]))
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test func queriesFromManyConnectionsAnswerAsTheEngineDoesWhileMutationsGoThrough() throws {
        // given: the seeded catalogue on PostgreSQL
        let schema = try TestPostgreSQLSchema()
        defer { withExtendedLifetime(schema) {} }
        let emulator = try Self.start(schema)
        defer { emulator.stop() }
        let ids = try Self.movieIDs(emulator)
        try #require(ids.count >= 10)
        let port = emulator.port

        // when: 8 clients ask for movies by id, 25 requests each on new connections, while another creates movies
        let answers = Mutex<[(id: String, status: Int, body: String)]>([])
        let mutations = Mutex<[Int]>([])
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for client in 0..<8 {
            DispatchQueue.global().async(group: group) {
                for index in 0..<25 {
                    let id = ids[(client * 25 + index) % ids.count]
                    do {
                        let result = try rawExchange(
                            port: port,
                            Self.request(Self.queryPath, port, Self.body("getMovieById", ["id": .string(id)])))
                        answers.withLock {
                            $0.append((id, result.status, String(decoding: result.body, as: UTF8.self)))
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        DispatchQueue.global().async(group: group) {
            for index in 0..<15 {
                let variables: JSONObject = [
                    "title": .string("Pipelined \(index)"), "releaseYear": 2_000, "genre": "Drama", "rating": 3,
                ]
                do {
                    let result = try rawExchange(
                        port: port, Self.request(Self.mutationPath, port, Self.body("createMovie", variables)))
                    mutations.withLock { $0.append(result.status) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(group.wait(timeout: .now() + HangGuard.eventSeconds) == .success)

        // then: every query's answer is the engine's own for that id, and every mutation went through
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        let received = answers.withLock { $0 }
        #expect(received.count == 200)
        for answer in received {
            #expect(answer.status == 200, "\(answer.body)")
            #expect(answer.body == Self.inProcessAnswer(emulator, id: answer.id))
        }
        #expect(mutations.withLock { $0 } == Array(repeating: 200, count: 15))
        let created = emulator.engine.execute(
            EngineRequest(
                kind: .admin(
                    query: "query { movies(where: {title: {startsWith: \"Pipelined\"}}) { id } }", operationName: nil,
                    readOnly: true), enforceAuth: false))
        #expect((try JSONValue(parsing: created.body))["data"]?["movies"]?.arrayValue?.count == 15)
        // the queries went through the loops' pipelines (the mutations did not)
        let pipeline = try Self.pipeline(port)
        #expect(pipeline.statements >= 200, "\(pipeline)")
        #expect(pipeline.writes >= 1 && pipeline.writes <= pipeline.statements, "\(pipeline)")
    }

    /// `/emulator/info`'s `database.pipeline` counts.
    static func pipeline(_ port: UInt16) throws -> (statements: Int, writes: Int) {
        let info = try rawExchange(port: port, "GET /emulator/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").json
        let pipeline = info["database"]?["pipeline"]
        return (pipeline?["statements"]?.intValue ?? -1, pipeline?["writes"]?.intValue ?? -1)
    }

    @Test func requestsPipelinedOnOneConnectionAreAnsweredInOrder() throws {
        // given
        let schema = try TestPostgreSQLSchema()
        defer { withExtendedLifetime(schema) {} }
        let emulator = try Self.start(schema)
        defer { emulator.stop() }
        let ids = Array(try Self.movieIDs(emulator).prefix(20))
        let port = emulator.port

        // when: twenty requests go out in one write on one connection
        let connection = try LoopbackConnection(port: Int(port))
        try connection.send(
            ids.flatMap { Self.request(Self.queryPath, port, Self.body("getMovieById", ["id": .string($0)])) })
        var received: [UInt8] = []
        var responses: [RawHTTPResponse] = []
        let deadline = ContinuousClock.now + HangGuard.event
        while responses.count < ids.count {
            if let end = RawHTTP.headEnd(in: received) {
                var response = try RawHTTP.parseHead(received[..<end])
                let length = Int(response.header("content-length") ?? "") ?? 0
                if received.count >= end + 4 + length {
                    response.body = Array(received[(end + 4)..<(end + 4 + length)])
                    received.removeFirst(end + 4 + length)
                    responses.append(response)
                    continue
                }
            }
            guard case .bytes(let bytes) = connection.receive(until: deadline) else { break }
            received += bytes
        }

        // then: twenty answers, in the order asked, each the engine's own, through the pipeline
        #expect(responses.count == ids.count)
        #expect(try Self.pipeline(port).statements >= ids.count)
        for (id, response) in zip(ids, responses) {
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == Self.inProcessAnswer(emulator, id: id))
        }
    }

    @Test func aClientThatFinishesSendingStillGetsItsAnswerThenTheConnectionCloses() throws {
        // given
        let schema = try TestPostgreSQLSchema()
        defer { withExtendedLifetime(schema) {} }
        let emulator = try Self.start(schema)
        defer { emulator.stop() }
        let id = try #require(try Self.movieIDs(emulator).first)
        let port = emulator.port

        // when: the client sends its request and shuts its side down at once
        let connection = try LoopbackConnection(port: Int(port))
        try connection.send(Self.request(Self.queryPath, port, Self.body("getMovieById", ["id": .string(id)])))
        connection.shutdownWrite()
        var received: [UInt8] = []
        var closed = false
        let deadline = ContinuousClock.now + HangGuard.event
        while !closed {
            switch connection.receive(until: deadline) {
            case .bytes(let bytes): received += bytes
            case .closed: closed = true
            case .timedOut:
                Issue.record("no end within the hang guard")
                closed = true
            }
        }

        // then: the whole answer, then the end of the connection
        let end = try #require(RawHTTP.headEnd(in: received))
        let head = try RawHTTP.parseHead(received[..<end])
        #expect(head.status == 200)
        #expect(String(decoding: received[(end + 4)...], as: UTF8.self) == Self.inProcessAnswer(emulator, id: id))
    }

    @Test func stoppingWhileQueriesAreOutEndsEveryClientAndTheStop() throws {
        // given: clients asking without pause
        let schema = try TestPostgreSQLSchema()
        defer { withExtendedLifetime(schema) {} }
        let emulator = try Self.start(schema)
        let ids = try Self.movieIDs(emulator)
        let port = emulator.port
        let statuses = Mutex<[Int]>([])
        let group = DispatchGroup()
        let going = Atomic<Bool>(true)
        let fiftyAnswered = DispatchSemaphore(value: 0)
        for client in 0..<6 {
            DispatchQueue.global().async(group: group) {
                var index = client
                while going.load(ordering: .relaxed) {
                    index += 1
                    let body = Self.body("getMovieById", ["id": .string(ids[index % ids.count])])
                    guard let result = try? rawExchange(port: port, Self.request(Self.queryPath, port, body)) else {
                        return
                    }
                    if statuses.withLock({
                        $0.append(result.status); return $0.count == 50
                    }) {
                        fiftyAnswered.signal()
                    }
                }
            }
        }
        #expect(fiftyAnswered.wait(timeout: .now() + HangGuard.eventSeconds) == .success)

        // when
        emulator.stop()
        going.store(false, ordering: .relaxed)

        // then: every client ends; each answer was a success or the stop's refusal
        #expect(group.wait(timeout: .now() + HangGuard.eventSeconds) == .success)
        let seen = Set(statuses.withLock { $0 })
        #expect(seen.isSubset(of: [200, 503]), "\(seen)")
    }
}
