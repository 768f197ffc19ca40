import DataConnectTestSupport
import DataConnectWire
import Foundation
import Synchronization
import Testing

@testable import FirebaseDataConnect

/// A scripted realtime transport: each `subscribe` gets the next script of messages and an ending.
final class ScriptedSubscriptionTransport: SubscriptionTransport {
    enum Ending: Sendable {
        /// Keep the stream open until the consumer goes away.
        case open
        /// Close it cleanly.
        case close
        /// Fail it.
        case fail(TransportError)
    }

    struct Script: Sendable {
        var messages: [StreamMessage]
        var ending: Ending
    }

    private struct State {
        var scripts: [Script] = []
        var requests: [OperationRequest] = []
        var etags: [String?] = []
        var open = 0
        var continuations: [AsyncThrowingStream<StreamMessage, any Error>.Continuation] = []
    }

    private let state = Mutex(State())

    init(_ scripts: [Script]) { state.withLock { $0.scripts = scripts } }

    var requests: [OperationRequest] { state.withLock { $0.requests } }
    var etags: [String?] { state.withLock { $0.etags } }
    var openStreams: Int { state.withLock { $0.open } }

    /// Pushes a message on every open stream.
    func push(_ message: StreamMessage) {
        for continuation in state.withLock({ $0.continuations }) { continuation.yield(message) }
    }

    func subscribe(_ request: OperationRequest, dataEtag: String?) -> AsyncThrowingStream<StreamMessage, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: StreamMessage.self, throwing: (any Error).self)
        let script = state.withLock { state -> Script in
            state.requests.append(request)
            state.etags.append(dataEtag)
            state.open += 1
            state.continuations.append(continuation)
            return state.scripts.isEmpty ? Script(messages: [], ending: .open) : state.scripts.removeFirst()
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { $0.open -= 1 } }
        for message in script.messages { continuation.yield(message) }
        switch script.ending {
        case .open: break
        case .close: continuation.finish()
        case .fail(let error): continuation.finish(throwing: error)
        }
        return stream
    }

    static func movies(_ titles: [String], etag: String) -> StreamMessage {
        StreamMessage(
            requestID: "1",
            response: GraphQLResponse(
                data: [
                    "movies": .array(
                        titles.enumerated().map {
                            .object(["id": .string("m\($0.offset)"), "title": .string($0.element)])
                        })
                ],
                extensions: .init(dataConnect: [
                    DataConnectProperties(
                        path: [.field("movies")], entityIds: titles.indices.map { "Movie/m\($0)" }, action: .list)
                ])),
            dataEtag: etag)
    }
}

/// `subscribe()` on query refs against a scripted realtime transport.
@Suite struct SubscribeTests {
    static let fast = ReconnectPolicy(initialDelay: 0.01, multiplier: 1.3, maximumDelay: 0.05)

    static func dataConnect(
        _ realtime: ScriptedSubscriptionTransport, transport: RecordingTransport = RecordingTransport(),
        cache: Bool = true
    ) -> DataConnect {
        DataConnect(
            app: DataConnectFixtures.makeApp(), connectorConfig: DataConnectFixtures.config,
            settings: DataConnectSettings(cacheSettings: cache ? CacheSettings(storage: .memory, maxAge: 3600) : nil),
            transport: transport, environment: [:], subscriptionTransport: realtime, reconnectPolicy: fast)
    }

    static func titles(_ element: Result<OperationResult<MovieList>, AnyDataConnectError>) -> [String]? {
        (try? element.get())?.data?.movies.map(\.title)
    }

