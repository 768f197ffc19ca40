import DataConnectTestSupport
import DataConnectTesting
import DataConnectWire
import Foundation
import Testing

@testable import FirebaseDataConnect

/// The live transport and ``EmulatorAuth`` against the in-process emulator serving `Backend/movies`.
@Suite struct EmulatorIntegrationTests {
    let emulator: TestEmulator
    let connector: ConnectorResourceName

    init() throws {
        let backend = try RepositoryPaths.moviesBackend()
        emulator = try TestEmulator(backend: backend, seedFile: backend + "/seed_data.gql")
        connector = ConnectorResourceName(
            projectID: "demo", location: "us-central1", serviceID: emulator.serviceID, connectorID: "movies")
    }

    private func transport(auth: (any AuthTokenProvider)? = nil) -> URLSessionTransport {
        let endpoint = ServiceEndpoint.resolve(
            settings: .production, emulator: EmulatorConfiguration(host: emulator.host, port: emulator.port),
            environment: [:])
        return URLSessionTransport(
            configuration: .init(endpoint: endpoint, timeout: HangGuard.eventSeconds, authTokenProvider: auth))
    }

    @Test func publicQueryReturnsData() async throws {
        // given
        let request = OperationRequest(
            connector: connector, kind: .query, operationName: "listMoviesByGenre", variables: ["genre": "Sci-Fi"])

        // when
        let response = try await transport().execute(request)

        // then
        let movies = try #require(response.data?["movies"]?.arrayValue)
        #expect(movies.count == 15)
        #expect(movies.contains { $0["title"] == "Alien" })
        #expect(response.errors.isEmpty)
    }

    @Test func userQueryIsUnauthenticatedWhenSignedOut() async throws {
        // given
        let auth = EmulatorAuth()
        let request = OperationRequest(connector: connector, kind: .query, operationName: "getCurrentUser")

        // when
        let error = await #expect(throws: TransportError.self) {
            try await transport(auth: auth).execute(request)
        }

        // then
        guard case .server(let requestError, let httpStatus)? = error else {
            Issue.record("expected a server error, got \(String(describing: error))")
            return
        }
        #expect(httpStatus == 401)
        #expect(requestError.status == .unauthenticated)
    }

    @Test func userQuerySucceedsForASignedInSeededUser() async throws {
        // given
        let auth = EmulatorAuth()
        auth.signIn(uid: "uid-alice", email: "alice@example.com", emailVerified: true)
        let request = OperationRequest(connector: connector, kind: .query, operationName: "getCurrentUser")

        // when
        let response = try await transport(auth: auth).execute(request)

        // then
        #expect(response.data?["user"]?["id"] == "uid-alice")
        #expect(response.data?["user"]?["username"] == "alice")
    }

    @Test func userMutationRunsAsTheSignedInUser() async throws {
        // given
        let auth = EmulatorAuth()
        auth.signIn(uid: "uid-newcomer")
        let transport = transport(auth: auth)
        let upsert = OperationRequest(
            connector: connector, kind: .mutation, operationName: "upsertUser", variables: ["username": "newcomer"],
            metadata: RequestMetadata(appID: "1:demo:linux:test", isGeneratedCaller: true))

        // when
        let mutation = try await transport.execute(upsert)
        let current = try await transport.execute(
            OperationRequest(connector: connector, kind: .query, operationName: "getCurrentUser"))

        // then
        #expect(mutation.errors.isEmpty)
        #expect(mutation.data?["user_upsert"]?["id"] == "uid-newcomer")
        #expect(current.data?["user"]?["username"] == "newcomer")
    }

    @Test func unknownOperationIsNotFound() async {
        // given
        let request = OperationRequest(connector: connector, kind: .query, operationName: "noSuchOperation")

        // when
        let error = await #expect(throws: TransportError.self) {
            try await transport().execute(request)
        }

        // then
        #expect(error?.status == .notFound)
    }
}
