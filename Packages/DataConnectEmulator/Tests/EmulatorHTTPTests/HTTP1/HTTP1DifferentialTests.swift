import EmulatorHTTP
import Testing

/// The server's own HTTP/1.1 side against libmicrohttpd's: the same bytes in give the same answers out, byte for byte
/// but the `Date` value, and reach the responder as the same ``HTTPRequest``.
///
/// Left out, where the native side differs on purpose: requests libmicrohttpd answers with its HTML pages (the native
/// side answers JSON, see ``HTTPLayerErrorTests``), a folded header line (libmicrohttpd moves the continuation into the
/// field's name; the native side appends it to the value, RFC 9112 §5.2), and the `Connection` field of a `101`
/// (libmicrohttpd sends `Upgrade, Upgrade`).
@Suite struct HTTP1DifferentialTests {
    /// Bytes sent on one connection, and how many answers they get.
    struct Exchange: Sendable, CustomTestStringConvertible {
        var name: String
        var request: String
        var answers = 1

        var testDescription: String { name }

        init(_ name: String, _ request: String, answers: Int = 1) {
            self.name = name
            self.request = request
            self.answers = answers
        }
    }

    static let exchanges: [Exchange] = [
        Exchange("a GET", "GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("HTTP/1.0", "GET / HTTP/1.0\r\n\r\n"),
        Exchange("HTTP/1.0 with keep-alive", "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"),
        Exchange("Connection: close", "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        Exchange("HTTP/1.2", "GET / HTTP/1.2\r\nHost: x\r\n\r\n"),
        Exchange("a HEAD of a large body", "HEAD /big HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("a large body", "GET /big HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("204", "GET /status/204 HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("304", "GET /status/304 HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("201", "GET /status/201 HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("404", "GET /status/404 HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("an unknown status", "GET /status/599 HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("an empty body", "GET /empty HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("the responder's Date", "GET /date HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("the responder's Connection: close", "GET /close HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("percent escapes in the path", "GET /a%20b/%zz/%4/c+d%2Fe%C3%A9 HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("query parameters", "GET /q?a=1&&b&c=&=z&d=%41+%2B&e=x=y&f=%zz HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("an empty query", "GET /q? HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("a trailing ampersand", "GET /q?a=1& HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("an absolute target", "GET http://x/abs?q=1 HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("an empty line first", "\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange("bare LF line ends", "GET /lf HTTP/1.1\nHost: x\nX-A: b\n\n"),
        Exchange("a lowercase method", "get / HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange(
            "header spellings",
            "GET / HTTP/1.1\r\nHost: x\r\nX-Tab:\tvalue\t\r\nX-Empty:\r\nx-dup: 1\r\nX-Dup: 2\r\nX-Spaces:   a  b  \r\n\r\n"
        ),
        Exchange("a space before the colon", "GET / HTTP/1.1\r\nHost : x\r\n\r\n"),
        Exchange("a body over the limit", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 9999999999\r\n\r\n"),
        Exchange("a target over the limit", "GET /\(String(repeating: "t", count: 9_000)) HTTP/1.1\r\nHost: x\r\n\r\n"),
        Exchange(
            "Transfer-Encoding with Content-Length",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n"),
        Exchange(
            "a transfer coding other than chunked", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n"),
        Exchange(
            "conflicting Content-Length values",
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
        Exchange("a POST", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n\r\n{\"a\":1}"),
        Exchange(
            "a chunked POST with extensions and trailers",
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n0\r\nX-T: v\r\n\r\n"),
        Exchange(
            "Expect: 100-continue with the body sent at once",
            "POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nok"),
        Exchange(
            "pipelined requests",
            "GET /one HTTP/1.1\r\nHost: x\r\n\r\nPOST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nz"
                + "GET /status/204 HTTP/1.1\r\nHost: x\r\n\r\n",
            answers: 3),
    ]

    /// What a server sent back and what its responder saw.
    struct Observed: Equatable {
        var heads: [[String]] = []
        var bodies: [[UInt8]] = []
        var requests: [Seen] = []
    }

    /// An ``HTTPRequest``, compared field by field.
    struct Seen: Equatable {
        var method: String
        var path: String
        var query: [HTTPRequest.QueryItem]
        var headers: HTTPHeaders
        var body: [UInt8]
        var version: String
        var remoteAddress: String?

        init(_ request: HTTPRequest) {
            method = request.method.rawValue
            path = request.path
            query = request.query
            headers = request.headers
            body = request.body
            version = request.version
            remoteAddress = request.remoteAddress
        }
    }

    /// Answers by path: `/status/N` with status N, `/big` with 100 KB, `/empty`, `/date` and `/close` with a field of
    /// the responder's own, `/echo` with the body.
    static func respond(to request: HTTPRequest) -> HTTPResponse {
        if request.path.hasPrefix("/status/"), let code = Int(request.path.dropFirst(8)) {
            return HTTPResponse(status: HTTPStatus(code: code), headers: ["X-Route": "status"], body: Array("s".utf8))
        }
        switch request.path {
        case "/big": return .text(String(repeating: "b", count: 100_000))
        case "/empty": return HTTPResponse()
        case "/date": return .text("dated", headers: ["Date": "Thu, 01 Jan 1970 00:00:00 GMT"])
        case "/close": return .text("closing", headers: ["Connection": "close"])
        case "/echo": return .json(request.body)
        default: return .text("ok")
        }
    }

    static func observe(_ http1: HTTP1Implementation, _ exchange: Exchange) async throws -> Observed {
        let recorder = RequestRecorder()
        return try await withServer(
            http1,
            respond: { request in
                recorder.record(request)
                return respond(to: request)
            }
        ) { server in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send(exchange.request)
            var observed = Observed()
            let isHead = exchange.request.hasPrefix("HEAD ")
            for _ in 0..<exchange.answers {
                var head = try connection.readRawHead()
                while head.first?.hasPrefix("HTTP/1.1 100") == true {
                    observed.heads.append(head)
                    head = try connection.readRawHead()
                }
                let length = head.first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst(15).drop { $0 == " " }) }
                let bodiless = isHead || head.first.map { $0.contains(" 204 ") || $0.contains(" 304 ") } == true
                observed.bodies.append(bodiless ? [] : try connection.readBytes(length ?? 0))
                observed.heads.append(head.filter { !$0.hasPrefix("Date: ") || $0.hasSuffix("1970 00:00:00 GMT") })
            }
            observed.requests = recorder.requests.map(Seen.init)
            return observed
        }
    }

    @Test(arguments: exchanges)
    func bothSidesAnswerAlike(_ exchange: Exchange) async throws {
        // given
        let native = try await Self.observe(.native, exchange)

        // when
        let reference = try await Self.observe(.libmicrohttpd, exchange)

        // then
        #expect(native.heads == reference.heads)
        #expect(native.bodies == reference.bodies)
        #expect(native.requests == reference.requests)
    }
}
