#if canImport(Glibc)
import Glibc
#endif

/// The head of one HTTP/1.1 request, parsed by the server's own HTTP/1.1 side: the request line, the header fields,
/// and what they say about the body and the connection.
struct HTTP1Head {
    /// How the request's body is delimited (RFC 9112 §6).
    enum Framing: Equatable {
        /// No body.
        case none
        /// A body of this many bytes (`Content-Length`).
        case length(Int)
        /// A chunked body (`Transfer-Encoding: chunked`).
        case chunked
    }

    var method: String
    /// The percent-decoded path, without the query string.
    var path: String
    var query: [HTTPRequest.QueryItem]
    /// The protocol version as sent (`HTTP/1.1`).
    var version: String
    var fields: [HTTPHeaders.Field]
    var framing: Framing
    /// Whether the connection stays open after the answer: HTTP/1.1 unless `Connection: close`, HTTP/1.0 only with
    /// `Connection: keep-alive`.
    var keepAlive: Bool
    /// Whether an HTTP/1.0 client asked for keep-alive, which the answer then confirms (`Connection: Keep-Alive`).
    var confirmsKeepAlive: Bool
    /// Whether the client waits for `100 Continue` before it sends the body.
    var expectsContinue: Bool

    /// Whether the request is a `HEAD`: the answer carries the headers of the body, not the body.
    var isHead: Bool { method == "HEAD" }
}

/// An answer the server gives itself, without calling the responder: a request over the limits, badly framed, or
/// unparsable. The connection closes after it.
struct HTTP1Refusal: Error, Equatable {
    var status: HTTPStatus
    var message: String
    var code: String

    init(_ status: HTTPStatus, _ message: String, _ code: String = "INVALID_ARGUMENT") {
        self.status = status
        self.message = message
        self.code = code
    }

    /// The JSON error answer.
    var response: HTTPResponse { ServerCore.errorResponse(status, message, code) }

    static func malformed(_ message: String) -> HTTP1Refusal {
        HTTP1Refusal(.badRequest, message)
    }

    static func bodyTooLarge(limit: Int) -> HTTP1Refusal {
        HTTP1Refusal(.contentTooLarge, "request body exceeds \(limit) bytes", "RESOURCE_EXHAUSTED")
    }

    static func targetTooLong(limit: Int) -> HTTP1Refusal {
        HTTP1Refusal(.uriTooLong, "request target (path and query) exceeds \(limit) bytes", "RESOURCE_EXHAUSTED")
    }

    static func headerTooLarge(limit: Int, received: Int) -> HTTP1Refusal {
        HTTP1Refusal(
            .requestHeaderFieldsTooLarge, "request header fields exceed \(limit) bytes (\(received) received)",
            "RESOURCE_EXHAUSTED")
    }
}

/// Finds the end of a request head in bytes that arrive in pieces, looking at each byte once.
///
/// Lines end with CRLF or a bare LF; empty lines before the request line are skipped (RFC 9112 §2.2). Offsets count
/// from the start of the buffer the head accumulates in.
struct HTTP1HeadScanner {
    /// Bytes looked at so far.
    private(set) var scanned = 0
    private var lineStart = 0
    /// Where the request line starts, after any empty lines.
    private(set) var requestLineStart = 0
    /// Where the request line ends (its CR or LF), once seen.
    private(set) var requestLineEnd: Int?
    /// Where the first header line starts (after the request line's LF), once seen.
    private(set) var fieldsStart = 0

    /// Looks at the bytes not yet scanned; returns the head's length (up to and including the empty line's LF) once
    /// it is complete.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        while scanned < bytes.count {
            guard let found = memchr(base + scanned, 0x0A, bytes.count - scanned) else {
                scanned = bytes.count
                return nil
            }
            let newline = base.distance(to: UnsafeRawPointer(found))
            var lineEnd = newline
            if lineEnd > lineStart && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            scanned = newline + 1
            if lineEnd == lineStart {
                if requestLineEnd != nil { return scanned }
                requestLineStart = scanned
            } else if requestLineEnd == nil {
                requestLineEnd = lineEnd
                fieldsStart = scanned
            }
            lineStart = scanned
        }
        return nil
    }

    /// The length of the request target seen so far, while the request line is incomplete: what follows the method
    /// and its spaces, up to a space or the end.
    func partialTargetLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        var index = requestLineStart
        while index < bytes.count, bytes[index] != 0x20 { index += 1 }
        while index < bytes.count, bytes[index] == 0x20 { index += 1 }
        let start = index
        while index < bytes.count, bytes[index] != 0x20, bytes[index] != 0x0D, bytes[index] != 0x0A { index += 1 }
        return index - start
    }
}

