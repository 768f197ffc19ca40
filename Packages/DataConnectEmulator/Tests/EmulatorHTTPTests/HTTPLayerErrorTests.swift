import EmulatorHTTP
import Testing

/// Requests the server answers itself, without calling the responder: over its limits, with contradictory
/// framing, or unparsable. Each exchange runs on its own connection, and the server must serve the next one.
@Suite struct HTTPLayerErrorTests {
    /// A refusal the server writes itself: its status and JSON body.
    struct JSONRefusal: Sendable, CustomTestStringConvertible {
        var name: String
        var request: [UInt8]
        var status: Int
        var body: String

        var testDescription: String { name }
    }

    static let jsonRefusals: [JSONRefusal] = [
        JSONRefusal(
            name: "a request target over 8 KiB",
            request: Array("GET /\(String(repeating: "a", count: 8 * 1024)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
            status: 414,
            body: #"{"error":{"code":414,"message":"request target (path and query) exceeds 8192 bytes","#
                + #""status":"RESOURCE_EXHAUSTED"}}"#),
        JSONRefusal(
            name: "a query string taking the target over 8 KiB",
            request: Array("GET /info?q=\(String(repeating: "%41", count: 2_800)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
            status: 414,
            body: #"{"error":{"code":414,"message":"request target (path and query) exceeds 8192 bytes","#
                + #""status":"RESOURCE_EXHAUSTED"}}"#),
        JSONRefusal(
            name: "a header section over 80 KiB",
            request: Array(
                ("GET / HTTP/1.1\r\nHost: x\r\nX-Padding: " + String(repeating: "p", count: 90_000)
                    + "\r\n\r\n").utf8),
            status: 431,
            body: #"{"error":{"code":431,"message":"request header fields exceed 81920 bytes (90040 received)","#
                + #""status":"RESOURCE_EXHAUSTED"}}"#),
        JSONRefusal(
            name: "a Content-Length over 8 MiB",
            request: Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 8388609\r\n\r\n".utf8),
            status: 413,
            body:
                #"{"error":{"code":413,"message":"request body exceeds 8388608 bytes","status":"RESOURCE_EXHAUSTED"}}"#
        ),
        JSONRefusal(
            name: "Transfer-Encoding with Content-Length",
            request: Array(
                "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n".utf8),
            status: 400,
            body: #"{"error":{"code":400,"message":"a request may not carry both Transfer-Encoding and "#
                + #"Content-Length","status":"INVALID_ARGUMENT"}}"#),
        JSONRefusal(
            name: "two different Content-Length values",
            request: Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n".utf8),
            status: 400,
            body: #"{"error":{"code":400,"message":"conflicting Content-Length values: 2, 3","#
                + #""status":"INVALID_ARGUMENT"}}"#),
        JSONRefusal(
            name: "a transfer coding other than chunked",
            request: Array("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, \"chunked\"\r\n\r\n".utf8),
            status: 501,
            body: #"{"error":{"code":501,"message":"Transfer-Encoding \"gzip, \"chunked\"\" is not supported; "#
                + #"send Content-Length or chunked","status":"UNIMPLEMENTED"}}"#),
    ]

    @Test(arguments: HTTP1Implementation.allCases, jsonRefusals)
    func refusalsAreJSONErrorsAndTheServerKeepsServing(
        _ http1: HTTP1Implementation, _ refusal: JSONRefusal
    ) async throws {
        // given
        let recorder = RequestRecorder()
        try await withServer(http1, respond: echoResponder(recorder: recorder)) { server in
            let connection = try RawHTTPConnection(port: server.port, receiveTimeout: .seconds(60))

            // when
            try? connection.send(refusal.request)
            let response = try connection.readResponse()

            // then
            #expect(response.status == refusal.status)
            #expect(response.headers["Content-Type"] == "application/json")
            #expect(response.text == refusal.body)
            #expect(response.headers.values(for: "Connection") == ["close"])
            #expect(connection.isClosedByServer())
            #expect(recorder.requests.isEmpty)
            try expectStillServing(server)
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func limitsComeFromTheConfiguration(_ http1: HTTP1Implementation) async throws {
        // given
        let configuration = HTTPServer.Configuration(maximumURILength: 10, maximumHeaderSize: 100)
        try await withServer(http1, configuration: configuration, respond: { _ in .text("ok") }) { server in
            // when
            let longTarget = try RawHTTPConnection(port: server.port)
            try longTarget.send("GET /01234567890 HTTP/1.1\r\nHost: x\r\n\r\n")
            let bigHeader = try RawHTTPConnection(port: server.port)
            try bigHeader.send("GET /012345678 HTTP/1.1\r\nHost: x\r\nX: \(String(repeating: "x", count: 60))\r\n\r\n")

            // then
            #expect(try longTarget.readResponse().status == 414)
            #expect(try bigHeader.readResponse().status == 431)
            try expectStillServing(server, path: "/012345678")
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func aHeaderSectionUnderTheLimitReachesTheResponder(_ http1: HTTP1Implementation) async throws {
        // given: a 70 KiB header, as a 64 KiB auth token makes
        let recorder = RequestRecorder()
        let token = String(repeating: "t", count: 70 * 1024)
        try await withServer(http1, respond: echoResponder(recorder: recorder)) { server in
            let connection = try RawHTTPConnection(port: server.port)

            // when
            try connection.send(
                "POST / HTTP/1.1\r\nHost: x\r\nX-Firebase-Auth-Token: \(token)\r\nContent-Length: 2\r\n\r\n{}")
            let response = try connection.readResponse()

            // then
            #expect(response.status == 200)
            #expect(recorder.requests.first?.headers["x-firebase-auth-token"] == token)
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func aRepeatedEqualContentLengthIsAccepted(_ http1: HTTP1Implementation) async throws {
        // given
        try await withServer(http1, respond: { .json($0.body) }) { server in
            let connection = try RawHTTPConnection(port: server.port)

            // when
            try connection.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}")

            // then
            #expect(try connection.readResponse().text == "{}")
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func aHigherMinorVersionIsServedAsHTTP11(_ http1: HTTP1Implementation) async throws {
        // given
        try await withServer(http1, respond: { .text($0.version) }) { server in
            let connection = try RawHTTPConnection(port: server.port)

            // when
            try connection.send("GET / HTTP/1.2\r\nHost: x\r\n\r\n")
            let response = try connection.readResponse()

            // then
            #expect(response.status == 200)
            #expect(response.text == "HTTP/1.2")
        }
    }

    /// A request the HTTP layer cannot parse (or whose size is unknowable: a number past 2^64), answered before any
    /// application code runs.
    struct UnparsableRequest: Sendable, CustomTestStringConvertible {
        var name: String
        var request: [UInt8]
        var status: Int

        var testDescription: String { name }

        init(_ name: String, _ request: String, _ status: Int) {
            self.name = name
            self.request = Array(request.utf8)
            self.status = status
        }
    }

    static let unparsable: [UnparsableRequest] = [
        UnparsableRequest("no HTTP version", "GET /\r\nHost: x\r\n\r\n", 400),
        UnparsableRequest("a malformed HTTP version", "GET / HTTP/1.10\r\nHost: x\r\n\r\n", 400),
        UnparsableRequest("HTTP/2.0", "GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        UnparsableRequest("HTTP/0.9", "GET / HTTP/0.9\r\nHost: x\r\n\r\n", 505),
        UnparsableRequest("a header line without a colon", "GET / HTTP/1.1\r\nHost: x\r\nno colon\r\n\r\n", 400),
        UnparsableRequest(
            "a Content-Length that is not a number", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1e3\r\n\r\n",
            400),
        UnparsableRequest(
            "a Content-Length of 2^64 or more",
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n", 413),
        UnparsableRequest(
            "a malformed chunk size", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        UnparsableRequest(
            "a chunk size of 2^64 or more",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1FFFFFFFFFFFFFFFF\r\n", 413),
        UnparsableRequest(
            "a header section larger than the connection memory",
            "GET / HTTP/1.1\r\nHost: x\r\nX-Padding: \(String(repeating: "p", count: 200 * 1024))\r\n\r\n", 431),
        UnparsableRequest(
            "a request line larger than the connection memory",
            "GET /\(String(repeating: "a", count: 200 * 1024)) HTTP/1.1\r\nHost: x\r\n\r\n", 414),
    ]

    /// The status is right, the connection is closed, and the server goes on serving. The native side answers with
    /// the JSON error body of every other refusal; libmicrohttpd answers these itself, with its own short HTML body
    /// and no `Content-Type`: it calls no application code between finding the error and queueing its answer.
    @Test(arguments: HTTP1Implementation.allCases, unparsable)
    func unparsableRequestsGetTheRightStatus(
        _ http1: HTTP1Implementation, _ unparsable: UnparsableRequest
    ) async throws {
        // given
        let recorder = RequestRecorder()
        try await withServer(http1, respond: echoResponder(recorder: recorder)) { server in
            let connection = try RawHTTPConnection(port: server.port, receiveTimeout: .seconds(60))

            // when
            try? connection.send(unparsable.request)
            let response = try connection.readResponse()

            // then
            #expect(response.status == unparsable.status)
            switch http1 {
            case .native:
                #expect(response.headers["Content-Type"] == "application/json")
                #expect(response.text.hasPrefix(#"{"error":{"code":\#(unparsable.status),"message":""#))
                #expect(response.headers.values(for: "Connection") == ["close"])
            case .libmicrohttpd:
                #expect(response.headers["Content-Type"] == nil)
            }
            #expect(recorder.requests.isEmpty)
            try expectStillServing(server)
        }
    }

    private func expectStillServing(
        _ server: HTTPServer, path: String = "/", sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let connection = try RawHTTPConnection(port: server.port)
        try connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().status == 200, sourceLocation: sourceLocation)
    }
}
