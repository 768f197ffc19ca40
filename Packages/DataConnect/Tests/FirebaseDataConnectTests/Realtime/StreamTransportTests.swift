import DataConnectEncoding
import DataConnectTestSupport
import DataConnectWire
import Foundation
import Synchronization
import Testing

@testable import FirebaseDataConnect

/// The stream protocol's multiplexing, routing, etags and re-authentication, against an in-memory WebSocket.
@Suite struct StreamTransportTests {
    static let connector = ConnectorResourceName(
        projectID: "demo", location: "us-central1", serviceID: "movies", connectorID: "movies-app")
    static let emulator = ServiceEndpoint(host: "127.0.0.1", port: 9399, sslEnabled: false)

    /// A JWT-shaped token for `uid`; `issue` tells refreshed tokens of one user apart.
    static func token(_ uid: String, issue: Int = 1) -> String {
        let payload = JSONValue.object(["sub": .string(uid), "iat": JSONValue(issue)]).serialized()
        return "eyJhbGciOiJub25lIn0." + Base64.url.encode(payload) + "."
    }

    static func request(
        _ operationName: String, kind: OperationRequest.Kind = .query, variables: JSONObject = [:],
        token: String? = nil, apiKey: String? = nil
    ) -> OperationRequest {
        OperationRequest(
            connector: connector, kind: kind, operationName: operationName, variables: variables,
            metadata: RequestMetadata(appID: "1:demo:web:1", apiKey: apiKey, authToken: token))
    }

    static func response(
        _ requestID: String, data: JSONValue?, etag: String? = nil, cancelled: Bool = false
    )
        -> JSONValue
    {
        var object: JSONObject = ["requestId": .string(requestID)]
        if let data { object["data"] = data }
        object["errors"] = .array([])
        if let etag { object["dataEtag"] = .string(etag) }
        if cancelled { object["cancelled"] = true }
        return .object(object)
    }

    static func make(fallback: RecordingTransport = RecordingTransport()) -> (StreamTransport, FakeWebSocketConnector) {
        let sockets = FakeWebSocketConnector()
        let transport = StreamTransport(
            configuration: .init(
                endpoint: emulator, fallback: fallback,
                versions: ClientVersions(sdk: "11.12.6", swift: "6.3", os: "6.1.0")),
            connector: sockets.connector)
        return (transport, sockets)
    }

    // MARK: - Requests