/// The limits a head is checked against, in bytes.
struct HTTP1HeadLimits {
    var target: Int
    var header: Int
    var body: Int
}

extension HTTP1Head {
    /// Parses a complete head: `bytes` holds it from offset 0 to `end` (the scanner's answer).
    ///
    /// The checks, in the order the libmicrohttpd side makes them: a malformed request line (400), a request target
    /// over the limit (414), an HTTP major version other than 1 (505), the header section's size (431), malformed
    /// header lines (400), then the framing: `Transfer-Encoding` with `Content-Length` (400), a transfer coding other
    /// than `chunked` (501), differing `Content-Length` values (400), a `Content-Length` that is not a number (400)
    /// or over the body limit (413).
    static func parse(
        _ bytes: UnsafeRawBufferPointer, scanner: HTTP1HeadScanner, end: Int, limits: HTTP1HeadLimits
    ) throws(HTTP1Refusal) -> HTTP1Head {
        guard let lineEnd = scanner.requestLineEnd else { throw .malformed("the request has no request line") }
        let line = RequestLine(bytes, from: scanner.requestLineStart, to: lineEnd)
        guard let method = line.method, let target = line.target else {
            throw .malformed("malformed request line: expected METHOD TARGET HTTP/1.1")
        }
        guard target.count <= limits.target else { throw .targetTooLong(limit: limits.target) }
        guard let version = line.version else {
            throw .malformed("malformed request line: the HTTP version is missing")
        }
        let minor = try versionMinor(UnsafeRawBufferPointer(rebasing: bytes[version]))
        let size = end - scanner.requestLineStart
        guard size <= limits.header else { throw .headerTooLarge(limit: limits.header, received: size) }

        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(12)
        var framing = FramingFields()
        try parseFields(bytes, from: scanner.fieldsStart, to: end, into: &fields, framing: &framing)
        let (path, query) = decodeTarget(UnsafeRawBufferPointer(rebasing: bytes[target]))
        let keepAliveAsked = framing.connectionTokens.contains("keep-alive")
        let closeAsked = framing.connectionTokens.contains("close")
        return HTTP1Head(
            method: string(bytes, method), path: path, query: query, version: string(bytes, version),
            fields: fields, framing: try framing.decide(bodyLimit: limits.body),
            keepAlive: !closeAsked && (minor >= 1 || keepAliveAsked),
            confirmsKeepAlive: minor == 0 && keepAliveAsked && !closeAsked,
            expectsContinue: minor >= 1 && framing.expectsContinue)
    }

    /// The request line split at its spaces: method, target, version (ranges of the buffer).
    private struct RequestLine {
        var method: Range<Int>?
        var target: Range<Int>?
        var version: Range<Int>?

        init(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) {
            var index = HTTP1Head.index(of: 0x20, in: bytes, from: start, to: end)
            guard index > start, index < end, (start..<index).allSatisfy({ HTTP1Head.isTokenByte(bytes[$0]) })
            else { return }
            method = start..<index
            while index < end, bytes[index] == 0x20 { index += 1 }
            let targetStart = index
            index = HTTP1Head.index(of: 0x20, in: bytes, from: index, to: end)
            guard index > targetStart else { return }
            target = targetStart..<index
            while index < end, bytes[index] == 0x20 { index += 1 }
            var versionEnd = end
            while versionEnd > index, bytes[versionEnd - 1] == 0x20 || bytes[versionEnd - 1] == 0x09 { versionEnd -= 1 }
            if versionEnd > index { version = index..<versionEnd }
        }
    }

