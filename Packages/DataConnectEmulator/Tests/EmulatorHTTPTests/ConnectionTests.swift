import EmulatorHTTP
import Testing

@Suite struct ConnectionTests {
    @Test(arguments: HTTP1Implementation.allCases)
    func keepAliveServesSeveralRequestsOnOneConnection(_ http1: HTTP1Implementation) async throws {
        // given
        let recorder = RequestRecorder()
        try await withServer(http1, respond: echoResponder(recorder: recorder)) { server in
            let connection = try RawHTTPConnection(port: server.port)

            // when
            var bodies: [String] = []
            for index in 0..<5 {
                let body = #"{"n":\#(index)}"#
                try connection.send(
                    "POST /n HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                let response = try connection.readResponse()
                #expect(response.headers["Connection"]?.lowercased() != "close")
                bodies.append(response.text)
            }

            // then
            #expect(bodies == (0..<5).map { #"{"n":\#($0)}"# })
            #expect(recorder.requests.count == 5)
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func pipelinedRequestsAreAnsweredInOrder(_ http1: HTTP1Implementation) async throws {
        // given
        try await withServer(http1, respond: { request in .text(request.path) }) { server in
            let connection = try RawHTTPConnection(port: server.port)

            // when
            try connection.send(
                "GET /one HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /two HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                    + "GET /three HTTP/1.1\r\nHost: x\r\n\r\n")
            let texts = try (0..<3).map { _ in try connection.readResponse().text }

            // then
            #expect(texts == ["/one", "/two", "/three"])
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func concurrentRequestsAreAllAnswered(_ http1: HTTP1Implementation) async throws {
        // given
        try await withServer(http1, respond: { request in .json(request.body) }) { server in
            // when
            let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let (body, response) = try await fetch(
                            port: server.port, "/n", method: "POST", body: Array(#"{"n":\#(index)}"#.utf8))
                        #expect(response.statusCode == 200)
                        return (index, String(decoding: body, as: UTF8.self))
                    }
                }
                var answers: [Int: String] = [:]
                for try await (index, body) in group {
                    answers[index] = body
                }
                return answers
            }

            // then
            #expect(answers.count == 200)
            for index in 0..<200 {
                #expect(answers[index] == #"{"n":\#(index)}"#)
            }
        }
    }

    @Test(arguments: HTTP1Implementation.allCases, MalformedRequest.all)
    func malformedRequestDoesNotStopTheServer(_ http1: HTTP1Implementation, _ malformed: MalformedRequest) async throws
    {
        // given
        try await withServer(http1, respond: { _ in .text("fine") }) { server in
            // when
            let bad = try RawHTTPConnection(port: server.port, receiveTimeout: .seconds(1))
            try? bad.send(malformed.bytes)
            bad.shutdownWrite()
            let reply = String(decoding: bad.readToEnd(), as: UTF8.self)

            // then
            #expect(!reply.contains("fine"))
            let good = try RawHTTPConnection(port: server.port)
            try good.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try good.readResponse().text == "fine")
        }
    }

    @Test(arguments: HTTP1Implementation.allCases)
    func clientDisconnectingMidBodyDoesNotReachTheResponder(_ http1: HTTP1Implementation) async throws {
        // given
        let recorder = RequestRecorder()
        try await withServer(http1, respond: echoResponder(recorder: recorder)) { server in
            // when
            do {
                let connection = try RawHTTPConnection(port: server.port)
                try connection.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly part")
            }
            let good = try RawHTTPConnection(port: server.port)
            try good.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok")
            let response = try good.readResponse()

            // then
            #expect(response.text == "ok")
            #expect(recorder.requests.map(\.body) == [Array("ok".utf8)])
        }
    }
}

/// Bytes that are not a valid HTTP request, named for the test report.
struct MalformedRequest: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: String

    var testDescription: String { name }

    static let all = [
        MalformedRequest(name: "binary garbage", bytes: "\u{0}\u{1}\u{2}garbage\r\n\r\n"),
        MalformedRequest(name: "not HTTP", bytes: "NOT HTTP AT ALL\r\n\r\n"),
        MalformedRequest(name: "unknown version", bytes: "GET / HTTP/9.9\r\nHost: x\r\n\r\n"),
        MalformedRequest(
            name: "non-numeric Content-Length", bytes: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: banana\r\n\r\n"),
        MalformedRequest(
            name: "negative Content-Length", bytes: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n"),
        MalformedRequest(
            name: "bad chunk size",
            bytes: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nnot hex\r\n\r\n"),
        MalformedRequest(
            name: "header without colon", bytes: "GET / HTTP/1.1\r\nBroken header line without colon\r\n\r\n"),
        MalformedRequest(
            name: "100 KB path",
            bytes: "GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"),
        MalformedRequest(
            name: "100 KB header",
            bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 100_000) + "\r\n\r\n"),
        MalformedRequest(name: "headers cut short", bytes: "GET / HTTP/1.1\r\nHost: x\r\n"),
    ]
}
