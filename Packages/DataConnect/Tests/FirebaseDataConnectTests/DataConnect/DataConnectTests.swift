import DataConnectWire
import Foundation
import Observation
import Synchronization
import Testing

@testable import FirebaseDataConnect

/// Shared values for the ``DataConnect`` tests.
enum DataConnectFixtures {
    static let config = ConnectorConfig(serviceId: "movies", location: "us-central1", connector: "movies")

    /// A new app with a unique name and the `demo` project.
    static func makeApp() -> FirebaseApp {
        let name = "test-\(UUID().uuidString)"
        FirebaseApp.configure(name: name, options: FirebaseOptions(projectID: "demo", apiKey: "key-1"))
        return FirebaseApp.app(name: name)!
    }

    static func dataConnect(
        _ transport: RecordingTransport, callerSDKType: CallerSDKType = .base, environment: [String: String] = [:]
    ) -> DataConnect {
        DataConnect(
            app: makeApp(), connectorConfig: config, callerSDKType: callerSDKType, transport: transport,
            environment: environment)
    }
}

struct GenreVariables: OperationVariable {
    var genre: String
}

struct NoVariables: OperationVariable {}

struct MovieList: Decodable, Sendable, Equatable {
    struct Movie: Decodable, Sendable, Equatable {
        var id: String
        var title: String
    }

    var movies: [Movie]
}

struct SearchVariables: OperationVariable {
    @OptionalVariable var title: String?
    @OptionalVariable var genre: String?
    @OptionalVariable var minRating: Int?
}

struct CreateReviewData: Decodable, Sendable, Equatable {
    struct Key: Decodable, Sendable, Equatable {
        var id: String
    }

    var review: Key?
    var stats: Key?
}

@Suite struct DataConnectTests {
    let alien: JSONValue = ["movies": [["id": "m1", "title": "Alien"]]]
    let aliens: JSONValue = ["movies": [["id": "m1", "title": "Alien"], ["id": "m2", "title": "Aliens"]]]

    @Test func returnsOneInstancePerAppAndConnector() {
        // given
        let app = DataConnectFixtures.makeApp()
        let other = ConnectorConfig(serviceId: "movies", location: "us-central1", connector: "admin")

        // when
        let first = DataConnect.dataConnect(app: app, connectorConfig: DataConnectFixtures.config)
        let second = DataConnect.dataConnect(
            app: app, connectorConfig: DataConnectFixtures.config, callerSDKType: .generated)
        let otherConnector = DataConnect.dataConnect(app: app, connectorConfig: other)
        let otherApp = DataConnect.dataConnect(
            app: DataConnectFixtures.makeApp(), connectorConfig: DataConnectFixtures.config)

        // then
        #expect(first === second)
        #expect(second.callerSDKType == .base)
        #expect(first !== otherConnector)
        #expect(first !== otherApp)
    }

    @Test func settingsEqualityIgnoresCacheSettings() {
        let plain = DataConnectSettings()
        let cached = DataConnectSettings(cacheSettings: CacheSettings(storage: .memory, maxAge: 30))
        #expect(plain == cached)
        #expect(cached.cacheSettings?.storage == .memory)
        #expect(plain.endpoint == .production)
    }

    @Test func resolvesTheEndpointFromEmulatorEnvironmentAndSettings() {
        // given
        let environment = [EmulatorConfiguration.environmentVariable: "10.0.0.2:9001"]
        let plain = DataConnect(
            app: DataConnectFixtures.makeApp(), connectorConfig: DataConnectFixtures.config, environment: [:])
        let fromEnvironment = DataConnectFixtures.dataConnect(RecordingTransport(), environment: environment)

        // when
        let beforeEmulator = fromEnvironment.endpoint
        fromEnvironment.useEmulator(port: 9500)

        // then
        #expect(plain.endpoint == .production)
        #expect(plain.connector.path == "projects/demo/locations/us-central1/services/movies/connectors/movies")
        #expect(beforeEmulator == ServiceEndpoint(host: "10.0.0.2", port: 9001, sslEnabled: false))
        #expect(fromEnvironment.endpoint == ServiceEndpoint(host: "127.0.0.1", port: 9500, sslEnabled: false))
    }

    @Test func bareUseEmulatorFollowsTheEnvironmentButExplicitValuesWin() {
        // given
        let environment = [EmulatorConfiguration.environmentVariable: "127.0.0.1:9555"]
        let bare = DataConnectFixtures.dataConnect(RecordingTransport(), environment: environment)
        let explicitHost = DataConnectFixtures.dataConnect(RecordingTransport(), environment: environment)
        let noEnvironment = DataConnectFixtures.dataConnect(RecordingTransport(), environment: [:])

        // when
        bare.useEmulator()
        explicitHost.useEmulator(host: "localhost")
        noEnvironment.useEmulator()

        // then
        #expect(bare.endpoint == ServiceEndpoint(host: "127.0.0.1", port: 9555, sslEnabled: false))
        #expect(explicitHost.endpoint == ServiceEndpoint(host: "localhost", port: 9399, sslEnabled: false))
        #expect(noEnvironment.endpoint == ServiceEndpoint(host: "127.0.0.1", port: 9399, sslEnabled: false))
    }