    /// The minor version of `HTTP/1.x`; 505 for another major version, 400 for anything else.
    private static func versionMinor(_ version: UnsafeRawBufferPointer) throws(HTTP1Refusal) -> Int {
        let prefix: [UInt8] = Array("HTTP/".utf8)
        guard version.count == 8, (0..<5).allSatisfy({ version[$0] == prefix[$0] }), isDigit(version[5]),
            version[6] == UInt8(ascii: "."), isDigit(version[7])
        else {
            throw .malformed("malformed HTTP version \"\(String(decoding: version, as: UTF8.self))\"")
        }
        guard version[5] == UInt8(ascii: "1") else {
            let text = String(decoding: version, as: UTF8.self)
            throw HTTP1Refusal(
                HTTPStatus(code: 505), "HTTP version \"\(text)\" is not supported; send HTTP/1.1", "UNIMPLEMENTED")
        }
        return Int(version[7] - UInt8(ascii: "0"))
    }

    /// What the header fields say about the body and the connection, gathered while they are parsed.
    private struct FramingFields {
        var contentLengths: [String] = []
        var transferEncodings: [String] = []
        var connectionTokens: Set<String> = []
        var expectsContinue = false

        func decide(bodyLimit: Int) throws(HTTP1Refusal) -> Framing {
            if !transferEncodings.isEmpty {
                guard contentLengths.isEmpty else {
                    throw .malformed("a request may not carry both Transfer-Encoding and Content-Length")
                }
                for coding in transferEncodings where coding.lowercased() != "chunked" {
                    throw HTTP1Refusal(
                        .notImplemented,
                        "Transfer-Encoding \"\(coding)\" is not supported; send Content-Length or chunked",
                        "UNIMPLEMENTED")
                }
                return .chunked
            }
            guard let first = contentLengths.first else { return .none }
            if contentLengths.contains(where: { $0 != first }) {
                throw .malformed("conflicting Content-Length values: \(contentLengths.joined(separator: ", "))")
            }
            guard let length = HTTP1Head.contentLength(first) else {
                throw .malformed("Content-Length \"\(first)\" is not a decimal number")
            }
            guard length <= bodyLimit else { throw .bodyTooLarge(limit: bodyLimit) }
            return length > 0 ? .length(length) : .none
        }
    }

    /// A `Content-Length` value: decimal digits only; `Int.max` when too large; `nil` when not a number.
    static func contentLength(_ text: String) -> Int? {
        var value = 0
        var sawDigit = false
        for byte in text.utf8 {
            guard isDigit(byte) else { return nil }
            sawDigit = true
            let digit = Int(byte - UInt8(ascii: "0"))
            if value > (Int.max - digit) / 10 {
                value = Int.max
            } else if value != Int.max {
                value = value * 10 + digit
            }
        }
        return sawDigit ? value : nil
    }

    /// Parses the header lines in `start..<end` (the last one the empty line that ends the head).
    private static func parseFields(
        _ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, into fields: inout [HTTPHeaders.Field],
        framing: inout FramingFields
    ) throws(HTTP1Refusal) {
        var lineStart = start
        while lineStart < end {
            let newline = index(of: 0x0A, in: bytes, from: lineStart, to: end)
            var lineEnd = newline
            if lineEnd > lineStart && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            defer { lineStart = newline + 1 }
            if lineEnd == lineStart { break }
            if bytes[lineStart] == 0x20 || bytes[lineStart] == 0x09 {
                // An obsolete line folding (RFC 9112 §5.2): the value goes on, after a space.
                guard !fields.isEmpty else { throw .malformed("the first header line starts with whitespace") }
                let value = trimmed(bytes, lineStart..<lineEnd)
                if !value.isEmpty { fields[fields.count - 1].value += " " + string(bytes, value) }
                continue
            }
            let colon = index(of: UInt8(ascii: ":"), in: bytes, from: lineStart, to: lineEnd)
            guard colon < lineEnd else { throw .malformed("a header line has no colon") }
            // The name as sent, up to the colon (whitespace before the colon stays in it, as libmicrohttpd keeps it).
            let nameEnd = colon
            guard nameEnd > lineStart else { throw .malformed("a header line has no field name") }
            let name = lineStart..<nameEnd
            // Leading whitespace only, as libmicrohttpd: trailing whitespace stays in the value.
            var valueStart = colon + 1
            while valueStart < lineEnd, bytes[valueStart] == 0x20 || bytes[valueStart] == 0x09 { valueStart += 1 }
            let value = valueStart..<lineEnd
            let field = HTTPHeaders.Field(name: string(bytes, name), value: string(bytes, value))
            switch nameEnd - lineStart {
            case 14 where equalsIgnoringCase(bytes, name, "content-length"):
                framing.contentLengths.append(field.value)
            case 17 where equalsIgnoringCase(bytes, name, "transfer-encoding"):
                framing.transferEncodings.append(field.value)
            case 10 where equalsIgnoringCase(bytes, name, "connection"):
                for token in field.value.split(separator: ",") {
                    framing.connectionTokens.insert(trimmingSpaces(token).lowercased())
                }
            case 6 where equalsIgnoringCase(bytes, name, "expect"):
                framing.expectsContinue = field.value.lowercased() == "100-continue"
            default:
                break
            }
            fields.append(field)
        }
    }

