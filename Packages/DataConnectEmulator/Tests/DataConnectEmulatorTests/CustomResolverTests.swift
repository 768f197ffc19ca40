import DataConnectEncoding
import DataConnectEngine
import DataConnectTestSupport
import DataConnectWire
import EmulatorHTTP
import EmulatorTesting
import Foundation
import GraphQLLanguage
import Synchronization
import Testing

/// Custom resolvers over real HTTP: the emulator forwards `httpGraphql` fields to a GraphQL endpoint the test
/// serves, and answers with their values beside the SQL fields'.
@Suite(.onBothDatabases, .serialized) struct CustomResolverTests {
    static let movieID = "5f3e1a2b-0c4d-4e6f-8a9b-1c2d3e4f5a6b"

    // MARK: Forwarding

    @Test func forwardsARemoteQueryFieldWithItsVariables() async throws {
        // given an emulator whose resolver schema is served by the endpoint
        let endpoint = try ResolverEndpoint()
        let setup = try ResolverBackend(uri: endpoint.uri)
        defer { withExtendedLifetime(setup) {} }

        // when a query of the remote field alone runs
        let result = try await setup.client.query("Greet", ["name": "Ada"])

        // then the value comes from the endpoint, which received the field and the variable
        #expect(result.status == 200, "\(result)")
        #expect(result.data?["greeting"] == "Hello, Ada!", "\(result)")
        let received = try #require(endpoint.received.withLock { $0 }.first)
        #expect(received.operationName == "Greet")
        #expect(received.variables == ["name": "Ada"])
        #expect(received.fields == ["{ greeting(name: $name) }"])
        #expect(received.token == nil)
    }

