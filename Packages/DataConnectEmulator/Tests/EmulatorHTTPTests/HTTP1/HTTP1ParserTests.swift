import Testing

@testable import EmulatorHTTP

/// The native HTTP/1.1 side's head scanner, head parser and chunked decoder, fed bytes directly: whatever the pieces
/// the bytes arrive in, the same request comes out, and malformed input gets its refusal.
@Suite struct HTTP1ParserTests {
    static let limits = HTTP1HeadLimits(target: 8 * 1024, header: 80 * 1024, body: 1_000)

    /// Scans `head` as it grows one byte at a time, as a connection's pending bytes do; returns where the scanner
    /// found its end, and the scanner.
    static func scanGrowing(_ head: [UInt8]) -> (end: Int?, scanner: HTTP1HeadScanner) {
        var scanner = HTTP1HeadScanner()
        for count in 1...head.count {
            let end = head.withUnsafeBytes { scanner.scan(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            if let end { return (end, scanner) }
        }
        return (nil, scanner)
    }

    static func parse(_ text: String) throws -> HTTP1Head {
        let bytes = Array(text.utf8)
        var scanner = HTTP1HeadScanner()
        guard let end = bytes.withUnsafeBytes({ scanner.scan($0) }) else {
            throw HTTP1Refusal.malformed("incomplete")
        }
        return try bytes.withUnsafeBytes { bytes in
            try HTTP1Head.parse(bytes, scanner: scanner, end: end, limits: limits)
        }
    }

    @Test(arguments: [
        "GET /a?b=c HTTP/1.1\r\nHost: x\r\nX-Long: \(String(repeating: "v", count: 300))\r\n\r\n",
        "\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.1\nHost: x\n\n",
        "GET / HTTP/1.1\r\n\r\n",
    ])
    func aHeadArrivingByteByByteEndsWhereItEnds(_ text: String) throws {
        // given
        let head = Array(text.utf8)

        // when
        let (end, scanner) = Self.scanGrowing(head + Array("POST /next".utf8))

        // then
        #expect(end == head.count)
        let parsed = try head.withUnsafeBytes { bytes in
            try HTTP1Head.parse(bytes, scanner: scanner, end: head.count, limits: Self.limits)
        }
        #expect(parsed.method == "GET")
        #expect(parsed.version == "HTTP/1.1")
    }

    @Test func headerFieldsKeepTheirSpellingOrderAndTrailingWhitespace() throws {
        // when
        let head = try Self.parse(
            "POST /p HTTP/1.1\r\nHost: x\r\nx-dup: 1\r\nX-Dup:\t2 \r\nX-Fold: a\r\n  b\r\n\tc\r\nHost : y\r\n"
                + "Content-Length: 4\r\nExpect: 100-Continue\r\n\r\n")

        // then
        #expect(
            head.fields.map { "\($0.name)=\($0.value)" } == [
                "Host=x", "x-dup=1", "X-Dup=2 ", "X-Fold=a b c", "Host =y", "Content-Length=4", "Expect=100-Continue",
            ])
        #expect(head.framing == .length(4))
        #expect(head.expectsContinue)
        #expect(head.keepAlive)
    }

    @Test func connectionDefaultsFollowTheVersion() throws {
        #expect(try !Self.parse("GET / HTTP/1.0\r\n\r\n").keepAlive)
        #expect(try Self.parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").confirmsKeepAlive)
        #expect(try !Self.parse("GET / HTTP/1.1\r\nConnection: upgrade, close\r\n\r\n").keepAlive)
        #expect(try !Self.parse("GET / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n").expectsContinue)
    }

    @Test func theTargetIsDecodedAsLibmicrohttpdDoes() {
        // given
        let target = Array("/a%20b/%zz+%4?x=1&&y&=z&p=%41+%2B&e=f=g&".utf8)

        // when
        let (path, query) = target.withUnsafeBytes { HTTP1Head.decodeTarget($0) }

        // then
        #expect(path == "/a b/%zz+%4")
        #expect(
            query == [
                .init(name: "x", value: "1"), .init(name: "", value: nil), .init(name: "y", value: nil),
                .init(name: "", value: "z"), .init(name: "p", value: "A +"), .init(name: "e", value: "f=g"),
            ])
    }