    @Test func consumersShareOneServerSubscriptionAndPushesFeedTheRefAndTheCache() async throws {
        // given
        let realtime = ScriptedSubscriptionTransport([
            .init(messages: [ScriptedSubscriptionTransport.movies(["Alien"], etag: "e1")], ending: .open)
        ])
        let dataConnect = Self.dataConnect(realtime)
        let ref = dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "x"), resultsDataType: MovieList.self)

        // when: two consumers subscribe, then the server pushes a change
        let first = Recorder(try await ref.subscribe())
        let second = Recorder(try await ref.subscribe())
        _ = await first.wait(for: 1)
        realtime.push(ScriptedSubscriptionTransport.movies(["Alien", "Aliens"], etag: "e2"))
        let firstValues = await first.wait(for: 2)
        let secondValues = await second.wait(for: 1)

        // then
        #expect(realtime.requests.count == 1, "one server subscription")
        #expect(ref.subscriberCount == 2)
        #expect(firstValues.map(Self.titles) == [["Alien"], ["Alien", "Aliens"]])
        #expect(secondValues.last.flatMap(Self.titles) == ["Alien", "Aliens"])
        #expect(ref.data?.movies.map(\.title) == ["Alien", "Aliens"])
        let cached = try await ref.execute(fetchPolicy: .cacheOnly)
        #expect(cached.data?.movies.map(\.title) == ["Alien", "Aliens"])
    }

    @Test func theCachedResultComesFirst() async throws {
        // given: a cached result
        let transport = RecordingTransport(replies: [.success(CachedConnector.movies([("m0", "Cached")]))])
        let realtime = ScriptedSubscriptionTransport([])
        let dataConnect = Self.dataConnect(realtime, transport: transport)
        let ref = dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "x"), resultsDataType: MovieList.self)
        _ = try await ref.execute()

        // when
        let values = Recorder(try await ref.subscribe())
        await HangGuard.wait { realtime.openStreams > 0 }
        realtime.push(ScriptedSubscriptionTransport.movies(["Pushed"], etag: "e1"))

        // then
        let seen = await values.wait(for: 2)
        #expect(seen.map(Self.titles) == [["Cached"], ["Pushed"]])
        #expect((try? seen.first?.get())?.source == .cache)
    }

    @Test func cancellingTheLastConsumerClosesTheServerSubscription() async throws {
        // given
        let realtime = ScriptedSubscriptionTransport([
            .init(messages: [ScriptedSubscriptionTransport.movies(["Alien"], etag: "e1")], ending: .open)
        ])
        let ref = Self.dataConnect(realtime).query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "x"), resultsDataType: MovieList.self)
        let stream = try await ref.subscribe()
        let consumer = Task { for await _ in stream {} }
        await HangGuard.wait { realtime.openStreams > 0 }
        #expect(realtime.openStreams == 1)

        // when
        consumer.cancel()

        // then
        await HangGuard.wait { realtime.openStreams == 0 }
        #expect(realtime.openStreams == 0)
        #expect(ref.subscriberCount == 0)
    }

    @Test func aDroppedConnectionReconnectsWithTheLastEtag() async throws {
        // given: the first connection delivers a result, then fails; the second closes cleanly; the third stays
        let realtime = ScriptedSubscriptionTransport([
            .init(
                messages: [ScriptedSubscriptionTransport.movies(["Alien"], etag: "e1")],
                ending: .fail(.connection("reset", code: -1005))),
            .init(messages: [], ending: .fail(.connection("refused", code: -1004))),
            .init(messages: [ScriptedSubscriptionTransport.movies(["Alien", "Heat"], etag: "e2")], ending: .open),
        ])
        let ref = Self.dataConnect(realtime).query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "x"), resultsDataType: MovieList.self)

        // when
        let values = Recorder(try await ref.subscribe())
        let seen = await values.wait(for: 2)

        // then: resumed, without a failure reaching the consumer
        #expect(seen.map(Self.titles) == [["Alien"], ["Alien", "Heat"]])
        #expect(realtime.requests.count == 3)
        #expect(realtime.etags == [nil, "e1", "e1"])
    }

    @Test func aRefusalEndsTheSubscriptionWithOneFailure() async throws {
        // given
        let refusal = TransportError.server(
            RequestError(status: .permissionDenied, message: "no access"), httpStatus: 403)
        let realtime = ScriptedSubscriptionTransport([.init(messages: [], ending: .fail(refusal))])
        let ref = Self.dataConnect(realtime).query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "x"), resultsDataType: MovieList.self)

        // when
        var elements: [Result<OperationResult<MovieList>, AnyDataConnectError>] = []
        for await element in try await ref.subscribe() { elements.append(element) }

        // then: the loop ended after the failure, with no retry
        #expect(elements.count == 1)
        guard case .failure(let error) = elements.first else {
            Issue.record("expected a failure")
            return
        }
        #expect((error.dataConnectError as? DataConnectServerError)?.code == .permissionDenied)
        #expect(realtime.requests.count == 1)
    }

    @Test func aServerCancellationEndsTheSubscription() async throws {
        // given
        let cancelled = StreamMessage(
            requestID: "1",
            response: GraphQLResponse(data: nil, errors: [GraphQLError(message: "the operation was removed")]),
            cancelled: true)
        let realtime = ScriptedSubscriptionTransport([
            .init(messages: [ScriptedSubscriptionTransport.movies(["Alien"], etag: "e1"), cancelled], ending: .open)
        ])
        let ref = Self.dataConnect(realtime).query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "x"), resultsDataType: MovieList.self)

        // when
        var elements: [Result<OperationResult<MovieList>, AnyDataConnectError>] = []
        for await element in try await ref.subscribe() { elements.append(element) }

        // then
        #expect(elements.count == 2)
        #expect(Self.titles(elements[0]) == ["Alien"])
        if case .failure(let error) = elements[1] {
            #expect(error.description.contains("the operation was removed"))
        } else {
            Issue.record("expected the cancellation as a failure")
        }
    }

    @Test func aSignInChangeReconnectsWithTheNewUsersToken() async throws {
        // given: subscribed as alice
        let realtime = ScriptedSubscriptionTransport([])
        let dataConnect = Self.dataConnect(realtime)
        let auth = EmulatorAuth()
        auth.signIn(uid: "alice")
        dataConnect.setAuthTokenProvider(auth)
        let ref = dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "x"), resultsDataType: MovieList.self)
        let values = Recorder(try await ref.subscribe())
        await HangGuard.wait { !realtime.requests.isEmpty }

        // when: bob signs in
        auth.signIn(uid: "bob")
        await HangGuard.wait { realtime.requests.count >= 2 }

        // then: a second subscription with bob's token; the first is closed
        let tokens = realtime.requests.map { $0.metadata.authToken.flatMap(TokenSubject.uid(fromToken:)) }
        #expect(tokens == ["alice", "bob"])
        await HangGuard.wait { realtime.openStreams <= 1 }
        #expect(realtime.openStreams == 1)
        _ = values
    }
}