    @Test func mixesSQLAndRemoteFieldsInOneQuery() async throws {
        // given a movie in the database
        let endpoint = try ResolverEndpoint()
        let setup = try ResolverBackend(uri: endpoint.uri)
        defer { withExtendedLifetime(setup) {} }

        // when a query reads it beside two remote fields (one aliased, arguments written as literals)
        let result = try await setup.client.query("MovieAndWeather", ["id": .string(Self.movieID)])

        // then every field has its value, and literals were forwarded as variables
        #expect(result.errors.isEmpty, "\(result)")
        #expect(result.data?["movie"]?["title"] == "Heat")
        #expect(result.data?["forecast"] == ["city": "Paris", "tempC": 21.5])
        #expect(result.data?["hello"] == "Hello, Ada!")
        let received = endpoint.received.withLock { $0 }
        #expect(
            received.map(\.fields) == [
                ["{ forecast: weather(city: $city) { city tempC } }"], ["{ hello: greeting(name: $name) }"],
            ])
        #expect(received.map(\.variables) == [["city": "Paris"], ["name": "Ada"]])
    }

    @Test func runsARemoteMutationWhereItAppearsAndForwardsTheCaller() async throws {
        // given a signed-in caller
        let endpoint = try ResolverEndpoint()
        let setup = try ResolverBackend(uri: endpoint.uri)
        defer { withExtendedLifetime(setup) {} }
        let token = TestEmulator.token(uid: "u1", email: "u1@example.com")

        // when a mutation writes, calls the resolver, then reads
        let result = try await setup.client.mutation(
            "RateMovie", ["id": .string(Self.movieID), "stars": 4], token: token)

        // then the three fields ran in order and the endpoint saw the variables and the caller's claims
        #expect(result.errors.isEmpty, "\(result)")
        #expect(result.data?["movie_update"] != nil && result.data?["movie_update"] != .null)
        #expect(result.data?["rate"] == 1)
        #expect(result.data?["query"]?["movie"]?["rating"] == 4)
        let received = try #require(endpoint.received.withLock { $0 }.first)
        #expect(received.kind == .mutation)
        // UUIDs go in the canonical 32-hex form Data Connect answers with
        let hexID = Self.movieID.replacingOccurrences(of: "-", with: "")
        #expect(received.variables == ["movieId": .string(hexID), "stars": 4])
        let claims = try #require(received.token.flatMap(Self.claims(ofUnsignedToken:)))
        #expect(claims["sub"] == "u1")
        #expect(claims["email"] == "u1@example.com")
    }

    @Test func authRefusesBeforeAnythingIsForwarded() async throws {
        // given an operation for signed-in users
        let endpoint = try ResolverEndpoint()
        let setup = try ResolverBackend(uri: endpoint.uri)
        defer { withExtendedLifetime(setup) {} }

        // when nobody is signed in
        let result = try await setup.client.query("GreetMember", ["name": "Ada"])

        // then @auth refuses and the endpoint never hears of it
        #expect(result.status == 401, "\(result)")
        #expect(endpoint.received.withLock { $0 }.isEmpty)
    }

    // MARK: Failures

    @Test(arguments: [
        ("status500", "UNKNOWN", "HTTP 500"), ("notJSON", "UNKNOWN", "not a GraphQL response"),
        ("graphqlErrors", "NOT_FOUND", "no greeting for graphqlErrors"),
    ])
    func endpointFailuresAreErrorsAtTheFieldPath(name: String, code: String, message: String) async throws {
        // given an endpoint that misbehaves for this name
        let endpoint = try ResolverEndpoint()
        let setup = try ResolverBackend(uri: endpoint.uri)
        defer { withExtendedLifetime(setup) {} }

        // when the field is asked for
        let result = try await setup.client.query("Greet", ["name": .string(name)])

        // then the field is null with one error at its path, never INTERNAL
        #expect(result.status == 200, "\(result)")
        #expect(result.data?["greeting"] == .null)
        let error = try #require(result.errors.first)
        #expect(result.errors.count == 1)
        #expect(error["path"] == ["greeting"])
        #expect(error["extensions"]?["code"]?.stringValue == code, "\(result)")
        #expect(error["message"]?.stringValue?.contains(message) == true, "\(result)")
    }

    @Test func aClosedPortIsUnavailableAndNamesTheURI() async throws {
        // given a resolver uri where nothing listens
        let port = try Self.closedPort()
        let uri = "http://127.0.0.1:\(port)/graphql"
        let setup = try ResolverBackend(uri: uri)
        defer { withExtendedLifetime(setup) {} }

        // when the field is asked for
        let result = try await setup.client.query("Greet", ["name": "Ada"])

        // then the error says which endpoint is down
        let error = try #require(result.errors.first, "\(result)")
        #expect(error["extensions"]?["code"] == "UNAVAILABLE")
        #expect(error["message"]?.stringValue?.contains(uri) == true, "\(result)")
        #expect(error["path"] == ["greeting"])
    }

    @Test func anEndpointSlowerThanTheTimeoutIsDeadlineExceeded() async throws {
        // given an endpoint that never answers and a short timeout
        let release = DispatchSemaphore(value: 0)
        let server = HTTPServer(
            port: 0,
            responder: HTTPClosureResponder { _ in
                _ = release.wait(timeout: .now() + HangGuard.eventSeconds)
                return .text("too late")
            })
        try server.start()
        defer {
            release.signal()
            server.stop()
        }
        let setup = try ResolverBackend(uri: "http://127.0.0.1:\(server.port)/graphql", timeout: "200ms")
        defer { withExtendedLifetime(setup) {} }

        // when the field is asked for
        let result = try await setup.client.query("Greet", ["name": "Ada"])

        // then the call gives up with DEADLINE_EXCEEDED naming the configured timeout
        let error = try #require(result.errors.first, "\(result)")
        #expect(error["extensions"]?["code"] == "DEADLINE_EXCEEDED")
        #expect(error["message"]?.stringValue?.contains("200ms") == true, "\(result)")
    }

    @Test func anEngineWithoutATransportFailsTheFieldWithFailedPrecondition() throws {
        // given the resolvers service served by an engine made without an outbound transport
        let endpoint = try ResolverEndpoint()
        let setup = try ResolverBackend(uri: endpoint.uri)
        defer { withExtendedLifetime(setup) {} }
        let store = setup.emulator.emulator.store
        let engine = Engine(
            service: setup.emulator.emulator.engine.service, database: store.access, dialect: store.dialect)

        // when the remote field is asked for
        let response = engine.execute(
            EngineRequest(
                kind: .connector(connector: "resolvers", operationName: "Greet", mutation: false),
                variables: ["name": "Ada"], enforceAuth: false))

        // then the field fails, saying why, and nothing was sent
        let body = try JSONValue(parsing: response.body)
        let error = try #require(body["errors"]?.arrayValue?.first, "\(body)")
        #expect(error["extensions"]?["code"] == "FAILED_PRECONDITION")
        #expect(error["message"]?.stringValue?.contains("no outbound transport") == true, "\(body)")
        #expect(endpoint.received.withLock { $0 }.isEmpty)
    }

    // MARK: Helpers

    /// A loopback port nothing listens on: bound by a server that is stopped again.
    static func closedPort() throws -> UInt16 {
        let server = HTTPServer(port: 0, responder: HTTPClosureResponder { _ in .text("") })
        try server.start()
        let port = server.port
        server.stop()
        return port
    }

    /// The payload of an unsigned JWT.
    static func claims(ofUnsignedToken token: String) -> JSONValue? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        guard let bytes = Base64.url.decode(parts[1]) else { return nil }
        return try? JSONValue(parsing: bytes)
    }
}

/// The resolvers fixture copied to a temporary folder with a `dataconnect.yaml` naming the endpoint, and an
/// emulator serving it with one movie.
final class ResolverBackend {
    let directory: URL
    let emulator: TestEmulator
    let client: EmulatorClient