    @Test(arguments: [CallerSDKType.base, .generated])
    func marksGeneratedCallersInTheApiClientHeader(callerSDKType: CallerSDKType) async throws {
        // given
        let transport = RecordingTransport(replies: [.success(GraphQLResponse(data: alien))])
        let dataConnect = DataConnectFixtures.dataConnect(transport, callerSDKType: callerSDKType)

        // when
        _ = try await dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self
        ).execute()

        // then
        let request = try #require(transport.requests.first)
        let urlRequest = try URLSessionTransport.makeURLRequest(
            for: request, authToken: nil, endpoint: .production, timeout: 10, versions: .current)
        let header = try #require(urlRequest.value(forHTTPHeaderField: "X-Goog-Api-Client"))
        #expect(request.metadata.isGeneratedCaller == (callerSDKType == .generated))
        #expect(header.hasSuffix(" swift/gen") == (callerSDKType == .generated))
        #expect(request.metadata.appID == FirebaseOptions.demoAppID)
        #expect(request.metadata.apiKey == "key-1")
    }

    @Test func sendsTheProvidersTokenWithEachRequest() async throws {
        // given
        let transport = RecordingTransport(replies: [.success(GraphQLResponse(data: alien))])
        let dataConnect = DataConnectFixtures.dataConnect(transport)
        let auth = EmulatorAuth()
        auth.signIn(uid: "uid-alice")
        dataConnect.setAuthTokenProvider(auth)

        // when
        _ = try await dataConnect.query(
            name: "getCurrentUser", variables: NoVariables(), resultsDataType: MovieList.self
        ).execute()

        // then
        let token = try await auth.token(forcingRefresh: false)
        #expect(transport.requests.first?.metadata.authToken == token)
        #expect(token != nil)
    }

    @Test func anUnauthenticatedAnswerIsRetriedOnceWithARefreshedToken() async throws {
        // given: an injected transport that refuses the first token
        let transport = RecordingTransport(replies: [
            .failure(.server(RequestError(status: .unauthenticated, message: "expired"), httpStatus: 401)),
            .success(GraphQLResponse(data: alien)),
        ])
        let dataConnect = DataConnectFixtures.dataConnect(transport)
        let provider = SwappableTokenProvider(["stale-token", "fresh-token"])
        dataConnect.setAuthTokenProvider(provider)

        // when
        let result = try await dataConnect.query(
            name: "getCurrentUser", variables: NoVariables(), resultsDataType: MovieList.self
        ).execute()

        // then: sent again once, with a token refreshed for it
        #expect(result.data.movies.count == 1)
        #expect(transport.requests.map(\.metadata.authToken) == ["stale-token", "fresh-token"])
        #expect(provider.forcingRefreshes == [false, true])
    }

    @Test func leavesUnsetVariablesOutAndSendsNullForNil() async throws {
        // given
        let transport = RecordingTransport(replies: [.success(GraphQLResponse(data: alien))])
        let dataConnect = DataConnectFixtures.dataConnect(transport)
        var variables = SearchVariables()
        variables.genre = nil
        variables.minRating = 3

        // when
        _ = try await dataConnect.query(name: "searchMovies", variables: variables, resultsDataType: MovieList.self)
            .execute()

        // then
        let request = try #require(transport.requests.first)
        #expect(request.kind == .query)
        #expect(request.operationName == "searchMovies")
        #expect(request.variables == ["genre": nil, "minRating": 3])
        #expect(request.variables["title"] == nil)
    }

    @Test func decodesTheResultData() async throws {
        // given
        let transport = RecordingTransport(replies: [.success(GraphQLResponse(data: aliens))])
        let dataConnect = DataConnectFixtures.dataConnect(transport)

        // when
        let result = try await dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self
        ).execute(fetchPolicy: .serverOnly)

        // then
        #expect(result.source == .server)
        #expect(result.data == MovieList(movies: [.init(id: "m1", title: "Alien"), .init(id: "m2", title: "Aliens")]))
        #expect(transport.requests.first?.variables == ["genre": "Sci-Fi"])
    }

    @Test func mutationWithErrorsThrowsWithThePartialData() async throws {
        // given
        let response = GraphQLResponse(
            data: ["review": ["id": "r1"], "stats": nil],
            errors: [GraphQLError(message: "denied", path: ["stats"], code: .permissionDenied)])
        let transport = RecordingTransport(replies: [.success(response)])
        let dataConnect = DataConnectFixtures.dataConnect(transport)

        // when
        let error = await #expect(throws: DataConnectOperationError.self) {
            try await dataConnect.mutation(
                name: "createReview", variables: GenreVariables(genre: "x"), resultsDataType: CreateReviewData.self
            ).execute()
        }

        // then
        #expect(transport.requests.first?.kind == .mutation)
        #expect(error?.response?.errors.map(\.message) == ["denied"])
        let partial = error?.response?.data(asType: CreateReviewData.self)
        #expect(partial == CreateReviewData(review: .init(id: "r1"), stats: nil))
    }

    @Test func requestFailureThrowsServerErrorAndKeepsTheData() async throws {
        // given
        let transport = RecordingTransport(replies: [
            .success(GraphQLResponse(data: alien)),
            .failure(.server(RequestError(status: .permissionDenied, message: "no"), httpStatus: 403)),
        ])
        let ref = DataConnectFixtures.dataConnect(transport).query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self)
        _ = try await ref.execute()

        // when
        let error = await #expect(throws: DataConnectServerError.self) { try await ref.execute() }

        // then
        #expect(error?.code == .permissionDenied)
        #expect(error?.httpStatus == 403)
        #expect(ref.lastError is DataConnectServerError)
        #expect(ref.data?.movies.first?.title == "Alien")
    }

    @Test func undecodableDataThrowsCodecError() async throws {
        let transport = RecordingTransport(replies: [.success(GraphQLResponse(data: ["movies": 3]))])
        let ref = DataConnectFixtures.dataConnect(transport).query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self)

        let error = await #expect(throws: DataConnectCodecError.self) { try await ref.execute() }

        #expect(error?.code == .decodingFailed)
    }

    @Test func cacheOnlyReturnsNoDataWithoutARequest() async throws {
        // given
        let transport = RecordingTransport()
        let ref = DataConnectFixtures.dataConnect(transport).query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self)

        // when
        let result = try await ref.execute(fetchPolicy: .cacheOnly)

        // then
        #expect(result == OperationResult(data: nil, source: .cache))
        #expect(transport.requests.isEmpty)
        #expect(ref.source == nil)
    }

    @Test func returnsOneRefPerNameAndVariables() {
        // given
        let dataConnect = DataConnectFixtures.dataConnect(RecordingTransport())
        func ref(_ name: String, _ genre: String) -> QueryRefObservation<MovieList, GenreVariables> {
            dataConnect.query(name: name, variables: GenreVariables(genre: genre), resultsDataType: MovieList.self)
        }

        // when
        let first = ref("listMoviesByGenre", "Sci-Fi")
        let same = ref("listMoviesByGenre", "Sci-Fi")
        let otherVariables = ref("listMoviesByGenre", "Drama")
        let otherName = ref("searchMovies", "Sci-Fi")

        // then
        #expect(first === same)
        #expect(first == same)
        #expect(first !== otherVariables)
        #expect(first !== otherName)
        #expect(first != otherVariables)
    }

    @Test func observableRefUpdatesDataAndEveryConsumerReceivesEachResult() async throws {
        // given
        let transport = RecordingTransport(replies: [
            .success(GraphQLResponse(data: alien)), .success(GraphQLResponse(data: aliens)),
        ])
        let ref = DataConnectFixtures.dataConnect(transport).query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self)
        let consumers = [ref.results, ref.results].map { stream in
            Task { await stream.prefix(2).reduce(into: [String]()) { $0.append(Self.titles($1.data)) } }
        }
        let changed = Mutex(false)
        withObservationTracking {
            _ = ref.data
        } onChange: {
            changed.withLock { $0 = true }
        }

        // when
        _ = try await ref.execute()
        let afterFirst = Self.titles(ref.data)
        _ = try await ref.execute()

        // then
        #expect(changed.withLock { $0 })
        #expect(afterFirst == "Alien")
        #expect(ref.source == .server)
        #expect(ref.lastError == nil)
        for consumer in consumers {
            #expect(await consumer.value == ["Alien", "Alien,Aliens"])
        }
    }

    @Test func consumerIsRemovedWhenItsTaskEnds() async throws {
        // given
        let ref = DataConnectFixtures.dataConnect(RecordingTransport()).query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self)
        let stream = ref.results
        let consumer = Task { for await _ in stream {} }
        #expect(ref.resultsConsumerCount == 1)

        // when
        consumer.cancel()
        await consumer.value

        // then
        #expect(ref.resultsConsumerCount == 0)
    }

    private static func titles(_ list: MovieList?) -> String {
        (list?.movies ?? []).map(\.title).joined(separator: ",")
    }
}
