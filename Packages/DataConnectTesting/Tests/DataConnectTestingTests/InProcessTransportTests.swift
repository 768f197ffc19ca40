import DataConnectTesting
import DataConnectWire
import FirebaseDataConnect
import Testing

/// The in-process transport answers as the live transport does, without opening a port.
@Suite struct InProcessTransportTests {
    let emulator: TestEmulator
    let connector: ConnectorResourceName

    init() throws {
        let backend = try RepositoryPaths.moviesBackend()
        emulator = try TestEmulator.inProcess(backend: backend, seedFile: backend + "/seed_data.gql")
        connector = ConnectorResourceName(
            projectID: "demo", location: "us-central1", serviceID: emulator.serviceID, connectorID: "movies")
    }

    @Test func answersAQueryWithoutAPort() async throws {
        // given
        let request = OperationRequest(
            connector: connector, kind: .query, operationName: "listMoviesByGenre", variables: ["genre": "Sci-Fi"])

        // when
        let response = try await emulator.transport.execute(request)

        // then
        #expect(emulator.port == 0, "nothing listens")
        let movies = try #require(response.data?["movies"]?.arrayValue)
        #expect(movies.count == 15)
        #expect(movies.contains { $0["title"] == "Alien" })
        #expect(response.errors.isEmpty)
    }

    @Test func anHTTPErrorThrowsAsOverTheWire() async throws {
        // given: an operation the connector does not have
        let request = OperationRequest(connector: connector, kind: .query, operationName: "noSuchOperation")

        // when
        let error = await #expect(throws: TransportError.self) { try await emulator.transport.execute(request) }

        // then
        guard case .server(let requestError, let httpStatus)? = error else {
            Issue.record("expected a server error, got \(String(describing: error))")
            return
        }
        #expect(httpStatus == 404)
        #expect(requestError.status == .notFound)
    }

    @Test func sendsTheSignedInUsersToken() async throws {
        // given
        let auth = EmulatorAuth()
        auth.signIn(uid: "uid-alice", email: "alice@example.com", emailVerified: true)
        let transport = InProcessTransport(responder: emulator.responder, authTokenProvider: auth)
        let request = OperationRequest(connector: connector, kind: .query, operationName: "getCurrentUser")

        // when
        let response = try await transport.execute(request)

        // then
        #expect(response.data?["user"]?["id"] == "uid-alice")
    }

    @Test func aLiveEmulatorsDataConnectGoesOverItsPort() async throws {
        // given
        let backend = try RepositoryPaths.moviesBackend()
        let live = try TestEmulator(backend: backend, seedFile: backend + "/seed_data.gql", mode: .live)
        let dataConnect = live.dataConnect(connector: "movies")

        // when
        let result = try await dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self
        ).execute()

        // then
        #expect(live.port > 0)
        #expect(result.data?.movies.count == 15)
    }
}
