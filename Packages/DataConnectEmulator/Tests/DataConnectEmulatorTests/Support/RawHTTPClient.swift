import DataConnectWire

#if canImport(Glibc)
import Glibc
#endif

/// One response read off a raw socket: what a browser or a hand-written client would see, with the request's
/// headers exactly as written (URLSession sets `Host` and others itself).
struct RawHTTPResult: CustomStringConvertible {
    /// The HTTP status code.
    var status: Int
    /// The header fields, names lowercased (the last of repeated fields wins).
    var headers: [String: String]
    /// The body as sent (a `Content-Length` body; whatever arrived otherwise).
    var body: [UInt8]

    /// The body parsed as JSON (`null` when it is not JSON).
    var json: JSONValue { (try? JSONValue(parsing: body)) ?? .null }
    /// `error.status` of a request-level error body.
    var errorStatus: String? { json["error"]?["status"]?.stringValue }
    /// `error.message` of a request-level error body.
    var errorMessage: String { json["error"]?["message"]?.stringValue ?? "" }
    /// Whether the body is the JSON error envelope `{"error":{"code":status,"message","status"}}`.
    var isErrorEnvelope: Bool {
        headers["content-type"] == "application/json" && json["error"]?["code"]?.intValue == status
            && errorStatus != nil && !errorMessage.isEmpty
    }

    var description: String { "HTTP \(status) \(headers): \(String(decoding: body.prefix(1_000), as: UTF8.self))" }
}

/// Why a raw exchange failed.
struct RawHTTPFailure: Error, CustomStringConvertible {
    var description: String
}

/// Sends `request` (bytes as they go on the wire) on a new connection to `127.0.0.1:port` and reads one
/// response.
///
/// The reader stops at the end of a `Content-Length` body or when the server closes the connection; a read
/// that waits longer than `hangGuard` fails the exchange instead of hanging the test. Errors while sending are
/// ignored: a server that refuses a request may close the connection before it has all been sent, and its
/// answer is still there to read.
func rawExchange(
    port: UInt16, _ request: [UInt8], hangGuard: Int = Int(HangGuard.event.components.seconds)
) throws -> RawHTTPResult {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw RawHTTPFailure(description: "socket failed: errno \(errno)") }
    defer { close(descriptor) }
    var timeout = timeval(tv_sec: hangGuard, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { throw RawHTTPFailure(description: "connect failed: errno \(errno)") }
    var offset = 0
    while offset < request.count {
        let sent = request.withUnsafeBytes { raw in
            send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        }
        if sent < 0 {
            if errno == EINTR { continue }
            break
        }
        offset += sent
    }
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        if let result = parse(received) { return result }
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            received += chunk[..<count]
            continue
        }
        if count < 0 && errno == EINTR { continue }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
            throw RawHTTPFailure(description: "no complete response within \(hangGuard) s")
        }
        // End of file (or a reset after the answer): whatever arrived is the response.
        guard let head = headEnd(received) else {
            throw RawHTTPFailure(description: "the connection closed after \(received.count) bytes, with no response")
        }
        var result = try parseHead(Array(received[..<head]))
        result.body = Array(received[(head + 4)...])
        return result
    }
}

/// A request as text, sent as UTF-8.
func rawExchange(port: UInt16, _ request: String) throws -> RawHTTPResult {
    try rawExchange(port: port, Array(request.utf8))
}

/// A complete `Content-Length` response in `bytes`, or `nil` while more is needed.
private func parse(_ bytes: [UInt8]) -> RawHTTPResult? {
    guard let head = headEnd(bytes), var result = try? parseHead(Array(bytes[..<head])),
        let length = result.headers["content-length"].flatMap({ Int($0) }), bytes.count >= head + 4 + length
    else { return nil }
    result.body = Array(bytes[(head + 4)..<(head + 4 + length)])
    return result
}

private func headEnd(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for index in 0...(bytes.count - 4)
    where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
        return index
    }
    return nil
}

private func parseHead(_ bytes: [UInt8]) throws -> RawHTTPResult {
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
    let statusParts = lines.first?.split(separator: " ") ?? []
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
        throw RawHTTPFailure(description: "bad status line: \(lines.first ?? "")")
    }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        let value = line[line.index(after: colon)...].drop { $0 == " " }
        headers[line[..<colon].lowercased()] = String(value)
    }
    return RawHTTPResult(status: status, headers: headers, body: [])
}