    /// A malformed head and the status of its refusal.
    struct Malformed: Sendable, CustomTestStringConvertible {
        var name: String
        var head: String
        var status: Int
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "garbage", head: "\u{1}\u{2}garbage\r\n\r\n", status: 400),
        Malformed(name: "no target", head: "GET\r\n\r\n", status: 400),
        Malformed(name: "no version", head: "GET /\r\n\r\n", status: 400),
        Malformed(name: "a method that is not a token", head: "G(T / HTTP/1.1\r\n\r\n", status: 400),
        Malformed(name: "HTTP/1.10", head: "GET / HTTP/1.10\r\n\r\n", status: 400),
        Malformed(name: "HTTP/2.0", head: "GET / HTTP/2.0\r\n\r\n", status: 505),
        Malformed(name: "a header line without a colon", head: "GET / HTTP/1.1\r\nno colon\r\n\r\n", status: 400),
        Malformed(name: "a header line without a name", head: "GET / HTTP/1.1\r\n: v\r\n\r\n", status: 400),
        Malformed(name: "a fold with nothing to fold", head: "GET / HTTP/1.1\r\n  x\r\n\r\n", status: 400),
        Malformed(
            name: "Content-Length with chunked",
            head: "POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", status: 400),
        Malformed(
            name: "a negative Content-Length", head: "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", status: 400),
        Malformed(
            name: "a Content-Length past 2^64",
            head: "POST / HTTP/1.1\r\nContent-Length: 184467440737095516160\r\n\r\n", status: 413),
        Malformed(
            name: "a Content-Length over the limit", head: "POST / HTTP/1.1\r\nContent-Length: 1001\r\n\r\n",
            status: 413),
        Malformed(
            name: "a transfer coding other than chunked", head: "POST / HTTP/1.1\r\nTransfer-Encoding: br\r\n\r\n",
            status: 501),
        Malformed(
            name: "a target over the limit", head: "GET /\(String(repeating: "t", count: 8_192)) HTTP/1.1\r\n\r\n",
            status: 414),
    ]

    @Test(arguments: malformed)
    func aMalformedHeadIsRefused(_ malformed: Malformed) {
        #expect(throws: HTTP1Refusal.self) { try Self.parse(malformed.head) }
        do {
            _ = try Self.parse(malformed.head)
        } catch {
            #expect((error as? HTTP1Refusal)?.status.code == malformed.status)
        }
    }

    // MARK: Chunked bodies

    /// Decodes `encoded` fed `piece` bytes at a time; returns the body and the bytes consumed.
    static func decodeChunked(_ encoded: [UInt8], piece: Int) throws -> (body: [UInt8], consumed: Int) {
        var decoder = HTTP1ChunkedDecoder()
        var body: [UInt8] = []
        var offset = 0
        while offset < encoded.count, !decoder.isDone {
            let end = min(encoded.count, offset + piece)
            offset += try encoded.withUnsafeBytes { bytes in
                try decoder.consume(
                    UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), into: &body, bodyLimit: 1_000,
                    trailerLimit: 100)
            }
        }
        return (body, offset)
    }

    @Test(arguments: [1, 2, 5, 1_000])
    func aChunkedBodyArrivingInPiecesIsReassembled(piece: Int) throws {
        // given: extensions, a bare LF, trailers, and the next request behind the body
        let encoded = Array("4;name=value\r\nWiki\r\n5 \r\npedia\n0\r\nExpires: never\r\nX: y\r\n\r\nGET /next".utf8)

        // when
        let (body, consumed) = try Self.decodeChunked(encoded, piece: piece)

        // then
        #expect(String(decoding: body, as: UTF8.self) == "Wikipedia")
        #expect(consumed == encoded.count - "GET /next".utf8.count)
    }

    @Test(arguments: [
        ("zz\r\n", 400), ("4\r\nabcdX\r\n", 400), ("4x\r\n", 400), ("1FFFFFFFFFFFFFFFF\r\n", 413),
        ("0000000000000000003E9\r\n", 413), ("3E8\r\n", 200),
        ("0\r\n\(String(repeating: "T", count: 200))\r\n\r\n", 431),
    ])
    func aBrokenOrOversizedChunkIsRefused(encoded: String, status: Int) {
        var refusal: HTTP1Refusal?
        do {
            _ = try Self.decodeChunked(Array(encoded.utf8), piece: 1)
        } catch {
            refusal = error as? HTTP1Refusal
        }
        #expect((refusal?.status.code ?? 200) == status)
    }
}