    @Test func theFirstFrameNamesTheConnectorAndCarriesTheHeadersAndLaterFramesDoNot() async throws {
        // given
        let (transport, sockets) = Self.make()

        // when: two subscriptions
        let first = ThrowingRecorder(
            transport.subscribe(
                Self.request("ListMovies", token: Self.token("alice"), apiKey: "key 1"), dataEtag: "e0"))
        let second = ThrowingRecorder(
            transport.subscribe(
                Self.request("GetMovie", variables: ["id": "m1"], token: Self.token("alice")), dataEtag: nil))

        // then: one connection, to the stream of the service
        #expect(sockets.all.count == 1)
        let socket = try #require(sockets.last)
        #expect(
            socket.address.url
                == "ws://127.0.0.1:9399/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/demo/"
                + "locations/us-central1/services/movies?key=key%201")
        let frames = socket.frames
        #expect(frames.count == 2)
        #expect(frames.first?["requestId"] == "1")
        #expect(frames.first?["name"] == "projects/demo/locations/us-central1/services/movies/connectors/movies-app")
        #expect(
            frames.first?["headers"]
                == .object([
                    "X-Goog-Api-Client": "gl-swift/6.3 fire/11.12.6 gl-linux/6.1.0",
                    "X-Client-Version": "linux/11.12.6",
                    "x-firebase-gmpid": "1:demo:web:1",
                    "X-Firebase-Auth-Token": .string(Self.token("alice")),
                ]))
        #expect(frames.first?["subscribe"] == ["operationName": "ListMovies", "variables": .object([:])])
        #expect(frames.first?["dataEtag"] == "e0")
        #expect(
            frames.last
                == ["requestId": "2", "subscribe": ["operationName": "GetMovie", "variables": ["id": "m1"]]])
        _ = (first, second)
    }

    @Test func framesLeaveInTheOrderTheyWerePreparedSoTheFirstOfAConnectionNamesTheConnector() throws {
        for _ in 0..<200 {
            // given: a fresh transport
            let (transport, sockets) = Self.make()
            let streams = LockedList<AsyncThrowingStream<StreamMessage, any Error>>()

            // when: several threads subscribe at once
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                streams.append(transport.subscribe(Self.request("Query\(index)"), dataEtag: nil))
            }

            // then: whichever prepared the first frame, that frame left first: the server reads the name first
            let frames = try #require(sockets.last).frames
            #expect(frames.count == 4)
            #expect(frames.first?["name"] != nil, "\(frames)")
            #expect(frames.dropFirst().allSatisfy { $0["name"] == nil })
            #expect(frames.map { $0["requestId"]?.stringValue ?? "" } == ["1", "2", "3", "4"])
            _ = streams
        }
    }

    @Test func responsesAreRoutedByRequestIdInEitherFraming() async throws {
        // given
        let (transport, sockets) = Self.make()
        let movies = ThrowingRecorder(transport.subscribe(Self.request("ListMovies"), dataEtag: nil))
        let movie = ThrowingRecorder(transport.subscribe(Self.request("GetMovie"), dataEtag: nil))
        let socket = try #require(sockets.last)
        socket.open()

        // when: the emulator's wrapped text frame, then production's bare binary frame
        socket.reply(Self.response("2", data: ["movie": ["title": "Alien"]], etag: "m1"))
        socket.replyBinary(Self.response("1", data: ["movies": []], etag: "l1"))

        // then
        let movieMessages = await movie.wait(for: 1)
        let movieList = await movies.wait(for: 1)
        #expect(movieMessages.map(\.requestID) == ["2"])
        #expect(movieMessages.first?.response.data == ["movie": ["title": "Alien"]])
        #expect(movieMessages.first?.dataEtag == "m1")
        #expect(movieList.map(\.response.data) == [["movies": []]])
    }

    @Test func aTextFrameWithoutResultEndsTheConnectionAsAProtocolError() async throws {
        // given
        let (transport, sockets) = Self.make()
        let movies = ThrowingRecorder(transport.subscribe(Self.request("ListMovies"), dataEtag: nil))
        let socket = try #require(sockets.last)

        // when
        socket.sendRaw(text: #"{"requestId":"1","data":{}}"#)

        // then
        guard case .failure(let error)? = await movies.waitForEnd(),
            case .malformedResponse? = error as? TransportError
        else {
            Issue.record("expected a malformed response")
            return
        }
        #expect(socket.closed?.code == 1002)
        #expect(!transport.isConnected)
    }

    // MARK: - Ending subscriptions

    @Test func aConsumerThatStopsSendsCancelAndTheLastOneClosesTheConnection() async throws {
        // given
        let (transport, sockets) = Self.make()
        let movies = ThrowingRecorder(transport.subscribe(Self.request("ListMovies"), dataEtag: nil))
        let movie = ThrowingRecorder(transport.subscribe(Self.request("GetMovie"), dataEtag: nil))
        let socket = try #require(sockets.last)

        // when: the first consumer stops
        movies.cancel()
        await HangGuard.wait { socket.frames.count == 3 }

        // then: its subscription is cancelled; the connection stays for the other
        #expect(socket.frames.last == ["requestId": "1", "cancel": .object([:])])
        #expect(socket.closed == nil)
        #expect(transport.liveSubscriptionCount == 1)

        // when: the last consumer stops
        movie.cancel()
        await HangGuard.wait { socket.closed != nil }

        // then
        #expect(socket.frames.last == ["requestId": "2", "cancel": .object([:])])
        #expect(socket.closed?.code == 1000)
        #expect(!transport.isConnected)
    }

    @Test func aConsumerThatStopsWhileTheTokenIsFetchedCancelsOnceRegistered() async throws {
        // given: a subscription whose token is still being fetched
        let provider = GatedTokenProvider()
        let sockets = FakeWebSocketConnector()
        let transport = StreamTransport(
            configuration: .init(endpoint: Self.emulator, fallback: RecordingTransport(), authTokenProvider: provider),
            connector: sockets.connector)
        let movies = ThrowingRecorder(transport.subscribe(Self.request("ListMovies"), dataEtag: nil))
        await HangGuard.wait { provider.waiting == 1 }

        // when: the consumer stops, then the token arrives
        movies.cancel()
        _ = await movies.waitForEnd()
        provider.open(token: Self.token("alice"))

        // then: the subscription is sent with the token, cancelled, and the idle connection closed
        await HangGuard.wait { sockets.last?.closed != nil }
        let frames = sockets.last?.frames ?? []
        #expect(frames.first?["headers"]?["X-Firebase-Auth-Token"] == .string(Self.token("alice")))
        #expect(frames.last == ["requestId": "1", "cancel": .object([:])])
        #expect(sockets.last?.closed?.code == 1000)
        #expect(!transport.isConnected)
    }

    @Test func aCancelledResponseEndsThatSubscriptionOnly() async throws {
        // given
        let (transport, sockets) = Self.make()
        let movies = ThrowingRecorder(transport.subscribe(Self.request("ListMovies"), dataEtag: nil))
        let movie = ThrowingRecorder(transport.subscribe(Self.request("GetMovie"), dataEtag: nil))
        let socket = try #require(sockets.last)

        // when
        socket.reply(Self.response("1", data: nil, cancelled: true))

        // then: the cancellation is yielded, then the sequence finishes; nothing is sent back
        guard case .success? = await movies.waitForEnd() else {
            Issue.record("expected the subscription to finish")
            return
        }
        #expect(movies.all.map(\.cancelled) == [true])
        #expect(socket.frames.count == 2)
        #expect(transport.liveSubscriptionCount == 1)
        #expect(socket.closed == nil)
        _ = movie
    }

    @Test func aDeadConnectionFailsEverySubscriptionAndTheNextSubscribeOpensANewOne() async throws {
        // given
        let (transport, sockets) = Self.make()
        let movies = ThrowingRecorder(transport.subscribe(Self.request("ListMovies"), dataEtag: nil))
        let movie = ThrowingRecorder(transport.subscribe(Self.request("GetMovie"), dataEtag: nil))
        let socket = try #require(sockets.last)

        // when: the connection stops answering pings
        socket.fail(.connection("the connection was lost", code: URLErrorCodes.networkConnectionLost))

        // then
        for recorder in [movies, movie] {
            guard case .failure(let error)? = await recorder.waitForEnd(), case .connection? = error as? TransportError
            else {
                Issue.record("expected a connection failure")
                continue
            }
        }
        #expect(!transport.isConnected)

        // when: the owner resubscribes with its etag
        let again = ThrowingRecorder(transport.subscribe(Self.request("ListMovies"), dataEtag: "e7"))

        // then: a new connection, numbered afresh, named again
        #expect(sockets.all.count == 2)
        let frame = sockets.last?.frames.first
        #expect(frame?["requestId"] == "1")
        #expect(frame?["name"] != nil)
        #expect(frame?["dataEtag"] == "e7")
        _ = again
    }

    @Test func aCloseFromTheServerFailsTheSubscriptions() async throws {
        // given
        let (transport, sockets) = Self.make()
        let movies = ThrowingRecorder(transport.subscribe(Self.request("ListMovies"), dataEtag: nil))

        // when
        sockets.last?.closeFromServer(code: 1001, reason: "stopping")

        // then
        guard case .failure(let error)? = await movies.waitForEnd() else {
            Issue.record("expected a failure")
            return
        }
        #expect(String(describing: error).contains("1001"))
    }

    @Test func aRefusedUpgradeReachesTheSubscriberWithItsStatus() async throws {
        // given
        let (transport, sockets) = Self.make()
        let movies = ThrowingRecorder(transport.subscribe(Self.request("ListMovies"), dataEtag: nil))

        // when
        sockets.last?.fail(.server(RequestError(status: .notFound, message: "no such service"), httpStatus: 404))

        // then
        guard case .failure(let error)? = await movies.waitForEnd(),
            case .server(_, let status)? = error as? TransportError
        else {
            Issue.record("expected the refusal")
            return
        }
        #expect(status == 404)
    }

    // MARK: - Executes

    @Test func executesUseRESTWhenNoSubscriptionHoldsTheStream() async throws {
        // given
        let fallback = RecordingTransport(replies: [.success(GraphQLResponse(data: ["movies": []]))])
        let (transport, sockets) = Self.make(fallback: fallback)

        // when
        let response = try await transport.execute(Self.request("ListMovies"))

        // then
        #expect(response.data == ["movies": []])
        #expect(fallback.requests.map(\.operationName) == ["ListMovies"])
        #expect(sockets.all.isEmpty)
    }

    @Test func queriesAndMutationsTravelOverTheStreamWhileSubscribed() async throws {
        // given
        let fallback = RecordingTransport()
        let (transport, sockets) = Self.make(fallback: fallback)
        let movies = ThrowingRecorder(transport.subscribe(Self.request("ListMovies"), dataEtag: nil))
        let socket = try #require(sockets.last)

        // when
        async let query = transport.execute(Self.request("GetMovie", variables: ["id": "m1"]))
        async let mutation = transport.execute(Self.request("AddReview", kind: .mutation, variables: ["id": "m1"]))
        await HangGuard.wait { socket.frames.count == 3 }
        let executes = socket.frames.dropFirst()
        for frame in executes {
            let id = frame["requestId"]?.stringValue ?? ""
            let name = frame["execute"]?["operationName"]?.stringValue ?? ""
            socket.reply(Self.response(id, data: [name: "ok"]))
        }

        // then
        #expect(try await query.data == ["GetMovie": "ok"])
        #expect(try await mutation.data == ["AddReview": "ok"])
        #expect(Set(executes.map { $0["requestId"] }) == ["2", "3"])
        #expect(
            Set(executes.map { $0["execute"] }) == [
                ["operationName": "GetMovie", "variables": ["id": "m1"]],
                ["operationName": "AddReview", "variables": ["id": "m1"]],
            ])
        #expect(fallback.requests.isEmpty)
        #expect(movies.all.isEmpty, "the subscription saw none of it")
    }

    @Test func aQueryAlreadySubscribedIsResumedAndAnUnchangedAnswerGivesTheLastData() async throws {
        // given: a subscription with a first result
        let (transport, sockets) = Self.make()
        let movies = ThrowingRecorder(
            transport.subscribe(Self.request("ListMovies", variables: ["genre": "x", "limit": 2]), dataEtag: nil))
        let socket = try #require(sockets.last)
        socket.reply(Self.response("1", data: ["movies": ["Alien"]], etag: "e1"))
        _ = await movies.wait(for: 1)

        // when: the same query and variables (in another key order) are executed
        async let execute = transport.execute(
            Self.request("ListMovies", variables: ["limit": 2, "genre": "x"]))
        await HangGuard.wait { socket.frames.count == 2 }
        let resume = socket.frames.last
        socket.reply(Self.response("1", data: nil, etag: "e1"))

        // then: `resume` on the subscription's id; the "unchanged" answer gives the last data
        #expect(resume == ["requestId": "1", "resume": .object([:])])
        #expect(try await execute.data == ["movies": ["Alien"]])
        socket.reply(Self.response("1", data: ["movies": ["Brazil"]], etag: "e2"))
        #expect(
            await movies.wait(for: 2).map(\.dataEtag) == ["e1", "e2"],
            "the subscription does not see its result again; the next push comes next")
    }

    /// A subscription to `ListMovies` with its first result (etag `e1`), and an execute of the same query waiting
    /// for the answer to its `resume`; the transport is returned to be kept alive.
    static func subscribedWithAResumeWaiting() async throws -> (
        ThrowingRecorder<StreamMessage>, FakeWebSocket, Task<GraphQLResponse, any Error>, StreamTransport
    ) {
        let (transport, sockets) = Self.make()
        let movies = ThrowingRecorder(transport.subscribe(Self.request("ListMovies"), dataEtag: nil))
        let socket = try #require(sockets.last)
        socket.reply(Self.response("1", data: ["movies": ["Alien"]], etag: "e1"))
        _ = await movies.wait(for: 1)
        let execute = Task { try await transport.execute(Self.request("ListMovies")) }
        await HangGuard.wait { socket.frames.count == 2 }
        return (movies, socket, execute, transport)
    }

    @Test func aResumeAnsweredWithTheResultAPushJustBroughtIsNotYieldedAgain() async throws {
        // given: a subscription with a first result, and an execute of the same query resumed before the next push
        let (movies, socket, execute, transport) = try await Self.subscribedWithAResumeWaiting()

        // when: the push of a change comes, then the resume's answer with the same result in full
        socket.reply(Self.response("1", data: ["movies": ["Alien", "Brazil"]], etag: "e2"))
        socket.reply(Self.response("1", data: ["movies": ["Alien", "Brazil"]], etag: "e2"))

        // then: the execute has the result; the subscription saw it once, then the next push
        #expect(try await execute.value.data == ["movies": ["Alien", "Brazil"]])
        socket.reply(Self.response("1", data: ["movies": ["Casablanca"]], etag: "e3"))
        #expect(await movies.wait(for: 3).map(\.dataEtag) == ["e1", "e2", "e3"])
        withExtendedLifetime(transport) {}
    }

    @Test func aResumeAnsweredWithANewResultReachesTheSubscriptionToo() async throws {
        // given
        let (movies, socket, execute, transport) = try await Self.subscribedWithAResumeWaiting()

        // when: the resume's answer is the first to carry a change
        socket.reply(Self.response("1", data: ["movies": ["Brazil"]], etag: "e2"))

        // then: both see it
        #expect(try await execute.value.data == ["movies": ["Brazil"]])
        #expect(await movies.wait(for: 2).map(\.dataEtag) == ["e1", "e2"])
        withExtendedLifetime(transport) {}
    }

    @Test func aQueryInFlightFallsBackToRESTAndAMutationFailsWhenTheStreamDies() async throws {
        // given
        let fallback = RecordingTransport(replies: [.success(GraphQLResponse(data: ["movie": "from REST"]))])
        let (transport, sockets) = Self.make(fallback: fallback)
        let movies = ThrowingRecorder(transport.subscribe(Self.request("ListMovies"), dataEtag: nil))
        let socket = try #require(sockets.last)
        async let query = transport.execute(Self.request("GetMovie"))
        let mutation = Task { try await transport.execute(Self.request("AddReview", kind: .mutation)) }
        await HangGuard.wait { socket.frames.count == 3 }

        // when
        socket.fail(.connection("reset", code: URLErrorCodes.networkConnectionLost))

        // then
        #expect(try await query.data == ["movie": "from REST"])
        guard case .failure(let error) = await mutation.result,
            case .connection(let message, _)? = error as? TransportError
        else {
            Issue.record("expected the mutation to fail")
            return
        }
        #expect(message == "Stream terminated while waiting for mutation response")
        #expect(fallback.requests.map(\.operationName) == ["GetMovie"], "the mutation is never sent twice")
        _ = movies
    }

    @Test func cancellingAnExecuteStopsWaitingForIt() async throws {
        // given
        let (transport, sockets) = Self.make()
        let movies = ThrowingRecorder(transport.subscribe(Self.request("ListMovies"), dataEtag: nil))
        let socket = try #require(sockets.last)
        let execute = Task { try await transport.execute(Self.request("GetMovie")) }
        await HangGuard.wait { socket.frames.count == 2 }

        // when
        execute.cancel()

        // then
        guard case .failure(let error) = await execute.result, case .cancelled? = error as? TransportError else {
            Issue.record("expected a cancellation")
            return
        }
        _ = movies
    }

    // MARK: - Authentication

    @Test func aRefreshedTokenOfTheSameUserGoesOutAsHeadersOnTheLiveStream() async throws {
        // given
        let (transport, sockets) = Self.make()
        let first = ThrowingRecorder(
            transport.subscribe(Self.request("ListMovies", token: Self.token("alice")), dataEtag: nil))

        // when
        let second = ThrowingRecorder(
            transport.subscribe(Self.request("GetMovie", token: Self.token("alice", issue: 2)), dataEtag: nil))

        // then: the same connection; the new token in headers, and nothing else repeated
        #expect(sockets.all.count == 1)
        let frame = sockets.last?.frames.last
        #expect(frame?["headers"] == ["X-Firebase-Auth-Token": .string(Self.token("alice", issue: 2))])
        #expect(frame?["name"] == nil)
        #expect(frame?["requestId"] == "2")
        _ = (first, second)
    }

    @Test func anotherUsersTokenEndsTheStreamAndStartsAfresh() async throws {
        // given: alice's subscription and an execute waiting on the stream
        let (transport, sockets) = Self.make()
        let alice = ThrowingRecorder(
            transport.subscribe(Self.request("ListMovies", token: Self.token("alice")), dataEtag: nil))
        let old = try #require(sockets.last)
        let waiting = Task { try await transport.execute(Self.request("GetMovie", token: Self.token("alice"))) }
        await HangGuard.wait { old.frames.count == 2 }

        // when: bob subscribes
        let bob = ThrowingRecorder(
            transport.subscribe(Self.request("ListMovies", token: Self.token("bob")), dataEtag: nil))

        // then: alice's stream and execute end, the old connection closes, and bob's starts a new one
        guard case .failure(let error)? = await alice.waitForEnd() else {
            Issue.record("expected alice's subscription to end")
            return
        }
        #expect(String(describing: error).contains(StreamTransport.authenticationChangedMessage))
        guard case .failure(let failure) = await waiting.result,
            case .connection(let message, _)? = failure as? TransportError
        else {
            Issue.record("expected the execute to fail")
            return
        }
        #expect(message == "Authentication state change occured while waiting for stream response")
        #expect(old.closed != nil)
        #expect(sockets.all.count == 2)
        #expect(sockets.last?.frames.first?["headers"]?["X-Firebase-Auth-Token"] == .string(Self.token("bob")))
        #expect(sockets.last?.frames.first?["requestId"] == "1")
        _ = bob
    }

    @Test func theProductionStreamIsSecureAndCarriesTheAPIKey() {
        #expect(
            StreamTransport.url(for: Self.connector, endpoint: .production, apiKey: "AIza-1")
                == "wss://firebasedataconnect.googleapis.com/ws/google.firebase.dataconnect.v1."
                + "ConnectorStreamService.Connect/demo/locations/us-central1/services/movies?key=AIza-1")
        #expect(
            StreamTransport.url(for: Self.connector, endpoint: Self.emulator, apiKey: nil)
                == "ws://127.0.0.1:9399/ws/google.firebase.dataconnect.v1."
                + "ConnectorStreamService.Connect/demo/locations/us-central1/services/movies")
    }
}

/// A token provider whose tokens wait until the test opens the gate.
final class GatedTokenProvider: AuthTokenProvider {
    private struct State {
        var token: String??
        var waiters: [CheckedContinuation<String?, Never>] = []
    }

    private let state = Mutex(State())

    var waiting: Int { state.withLock { $0.waiters.count } }

    func open(token: String?) {
        let waiters = state.withLock { state in
            state.token = .some(token)
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: token) }
    }

    func token(forcingRefresh: Bool) async throws -> String? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> String?? in
                if let token = state.token { return .some(token) }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    var userChanges: AsyncStream<AuthUser?> { AsyncStream { $0.finish() } }
}
