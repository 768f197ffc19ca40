import EmulatorHTTP
import Testing

@Suite struct RequestBodyTests {
    static let limit = 8 * 1024 * 1024
    static let tooLargeJSON =
        #"{"error":{"code":413,"message":"request body exceeds 8388608 bytes","status":"RESOURCE_EXHAUSTED"}}"#

    @Test(arguments: HTTP1Implementation.allCases)
    func bodyOfExactlyTheLimitIsAccepted(_ http1: HTTP1Implementation) async throws {
        // given
        let recorder = RequestRecorder()
        let payload = (0..<Self.limit).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try await withServer(
            http1,
            respond: { request in
                recorder.record(request)
                return .json(#"{"received":\#(request.body.count)}"#)
            }
        ) { server in
            // when
            let (body, response) = try await fetch(port: server.port, "/upload", method: "POST", body: payload)

            // then
            #expect(response.statusCode == 200)
            #expect(String(decoding: body, as: UTF8.self) == #"{"received":8388608}"#)
            #expect(recorder.requests.first?.body == payload)
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func contentLengthOverTheLimitGets413WithoutCallingTheResponder(_ http1: HTTP1Implementation) async throws {
        // given: no idle time-out, so that only the server's own close can end the connection before the hang guard
        let recorder = RequestRecorder()
        let configuration = HTTPServer.Configuration(connectionTimeout: .zero)
        try await withServer(http1, configuration: configuration, respond: echoResponder(recorder: recorder)) {
            server in
            let connection = try RawHTTPConnection(port: server.port)

            // when
            let response = try Self.startOversizedUpload(on: connection)

            // then
            #expect(response.status == 413)
            #expect(response.headers["Content-Type"] == "application/json")
            #expect(response.text == Self.tooLargeJSON)
            #expect(recorder.requests.isEmpty)
            #expect(connection.isClosedByServer())
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func aClientStillSendingARefusedBodyIsNotReset(_ http1: HTTP1Implementation) async throws {
        // given: an upload over the limit, refused once its headers are in
        try await withServer(http1, respond: echoResponder(recorder: RequestRecorder())) { server in
            let connection = try RawHTTPConnection(port: server.port)
            let response = try Self.startOversizedUpload(on: connection)
            #expect(response.status == 413)
            #expect(connection.isClosedByServer())

            // when: the client, having read the answer and the server's end of the connection, sends the rest of its
            // body (as a client that checks for an answer only between writes does)
            let rest = Result { () throws(RawHTTPError) in
                try connection.send([UInt8](repeating: 0x61, count: Self.limit + 1 - 4096))
            }

            // then: the server reads it all rather than resetting the connection
            #expect(throws: Never.self) { try rest.get() }
            connection.shutdownWrite()
            #expect(connection.readToEnd().isEmpty)
        }
    }

    /// Sends the head of an upload one byte over the limit and the body's first 4 KiB; answers the response.
    private static func startOversizedUpload(on connection: RawHTTPConnection) throws -> RawHTTPResponse {
        try connection.send(
            "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(limit + 1)\r\n\r\n")
        try connection.send([UInt8](repeating: 0x61, count: 4096))
        return try connection.readResponse()
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func contentLengthOverTheLimitGets413ThroughURLSession(_ http1: HTTP1Implementation) async throws {
        // given
        let recorder = RequestRecorder()
        try await withServer(http1, respond: echoResponder(recorder: recorder)) { server in
            // when
            let (body, response) = try await fetch(
                port: server.port, "/upload", method: "POST", headers: ["Expect": "100-continue"],
                body: [UInt8](repeating: 0x62, count: Self.limit + 1))

            // then
            #expect(response.statusCode == 413)
            #expect(String(decoding: body, as: UTF8.self) == Self.tooLargeJSON)
            #expect(recorder.requests.isEmpty)
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func chunkedUploadIsReassembled(_ http1: HTTP1Implementation) async throws {
        // given
        let recorder = RequestRecorder()
        try await withServer(http1, respond: echoResponder(recorder: recorder)) { server in
            let connection = try RawHTTPConnection(port: server.port)

            // when
            try connection.send("POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            for piece in [#"{"a":"#, "1,", #""b":[2,3]}"#] {
                try connection.send(String(piece.utf8.count, radix: 16) + "\r\n" + piece + "\r\n")
            }
            try connection.send("0\r\n\r\n")
            let response = try connection.readResponse()

            // then
            #expect(response.status == 200)
            #expect(response.text == #"{"a":1,"b":[2,3]}"#)
            #expect(recorder.requests.first?.headers["transfer-encoding"] == "chunked")
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func chunkedUploadGrowingPastTheLimitGets413WithoutCallingTheResponder(_ http1: HTTP1Implementation) async throws {
        // given
        let recorder = RequestRecorder()
        let configuration = HTTPServer.Configuration(maximumBodySize: 1000)
        try await withServer(http1, configuration: configuration, respond: echoResponder(recorder: recorder)) {
            server in
            let connection = try RawHTTPConnection(port: server.port)

            // when
            try connection.send("POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            for _ in 0..<3 {
                try connection.send("258\r\n" + String(repeating: "z", count: 600) + "\r\n")
            }
            try connection.send("0\r\n\r\n")
            let response = try connection.readResponse()

            // then
            #expect(response.status == 413)
            let expected =
                #"{"error":{"code":413,"message":"request body exceeds 1000 bytes","#
                + #""status":"RESOURCE_EXHAUSTED"}}"#
            #expect(response.text == expected)
            #expect(recorder.requests.isEmpty)
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func emptyPostReachesTheResponder(_ http1: HTTP1Implementation) async throws {
        // given
        let recorder = RequestRecorder()
        try await withServer(http1, respond: echoResponder(recorder: recorder)) { server in
            let connection = try RawHTTPConnection(port: server.port)

            // when
            try connection.send("POST /emulator/clear HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
            let response = try connection.readResponse()

            // then
            #expect(response.status == 200)
            #expect(recorder.requests.first?.method == .post)
            #expect(recorder.requests.first?.body == [])
        }
    }
}