extension SubscribeTests {
    @Test func aSubscriptionKeepsWorkingAfterTheAppDropsItsRef() async throws {
        // given: a subscription made from a ref nobody keeps
        let realtime = ScriptedSubscriptionTransport([
            .init(messages: [ScriptedSubscriptionTransport.movies(["Alien"], etag: "e1")], ending: .open)
        ])
        let dataConnect = Self.dataConnect(realtime)
        let values = Recorder(
            try await dataConnect.query(
                name: "listMoviesByGenre", variables: GenreVariables(genre: "x"), resultsDataType: MovieList.self
            ).subscribe())

        // when
        _ = await values.wait(for: 1)
        realtime.push(ScriptedSubscriptionTransport.movies(["Alien", "Heat"], etag: "e2"))

        // then
        #expect(await values.wait(for: 2).map(Self.titles) == [["Alien"], ["Alien", "Heat"]])
    }
}

extension SubscribeTests {
    @Test func anUnchangedResponseDeliversTheLastDataAgain() async throws {
        // given: a first result
        let realtime = ScriptedSubscriptionTransport([
            .init(messages: [ScriptedSubscriptionTransport.movies(["Alien"], etag: "e1")], ending: .open)
        ])
        let ref = Self.dataConnect(realtime).query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "x"), resultsDataType: MovieList.self)
        let values = Recorder(try await ref.subscribe())
        _ = await values.wait(for: 1)

        // when: a refresh tick answered "unchanged" (the same etag, no data), then a change
        realtime.push(StreamMessage(requestID: "1", response: GraphQLResponse(data: nil), dataEtag: "e1"))
        realtime.push(ScriptedSubscriptionTransport.movies(["Alien", "Heat"], etag: "e2"))

        // then: every push reached the consumer with data
        let seen = await values.wait(for: 3)
        #expect(seen.map(Self.titles) == [["Alien"], ["Alien"], ["Alien", "Heat"]])
        #expect(seen.allSatisfy { (try? $0.get())?.source == .server })
    }

    @Test func aSubscriptionOverTheStreamReconnectsOnANewConnectionWithItsEtag() async throws {
        // given: a ref subscribed through the WebSocket stream
        let sockets = FakeWebSocketConnector()
        let stream = StreamTransport(
            configuration: .init(
                endpoint: ServiceEndpoint(host: "127.0.0.1", port: 9399, sslEnabled: false),
                fallback: RecordingTransport()),
            connector: sockets.connector)
        let dataConnect = DataConnect(
            app: DataConnectFixtures.makeApp(), connectorConfig: DataConnectFixtures.config,
            settings: DataConnectSettings(cacheSettings: nil), transport: RecordingTransport(), environment: [:],
            subscriptionTransport: stream, reconnectPolicy: Self.fast)
        let ref = dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "x"), resultsDataType: MovieList.self)
        let values = Recorder(try await ref.subscribe())
        await HangGuard.wait { sockets.last?.frames.isEmpty == false }
        let first = try #require(sockets.last)
        first.reply(
            ScriptedSubscriptionTransport.movies(["Alien"], etag: "e1").response.toJSON().merging(
                requestID: "1", etag: "e1"))
        _ = await values.wait(for: 1)

        // when: the connection dies
        first.fail(.connection("the connection was lost", code: URLErrorCodes.networkConnectionLost))

        // then: the ref subscribes again on a new connection, sending its etag; "unchanged" gives the last data
        await HangGuard.wait { sockets.all.count == 2 && sockets.last?.frames.isEmpty == false }
        let second = try #require(sockets.last)
        #expect(sockets.all.count == 2)
        #expect(second.frames.first?["dataEtag"] == "e1")
        #expect(second.frames.first?["subscribe"]?["operationName"] == "listMoviesByGenre")
        second.reply(["requestId": "1", "dataEtag": "e1"])
        let seen = await values.wait(for: 2)
        #expect(seen.map(Self.titles) == [["Alien"], ["Alien"]])
    }
}

extension JSONValue {
    /// This response object with a `requestId` and `dataEtag`, as a stream response.
    fileprivate func merging(requestID: String, etag: String) -> JSONValue {
        guard case .object(var object) = self else { return self }
        object["requestId"] = .string(requestID)
        object["dataEtag"] = .string(etag)
        return .object(object)
    }
}
