import DataConnectTestSupport
import DataConnectWire
import Foundation
import Testing

@testable import FirebaseDataConnect

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct RetryTests {
    private let ok = #"{"data": {"movies": []}}"#

    @Test(arguments: [URLError.Code.networkConnectionLost, .badServerResponse])
    func droppedQueryIsRetriedOnce(code: URLError.Code) async throws {
        // given
        let loader = ScriptedLoader([.fail(code), .reply(200, ok)])

        // when
        let response = try await loader.transport().execute(TransportFixtures.query())

        // then
        #expect(response.data == ["movies": []])
        #expect(loader.requests.count == 2)
    }

    @Test func queryDroppedTwiceFailsAfterOneRetry() async {
        // given
        let loader = ScriptedLoader([.fail(.networkConnectionLost), .fail(.networkConnectionLost), .reply(200, ok)])

        // when
        let error = await #expect(throws: TransportError.self) {
            try await loader.transport().execute(TransportFixtures.query())
        }

        // then
        guard case .connection(_, let code)? = error else {
            Issue.record("expected a connection error, got \(String(describing: error))")
            return
        }
        #expect(code == URLError.Code.networkConnectionLost.rawValue)
        #expect(loader.requests.count == 2)
    }

    @Test func droppedMutationIsNeverRetried() async {
        // given
        let loader = ScriptedLoader([.fail(.networkConnectionLost), .reply(200, ok)])

        // when
        let error = await #expect(throws: TransportError.self) {
            try await loader.transport().execute(TransportFixtures.mutation())
        }

        // then
        #expect(error?.status == .unavailable)
        #expect(loader.requests.count == 1)
    }

    @Test func otherConnectionFailuresAreNotRetried() async {
        // given
        let loader = ScriptedLoader([.fail(.cannotConnectToHost), .reply(200, ok)])

        // when
        let error = await #expect(throws: TransportError.self) {
            try await loader.transport().execute(TransportFixtures.query())
        }

        // then
        #expect(error == .connection(URLError(.cannotConnectToHost).localizedDescription, code: -1004))
        #expect(loader.requests.count == 1)
    }

    @Test func timeOutMapsToDeadlineExceeded() async {
        // given
        let loader = ScriptedLoader([.fail(.timedOut)])

        // when
        let error = await #expect(throws: TransportError.self) {
            try await loader.transport().execute(TransportFixtures.query())
        }

        // then
        #expect(error?.status == .deadlineExceeded)
    }

    @Test func unauthorizedIsRetriedOnceWithARefreshedToken() async throws {
        // given
        let loader = ScriptedLoader([
            .reply(401, #"{"error": {"code": 401, "message": "expired", "status": "UNAUTHENTICATED"}}"#),
            .reply(200, ok),
        ])
        let provider = SwappableTokenProvider(["old-token", "new-token"])

        // when
        let response = try await loader.transport(authTokenProvider: provider).execute(TransportFixtures.mutation())

        // then
        #expect(response.data == ["movies": []])
        #expect(
            loader.requests.map { $0.value(forHTTPHeaderField: "X-Firebase-Auth-Token") } == ["old-token", "new-token"])
        #expect(provider.forcingRefreshes == [false, true], "the retry's token is a forced refresh")
    }

    @Test func unauthorizedWithAnUnchangedTokenIsNotRetried() async {
        // given
        let loader = ScriptedLoader([
            .reply(401, #"{"error": {"code": 401, "message": "sign in", "status": "UNAUTHENTICATED"}}"#),
            .reply(200, ok),
        ])
        let provider = SwappableTokenProvider(["same-token"])

        // when
        let error = await #expect(throws: TransportError.self) {
            try await loader.transport(authTokenProvider: provider).execute(TransportFixtures.query())
        }

        // then
        #expect(error == .server(RequestError(status: .unauthenticated, message: "sign in"), httpStatus: 401))
        #expect(loader.requests.count == 1)
    }

    @Test func explicitRequestTokenWinsOverTheProvider() async throws {
        // given
        let loader = ScriptedLoader([.reply(200, ok)])
        let provider = SwappableTokenProvider(["provider-token"])

        // when
        _ = try await loader.transport(authTokenProvider: provider)
            .execute(TransportFixtures.query(metadata: RequestMetadata(authToken: "explicit")))

        // then
        #expect(loader.requests.first?.value(forHTTPHeaderField: "X-Firebase-Auth-Token") == "explicit")
    }
}

@Suite struct DroppedConnectionSocketTests {
    private let ok = #"{"data": {"movies": [{"id": "m1"}]}}"#

    private func transport(_ server: RawHTTPServer) -> URLSessionTransport {
        URLSessionTransport(
            configuration: .init(
                endpoint: ServiceEndpoint(host: "127.0.0.1", port: server.port, sslEnabled: false),
                timeout: HangGuard.eventSeconds))
    }

    @Test(arguments: [RawHTTPServer.Behavior.closeWithoutReply, .reset])
    func queryIsResentOnANewConnection(drop: RawHTTPServer.Behavior) async throws {
        // given
        let server = try RawHTTPServer([drop, .reply(status: 200, body: ok)])

        // when
        let response = try await transport(server).execute(TransportFixtures.query())

        // then
        #expect(response.data?["movies"]?[0]?["id"] == "m1")
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.hasPrefix("POST /v1/projects/demo/") })
    }

    @Test func mutationIsNotResent() async throws {
        // given
        let server = try RawHTTPServer([.closeWithoutReply, .reply(status: 200, body: ok)])

        // when
        let error = await #expect(throws: TransportError.self) {
            try await transport(server).execute(TransportFixtures.mutation())
        }

        // then
        guard case .connection? = error else {
            Issue.record("expected a connection error, got \(String(describing: error))")
            return
        }
        #expect(server.requests.count == 1)
    }

    @Test func headersAndBodyReachTheWire() async throws {
        // given
        let server = try RawHTTPServer([.reply(status: 200, body: ok)])
        let request = TransportFixtures.query(
            variables: ["genre": "Drama"],
            metadata: RequestMetadata(appID: "app-1", authToken: "tok", isGeneratedCaller: true))

        // when
        _ = try await transport(server).execute(request)

        // then
        let raw = try #require(server.requests.first)
        let lines = raw.split(separator: "\r\n").map { $0.lowercased() }
        #expect(
            lines.first
                == "post /v1/projects/demo/locations/us-central1/services/movies/connectors/movies:executequery http/1.1"
        )
        #expect(lines.contains("x-firebase-auth-token: tok"))
        #expect(lines.contains("x-firebase-gmpid: app-1"))
        #expect(lines.contains("x-firebase-sqlconnect-affinity: demomovies"))
        #expect(lines.contains { $0.hasPrefix("x-goog-api-client: gl-swift/") && $0.hasSuffix(" swift/gen") })
        #expect(raw.hasSuffix(#""variables":{"genre":"Drama"}}"#))
    }

    @Test func serverErrorStatusIsReadFromTheBody() async throws {
        // given
        let body = #"{"error": {"code": 404, "message": "operation nope not found", "status": "NOT_FOUND"}}"#
        let server = try RawHTTPServer([.reply(status: 404, body: body)])

        // when
        let error = await #expect(throws: TransportError.self) {
            try await transport(server).execute(TransportFixtures.query("nope"))
        }

        // then
        #expect(error == .server(RequestError(status: .notFound, message: "operation nope not found"), httpStatus: 404))
    }
}
