import EmulatorHTTP
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct HTTPServerTests {
    @Test(arguments: HTTP1Implementation.allCases)
    func getRoundTripCarriesPathQueryAndHeaders(_ http1: HTTP1Implementation) async throws {
        // given
        let recorder = RequestRecorder()
        try await withServer(
            http1,
            respond: { request in
                recorder.record(request)
                return .json(#"{"ok":true}"#, headers: ["X-Answer": "42"])
            }
        ) { server in
            // when
            let (body, response) = try await fetch(
                port: server.port, "/emulator/info?serviceId=s1&name=two%20words&flag",
                headers: ["X-Firebase-Auth-Token": "token-1"])

            // then
            #expect(response.statusCode == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(response.value(forHTTPHeaderField: "X-Answer") == "42")
            #expect(String(decoding: body, as: UTF8.self) == #"{"ok":true}"#)
            let request = try #require(recorder.requests.first)
            #expect(request.method == .get)
            #expect(request.path == "/emulator/info")
            #expect(request.queryValue("serviceId") == "s1")
            #expect(request.queryValue("name") == "two words")
            #expect(request.queryValue("flag") == "")
            #expect(request.queryValue("missing") == nil)
            #expect(request.headers["x-firebase-auth-token"] == "token-1")
            #expect(request.headers["HOST"] == "127.0.0.1:\(server.port)")
            #expect(request.body.isEmpty)
            #expect(request.version == "HTTP/1.1")
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func postRoundTripDeliversBodyAndHeaders(_ http1: HTTP1Implementation) async throws {
        // given
        let recorder = RequestRecorder()
        let payload = Array(#"{"name":"c","operationName":"ListMovies","variables":{"limit":5}}"#.utf8)
        try await withServer(http1, respond: echoResponder(recorder: recorder)) { server in
            // when
            let (body, response) = try await fetch(
                port: server.port, "/v1/projects/p/locations/l/services/s/connectors/c:executeQuery",
                method: "POST", headers: ["Content-Type": "application/json"], body: payload)

            // then
            #expect(response.statusCode == 200)
            #expect(body == payload)
            let request = try #require(recorder.requests.first)
            #expect(request.method == .post)
            #expect(request.path == "/v1/projects/p/locations/l/services/s/connectors/c:executeQuery")
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.headers["Content-Length"] == String(payload.count))
            #expect(request.body == payload)
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func pathIsPercentDecodedAndQueryIsSplit(_ http1: HTTP1Implementation) async throws {
        // given
        let recorder = RequestRecorder()
        try await withServer(http1, respond: echoResponder(recorder: recorder)) { server in
            let connection = try RawHTTPConnection(port: server.port)

            // when
            try connection.send("GET /a%20b/c%3Ad?x=1&x=2&empty=&bare HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try connection.readResponse()

            // then
            let request = try #require(recorder.requests.first)
            #expect(request.path == "/a b/c:d")
            #expect(
                request.query == [
                    .init(name: "x", value: "1"), .init(name: "x", value: "2"), .init(name: "empty", value: ""),
                    .init(name: "bare", value: nil),
                ])
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func statusAndCustomHeadersReachTheClient(_ http1: HTTP1Implementation) async throws {
        // given
        try await withServer(
            http1,
            respond: { _ in
                HTTPResponse(status: .notFound, headers: ["Content-Type": "text/plain", "X-Trace": "t"], body: [])
            }
        ) { server in
            // when
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try connection.readResponse()

            // then
            #expect(response.status == 404)
            #expect(response.headers["content-type"] == "text/plain")
            #expect(response.headers["x-trace"] == "t")
            #expect(response.headers["Content-Length"] == "0")
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func invalidStatusBecomes500AndBadHeaderIsDroppedWithAWarning(_ http1: HTTP1Implementation) async throws {
        // given
        let messages = MessageLog()
        let configuration = HTTPServer.Configuration(logHandler: { messages.append($0) })
        try await withServer(
            http1,
            configuration: configuration,
            respond: { request in
                if request.path == "/status" { return HTTPResponse(status: 42) }
                return .text("ok", headers: ["X-Bad": "line\r\nInjected: yes"])
            }
        ) { server in
            // when
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("GET /status HTTP/1.1\r\nHost: x\r\n\r\nGET /header HTTP/1.1\r\nHost: x\r\n\r\n")
            let statusResponse = try connection.readResponse()
            let headerResponse = try connection.readResponse()

            // then
            #expect(statusResponse.status == 500)
            #expect(headerResponse.status == 200)
            #expect(headerResponse.text == "ok")
            #expect(headerResponse.headers["Injected"] == nil)
            #expect(headerResponse.headers["X-Bad"] == nil)
            #expect(messages.all.contains { $0.contains("status 42") })
            #expect(messages.all.contains { $0.contains("X-Bad") })
        }
    }

    @Test(arguments: HTTP1Implementation.allCases, [(1, true), (1, false), (3, true), (2, false)])
    func everyPollingModeServesRequestsOnAKeptAliveConnection(
        _ http1: HTTP1Implementation, _ mode: (threads: Int, epoll: Bool)
    ) async throws {
        // given
        let (threads, epoll) = mode
        let configuration = HTTPServer.Configuration(threadPoolSize: threads, usesEpoll: epoll)
        try await withServer(
            http1,
            configuration: configuration,
            respond: { request in .json(request.body) }
        ) { server in
            let connection = try RawHTTPConnection(port: server.port)

            // when
            try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n\r\n{\"a\":1}")
            let first = try connection.readResponse()
            try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n\r\n{\"b\":2}")
            let second = try connection.readResponse()

            // then
            #expect(first.text == #"{"a":1}"#)
            #expect(second.text == #"{"b":2}"#)
        }
    }

    @Test func portZeroPicksAFreePort() throws {
        // given
        let first = HTTPServer(port: 0, respond: { _ in HTTPResponse() })
        let second = HTTPServer(port: 0, respond: { _ in HTTPResponse() })

        // when
        try first.start()
        try second.start()
        defer {
            first.stop()
            second.stop()
        }

        // then
        #expect(first.port != 0)
        #expect(second.port != 0)
        #expect(first.port != second.port)
        #expect(first.isRunning)
    }

    @Test func portInUseThrowsAnErrorNamingHostAndPort() throws {
        // given
        let first = HTTPServer(port: 0, respond: { _ in HTTPResponse() })
        try first.start()
        defer { first.stop() }
        let second = HTTPServer(port: first.port, respond: { _ in HTTPResponse() })

        // when
        let error = #expect(throws: HTTPServerError.self) { try second.start() }

        // then
        guard case .cannotListen(let host, let port, let reason) = error else {
            Issue.record("unexpected error \(String(describing: error))")
            return
        }
        #expect(host == "127.0.0.1")
        #expect(port == first.port)
        #expect(reason.lowercased().contains("in use"))
        #expect(String(describing: error!).contains("127.0.0.1:\(first.port)"))
        #expect(!second.isRunning)
    }

    @Test func invalidHostThrows() {
        // given
        let server = HTTPServer(host: "not-an-address", port: 0, respond: { _ in HTTPResponse() })

        // when / then
        #expect(throws: HTTPServerError.invalidHost("not-an-address")) { try server.start() }
    }

    @Test func startingTwiceThrows() throws {
        // given
        let server = HTTPServer(port: 0, respond: { _ in HTTPResponse() })
        try server.start()
        defer { server.stop() }

        // when / then
        #expect(throws: HTTPServerError.alreadyRunning(host: "127.0.0.1", port: server.port)) {
            try server.start()
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func stopIsIdempotentAndAStoppedServerRefusesConnections(_ http1: HTTP1Implementation) throws {
        // given
        let server = HTTPServer(
            port: 0, configuration: HTTPServer.Configuration().serving(http1), respond: { _ in .text("up") })
        try server.start()
        let port = server.port
        let connection = try RawHTTPConnection(port: port)
        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().text == "up")

        // when
        server.stop()
        server.stop()

        // then
        #expect(!server.isRunning)
        #expect(connection.isClosedByServer())
        #expect(throws: RawHTTPError.connect(ECONNREFUSED)) { try RawHTTPConnection(port: port) }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func aStoppedServerCanStartAgain(_ http1: HTTP1Implementation) throws {
        // given
        let server = HTTPServer(
            port: 0, configuration: HTTPServer.Configuration().serving(http1), respond: { _ in .text("again") })
        try server.start()
        server.stop()

        // when
        try server.start()
        defer { server.stop() }

        // then
        let connection = try RawHTTPConnection(port: server.port)
        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().text == "again")
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func releasingARunningServerStopsIt(_ http1: HTTP1Implementation) throws {
        // given
        var server: HTTPServer? = HTTPServer(
            port: 0, configuration: HTTPServer.Configuration().serving(http1), respond: { _ in HTTPResponse() })
        try server?.start()
        let port = try #require(server?.port)

        // when
        server = nil

        // then
        #expect(throws: RawHTTPError.connect(ECONNREFUSED)) { try RawHTTPConnection(port: port) }
    }
}

/// Collects log messages from the server's log handler.
final class MessageLog: Sendable {
    private let messages = Mutex<[String]>([])

    func append(_ message: String) {
        messages.withLock { $0.append(message) }
    }

    var all: [String] {
        messages.withLock { $0 }
    }
}