    init(uri: String, timeout: String = "30s") throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/resolvers")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("resolvers-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: fixture, to: directory)
        let config = """
            specVersion: "v1"
            serviceId: "resolvers"
            location: "us-central1"
            schemas:
              - id: "main"
                source: "./schema"
                datasource:
                  postgresql:
                    database: "resolvers"
              - id: "resolvers"
                source: "./schema_resolvers"
                datasource:
                  httpGraphql:
                    uri: "\(uri)"
                    timeout: "\(timeout)"
            connectorDirs: ["./connector"]
            """
        try config.write(to: directory.appendingPathComponent("dataconnect.yaml"), atomically: true, encoding: .utf8)
        emulator = try TestEmulator(backend: directory.path, database: TestDatabase.required())
        client = EmulatorClient(emulator, connector: "resolvers")
        let seeded = emulator.executeAdmin(
            #"mutation { movie_insert(data: {id: "\#(CustomResolverTests.movieID)", title: "Heat", rating: 3}) }"#)
        guard seeded["errors"]?.arrayValue?.isEmpty ?? true else {
            throw TestSetupError("cannot seed the movie: \(seeded)")
        }
    }

    deinit {
        emulator.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A GraphQL endpoint for the resolvers fixture's schema, started on a free loopback port.
///
/// It parses each request's document with GraphQLLanguage, records what it received, and answers from the
/// parsed field: `greeting(name:)` says hello (or misbehaves for the names `status500`, `notJSON` and
/// `graphqlErrors`), `weather(city:)` answers the selected fields, `rate` counts the ratings it received.
final class ResolverEndpoint: Sendable {
    /// One request as the endpoint understood it.
    struct Received: Sendable {
        var kind: OperationType?
        var operationName: String?
        var variables: JSONObject
        /// The root fields, printed.
        var fields: [String]
        var token: String?
    }

    let received = Mutex<[Received]>([])
    private let ratings = Mutex(0)
    private let server: HTTPServer

    init() throws {
        let box = Mutex<ResolverEndpoint?>(nil)
        server = HTTPServer(
            port: 0, responder: HTTPClosureResponder { request in box.withLock { $0 }?.answer(request) ?? .text("") })
        box.withLock { $0 = self }
        try server.start()
    }

    deinit {
        server.stop()
    }

    var uri: String { "http://127.0.0.1:\(server.port)/graphql" }

    func answer(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = try? JSONValue(parsing: request.body), let text = body["query"]?.stringValue,
            let document = try? GraphQLParser.parseDocument(Source(name: "request", text: text)),
            let operation = document.operations.first
        else { return .json(#"{"errors":[{"message":"bad request"}]}"#, status: .badRequest) }
        let variables = body["variables"]?.objectValue ?? [:]
        let fields = operation.selectionSet.selections.compactMap { selection -> Field? in
            if case .field(let field) = selection { return field }
            return nil
        }
        received.withLock {
            $0.append(
                Received(
                    kind: operation.operation, operationName: body["operationName"]?.stringValue, variables: variables,
                    fields: fields.map { Self.printed($0) }, token: request.headers["x-firebase-auth-token"]))
        }
        var data = JSONObject()
        for field in fields {
            func argument(_ name: String) -> JSONValue {
                guard let value = field.arguments.first(where: { $0.name.value == name })?.value,
                    case .variable(let variable) = value
                else { return .null }
                return variables[variable.value] ?? .null
            }
            switch field.name.value {
            case "greeting":
                let name = argument("name").stringValue ?? ""
                switch name {
                case "status500": return .text("boom", status: .internalServerError)
                case "notJSON": return .text("hello")
                case "graphqlErrors":
                    return .json(
                        #"{"data":{"greeting":null},"errors":[{"message":"no greeting for graphqlErrors","path":["greeting"],"extensions":{"code":"NOT_FOUND"}}]}"#
                    )
                default: data[field.responseKey] = .string("Hello, \(name)!")
                }
            case "weather":
                var weather = JSONObject()
                for case .field(let child) in field.selectionSet?.selections ?? [] {
                    switch child.name.value {
                    case "city": weather[child.responseKey] = argument("city")
                    case "tempC": weather[child.responseKey] = 21.5
                    default: weather[child.responseKey] = "Weather"
                    }
                }
                data[field.responseKey] = .object(weather)
            case "rate":
                let count = ratings.withLock { count in
                    count += 1
                    return count
                }
                data[field.responseKey] = JSONValue(integerLiteral: Int64(count))
            default:
                data[field.responseKey] = .null
            }
        }
        return .json(JSONValue.object(["data": .object(data)]).serialized())
    }

    /// A field printed in a selection set on one line: `{ alias: name(args) { children } }`.
    static func printed(_ field: Field) -> String {
        GraphQLPrinter.print(SelectionSet(selections: [.field(field)]), indent: 0)
            .split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }
}