    // MARK: The request target

    /// Splits the target at its first `?` and decodes both parts as libmicrohttpd does: `%XX` escapes in the path;
    /// in the query, `&`-separated parameters, `+` as a space, then `%XX` escapes (a parameter without `=` has a `nil`
    /// value; a malformed escape stays as it is).
    static func decodeTarget(_ target: UnsafeRawBufferPointer) -> (path: String, query: [HTTPRequest.QueryItem]) {
        let questionAt = index(of: UInt8(ascii: "?"), in: target, from: 0, to: target.count)
        guard questionAt < target.count else {
            return (percentDecoded(target[...], plusIsSpace: false), [])
        }
        let question = target.startIndex + questionAt
        let path = percentDecoded(target[..<question], plusIsSpace: false)
        var query: [HTTPRequest.QueryItem] = []
        var rest = target[(question + 1)...]
        while !rest.isEmpty {
            let ampersand = rest.firstIndex(of: UInt8(ascii: "&"))
            let segment = ampersand.map { rest[..<$0] } ?? rest
            if let equals = segment.firstIndex(of: UInt8(ascii: "=")) {
                query.append(
                    HTTPRequest.QueryItem(
                        name: percentDecoded(segment[..<equals], plusIsSpace: true),
                        value: percentDecoded(segment[(equals + 1)...], plusIsSpace: true)))
            } else {
                query.append(HTTPRequest.QueryItem(name: percentDecoded(segment, plusIsSpace: true), value: nil))
            }
            guard let ampersand else { break }
            rest = rest[(ampersand + 1)...]
        }
        return (path, query)
    }

    private static func percentDecoded(_ bytes: Slice<UnsafeRawBufferPointer>, plusIsSpace: Bool) -> String {
        let raw = UnsafeRawBufferPointer(rebasing: bytes)
        guard let start = raw.baseAddress, !raw.isEmpty else { return "" }
        // `memchr` reads many bytes at a time: most targets hold no escape.
        let needsWork =
            memchr(start, Int32(UInt8(ascii: "%")), raw.count) != nil
            || (plusIsSpace && memchr(start, Int32(UInt8(ascii: "+")), raw.count) != nil)
        guard needsWork else { return String(decoding: raw, as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
                continue
            }
            decoded.append(plusIsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
            index += 1
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    // MARK: Bytes

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// A `tchar` of RFC 9110 §5.6.2: what method and field name tokens are made of.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// The index of the first `byte` in `bytes[from..<to]`, or `to`: found by `memchr`, many bytes at a time.
    @inline(__always)
    static func index(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        guard start < end, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(byte), end - start)
        else { return end }
        return UnsafeRawPointer(found) - base
    }

    private static func trimmed(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    private static func trimmingSpaces(_ text: Substring) -> Substring {
        var text = text
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }

    private static func string(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Whether `bytes[range]` spells `lowercase` in any case.
    private static func equalsIgnoringCase(
        _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ lowercase: StaticString
    ) -> Bool {
        let expected = UnsafeRawBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        guard expected.count == range.count else { return false }
        for offset in 0..<expected.count {
            let byte = bytes[range.lowerBound + offset]
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            if lowered != expected[offset] { return false }
        }
        return true
    }
}
