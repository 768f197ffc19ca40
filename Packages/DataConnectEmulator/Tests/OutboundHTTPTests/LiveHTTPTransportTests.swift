import DataConnectTestSupport
import EmulatorHTTP
import Synchronization
import Testing

@testable import OutboundHTTP

/// The live transport over plain HTTP against servers on loopback ports: what goes on the wire, the answer's
/// framings, and every way a call can fail.
@Suite struct LiveHTTPTransportTests {
    // MARK: Requests and answers

    @Test func sendsTheMethodTargetHeadersAndBodyAndReadsTheAnswer() throws {
        // given a server that records the request and answers JSON
        let seen = Mutex<HTTPRequest?>(nil)
        let server = HTTPServer(
            port: 0,
            responder: HTTPClosureResponder { request in
                seen.withLock { $0 = request }
                return .json(#"{"ok":true}"#, status: HTTPStatus(code: 201), headers: ["X-Answer": "yes"])
            })
        try server.start()
        defer { server.stop() }

        // when a POST with a query string, a header and a body is sent
        let response = try LiveHTTPTransport().send(
            OutboundRequest(
                url: "http://127.0.0.1:\(server.port)/v1/embeddings?alt=json",
                headers: [(name: "Authorization", value: "Bearer t0k3n")], body: Array("hello".utf8)),
            deadline: HangGuard.deadline)

        // then the server saw all of it, and the answer's status, lowercased headers and body come back
        let request = try #require(seen.withLock { $0 })
        #expect(request.method == .post)
        #expect(request.path == "/v1/embeddings")
        #expect(request.queryValue("alt") == "json")
        #expect(request.headers["authorization"] == "Bearer t0k3n")
        #expect(request.headers["host"] == "127.0.0.1:\(server.port)")
        #expect(request.body == Array("hello".utf8))
        #expect(response.status == 201)
        #expect(response.headers["x-answer"] == "yes")
        #expect(response.headers["content-type"] == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
    }

    @Test func sendsAGetWithoutABody() throws {
        // given a server that names the method it got
        let server = HTTPServer(port: 0, responder: HTTPClosureResponder { .text($0.method.rawValue) })
        try server.start()
        defer { server.stop() }

        // when a GET is sent
        let response = try LiveHTTPTransport().send(
            OutboundRequest(method: "GET", url: "http://127.0.0.1:\(server.port)/"), deadline: HangGuard.deadline)

        // then
        #expect(String(decoding: response.body, as: UTF8.self) == "GET")
    }

    @Test func decodesAChunkedAnswer() throws {
        // given an answer in three chunks, one with an extension, and a trailer
        let server = try ScriptedServer(
            .answer(
                Array(
                    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n"
                        + "4\r\n{\"a\"\r\n3;ext=1\r\n:12\r\n1\r\n}\r\n0\r\nX-Trailer: 1\r\n\r\n").utf8)))
        defer { server.stop() }

        // when
        let response = try LiveHTTPTransport().send(
            OutboundRequest(url: "http://127.0.0.1:\(server.port)/chunked"), deadline: HangGuard.deadline)

        // then the chunks are joined
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"a":12}"#)
    }

    @Test func readsABodyEndedByClosingTheConnection() throws {
        // given an answer with neither Content-Length nor chunks
        let server = try ScriptedServer(.answer(Array("HTTP/1.0 200 OK\r\n\r\nuntil the end".utf8)))
        defer { server.stop() }

        // when
        let response = try LiveHTTPTransport().send(
            OutboundRequest(url: "http://127.0.0.1:\(server.port)/"), deadline: HangGuard.deadline)

        // then the body is everything up to the close
        #expect(String(decoding: response.body, as: UTF8.self) == "until the end")
        let request = try #require(server.received.withLock { $0 }.first)
        #expect(request.hasPrefix("POST / HTTP/1.1\r\n"))
        #expect(request.contains("\r\nConnection: close\r\n"))
        #expect(request.contains("\r\nContent-Length: 0\r\n"))
    }

    // MARK: Failures

    @Test func aRefusedConnectionIsUnreachable() throws {
        // given a port nothing listens on
        let server = HTTPServer(port: 0, responder: HTTPClosureResponder { _ in .text("") })
        try server.start()
        let port = server.port
        server.stop()

        // when / then
        #expect {
            try LiveHTTPTransport().send(
                OutboundRequest(url: "http://127.0.0.1:\(port)/"), deadline: HangGuard.deadline)
        } throws: { error in
            guard case .unreachable(let reason) = error as? OutboundHTTPError else { return false }
            return reason.contains("refused")
        }
    }

    @Test func anUnknownHostIsUnreachable() {
        #expect {
            try LiveHTTPTransport().send(
                OutboundRequest(url: "http://no-such-host.invalid/"), deadline: HangGuard.deadline)
        } throws: { error in
            guard case .unreachable(let reason) = error as? OutboundHTTPError else { return false }
            return reason.contains("no-such-host.invalid")
        }
    }

    @Test func aServerThatNeverAnswersTimesOutAtTheDeadline() throws {
        // given a server that reads the request and stays silent
        let server = try ScriptedServer(.silence)
        defer { server.stop() }

        // when the deadline is near
        let started = ContinuousClock.now
        #expect(throws: OutboundHTTPError.timedOut) {
            try LiveHTTPTransport().send(
                OutboundRequest(url: "http://127.0.0.1:\(server.port)/"), deadline: .now + .milliseconds(200))
        }

        // then it gave up, well before the hang guard
        #expect(ContinuousClock.now - started < HangGuard.event)
    }

    @Test func aDeadlineAlreadyPassedTimesOutWithoutWaiting() throws {
        let server = try ScriptedServer(.silence)
        defer { server.stop() }
        #expect(throws: OutboundHTTPError.timedOut) {
            try LiveHTTPTransport().send(
                OutboundRequest(url: "http://127.0.0.1:\(server.port)/"), deadline: .now - .seconds(1))
        }
    }

    @Test(arguments: [
        ("SSH-2.0-OpenSSH\r\n\r\n", "not HTTP/1.1"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "before the whole body arrived"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n", "before a complete HTTP answer"),
    ])
    func aMalformedOrCutAnswerIsBroken(answer: String, reason: String) throws {
        // given a server that answers badly
        let server = try ScriptedServer(.answer(Array(answer.utf8)))
        defer { server.stop() }

        // when / then the error says what was wrong
        #expect {
            try LiveHTTPTransport().send(
                OutboundRequest(url: "http://127.0.0.1:\(server.port)/"), deadline: HangGuard.deadline)
        } throws: { error in
            guard case .broken(let text) = error as? OutboundHTTPError else { return false }
            return text.contains(reason)
        }
    }

    @Test func anAnswerLargerThanTheLimitIsBroken() throws {
        // given an answer of 8 KB and a transport that reads at most 4 KB
        let body = String(repeating: "x", count: 8 * 1024)
        let server = try ScriptedServer(
            .answer(Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)))
        defer { server.stop() }

        // when / then
        #expect(throws: OutboundHTTPError.broken("the answer is larger than 4 KB")) {
            try LiveHTTPTransport(maximumResponseSize: 4 * 1024).send(
                OutboundRequest(url: "http://127.0.0.1:\(server.port)/"), deadline: HangGuard.deadline)
        }
    }

    @Test(arguments: ["ftp://example.com/", "example.com/path", "http://", "http://host:port/", "http://[::1/"])
    func aURLThatCannotBeCalledIsUnsupported(url: String) {
        #expect {
            try LiveHTTPTransport().send(OutboundRequest(url: url), deadline: HangGuard.deadline)
        } throws: { error in
            if case .unsupported = error as? OutboundHTTPError { return true }
            return false
        }
    }

    // MARK: URLs

    @Test func takesURLsApart() throws {
        let plain = try HTTPEndpoint(parsing: "http://example.com")
        #expect(plain.host == "example.com" && plain.port == 80 && plain.target == "/")
        #expect(plain.hostHeader == "example.com")
        let query = try HTTPEndpoint(parsing: "http://example.com:8080?x=1")
        #expect(query.port == 8080 && query.target == "/?x=1" && query.hostHeader == "example.com:8080")
        let ipv6 = try HTTPEndpoint(parsing: "http://[::1]:9000/graphql")
        #expect(ipv6.host == "::1" && ipv6.port == 9000 && ipv6.target == "/graphql")
        #expect(ipv6.hostHeader == "[::1]:9000")
    }
}
