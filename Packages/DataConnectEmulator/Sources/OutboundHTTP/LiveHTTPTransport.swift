import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a request goes: an `http://` or `https://` URL taken apart.
struct HTTPEndpoint: Hashable, Sendable {
    /// Whether the URL is `https://`: the connection is TLS.
    let secure: Bool
    /// The host name or address, without brackets.
    let host: String
    /// The TCP port (80, or 443 for `https://`, when the URL has none).
    let port: UInt16
    /// The path and query, `/` when the URL has none.
    let target: String

    /// The scheme's port.
    var defaultPort: UInt16 { secure ? 443 : 80 }

    /// The `Host` header's value.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == defaultPort ? name : "\(name):\(port)"
    }

    /// Parses an endpoint URL.
    ///
    /// - Throws: ``OutboundHTTPError/unsupported(_:)`` for anything that is not an `http://` or `https://` URL
    ///   with a host.
    init(parsing uri: String) throws(OutboundHTTPError) {
        let rest: Substring
        if uri.hasPrefix("http://") {
            secure = false
            rest = uri.dropFirst("http://".count)
        } else if uri.hasPrefix("https://") {
            secure = true
            rest = uri.dropFirst("https://".count)
        } else {
            throw .unsupported("the uri is not an http:// or https:// URL")
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var target = String(rest[authorityEnd...])
        if target.isEmpty { target = "/" } else if target.hasPrefix("?") { target = "/" + target }
        var host = Substring(authority)
        var port: UInt16 = secure ? 443 : 80
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw .unsupported("the uri's host is malformed") }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                guard let value = UInt16(after.dropFirst()) else { throw .unsupported("the uri's port is malformed") }
                port = value
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            guard let value = UInt16(host[host.index(after: colon)...]) else {
                throw .unsupported("the uri's port is malformed")
            }
            port = value
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw .unsupported("the uri has no host") }
        guard !host.contains(where: { $0 == "@" || $0 == " " || $0.isNewline }) else {
            throw .unsupported("the uri's host is malformed")
        }
        self.host = String(host)
        self.port = port
        self.target = target
    }
}

/// The live ``HTTPTransport``: a blocking HTTP/1.1 and HTTPS client for calling custom resolvers and other
/// services from request threads.
///
/// One request per connection (`Connection: close`), every wait bounded by the deadline with `poll` (name
/// resolution, connecting, the TLS handshake, writing, reading), the socket closed on every path: a server that
/// never answers costs one thread until the deadline, never a leaked socket or a hang.
///
/// `https://` URLs are served by OpenSSL: TLS 1.2 or later, the server's certificate verified against the
/// system's trust store (on Debian, `/etc/ssl/certs` from `ca-certificates`) and, when given, one more CA file,
/// and its name checked against the URL's host (sent as SNI too).
///
/// ```swift
/// let transport = LiveHTTPTransport()
/// let response = try transport.send(
///     OutboundRequest(url: "http://127.0.0.1:5001/graphql", body: Array(#"{"query":"{ a }"}"#.utf8)),
///     deadline: .now + .seconds(30))
/// ```
public final class LiveHTTPTransport: HTTPTransport {
    /// The largest answer read by default, in bytes.
    public static let defaultMaximumResponseSize = 64 * 1024 * 1024

    /// The largest answer read, in bytes; a larger one fails with ``OutboundHTTPError/broken(_:)``.
    public let maximumResponseSize: Int
    /// A PEM file of CA certificates trusted besides the system's, if any.
    public let additionalCAFile: String?
    /// The TLS settings, made at the first `https://` request and shared by every later one.
    private let tls = Mutex<Result<TLSContext, OutboundHTTPError>?>(nil)

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - additionalCAFile: a PEM file of CA certificates to trust besides the system's (a test CA, a company
    ///     proxy's); `nil` trusts the system's only.
    ///   - maximumResponseSize: the largest answer read, 64 MB by default.
    public init(
        additionalCAFile: String? = nil, maximumResponseSize: Int = LiveHTTPTransport.defaultMaximumResponseSize
    ) {
        self.additionalCAFile = additionalCAFile
        self.maximumResponseSize = maximumResponseSize
    }

    /// Sends a request and reads the answer.
    ///
    /// - Parameters:
    ///   - request: what to send.
    ///   - deadline: when to give up.
    /// - Returns: the answer.
    /// - Throws: ``OutboundHTTPError``: `unsupported` for a URL it cannot call (or a CA file it cannot load),
    ///   `unreachable` when no connection can be made, `timedOut` at the deadline, `broken` for a failed TLS
    ///   handshake (a certificate that does not verify), a broken connection or an answer that is not HTTP.
    public func send(
        _ request: OutboundRequest, deadline: ContinuousClock.Instant
    ) throws(OutboundHTTPError) -> OutboundResponse {
        let endpoint = try HTTPEndpoint(parsing: request.url)
        let head = try Self.head(of: request, endpoint: endpoint)
        let context = endpoint.secure ? try tlsContext() : nil
        let descriptor = try Self.openConnection(endpoint, deadline: deadline)
        defer { close(descriptor) }
        let socket = SocketChannel(descriptor: descriptor)
        guard let context else {
            try socket.write(head + request.body, deadline: deadline)
            return try Self.receiveAnswer(from: socket, limit: maximumResponseSize, deadline: deadline)
        }
        let channel = try TLSChannel(
            context: context, socket: socket, host: endpoint.host, port: endpoint.port, deadline: deadline)
        try channel.write(head + request.body, deadline: deadline)
        return try Self.receiveAnswer(from: channel, limit: maximumResponseSize, deadline: deadline)
    }

    /// The request line and header fields; refuses fields that would break the head.
    static func head(of request: OutboundRequest, endpoint: HTTPEndpoint) throws(OutboundHTTPError) -> [UInt8] {
        func isToken(_ text: String) -> Bool {
            !text.isEmpty && text.utf8.allSatisfy { $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ":") }
        }
        guard isToken(request.method) else { throw .unsupported("the method \"\(request.method)\" is malformed") }
        var head = "\(request.method) \(endpoint.target) HTTP/1.1\r\nHost: \(endpoint.hostHeader)\r\n"
        for (name, value) in request.headers {
            guard isToken(name), !value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
                throw .unsupported("the header field \"\(name)\" is malformed")
            }
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(request.body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8)
    }

    /// The shared TLS settings, made on first use.
    private func tlsContext() throws(OutboundHTTPError) -> TLSContext {
        let result = tls.withLock { cached in
            if let cached { return cached }
            let made = Result { () throws(OutboundHTTPError) in try TLSContext(additionalCAFile: additionalCAFile) }
            cached = made
            return made
        }
        return try result.get()
    }

    /// Milliseconds left until `deadline`, at least 0.
    static func remainingMilliseconds(_ deadline: ContinuousClock.Instant) -> Int32 {
        let left = ContinuousClock.now.duration(to: deadline)
        if left <= .zero { return 0 }
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: milliseconds)
    }

    /// Waits until `descriptor` is ready for `events`, or throws ``OutboundHTTPError/timedOut``.
    static func wait(
        _ descriptor: Int32, for events: Int16, deadline: ContinuousClock.Instant
    ) throws(OutboundHTTPError) {
        while true {
            let timeout = remainingMilliseconds(deadline)
            if timeout == 0 { throw .timedOut }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, timeout)
            if ready > 0 { return }
            if ready == 0 { continue }
            if errno == EINTR { continue }
            throw .broken("poll failed: \(describeErrno())")
        }
    }

    /// A byte count for messages: `64 MB`, `512 KB`, `100 bytes`.
    static func describeSize(_ bytes: Int) -> String {
        if bytes >= 1024 * 1024, bytes % (1024 * 1024) == 0 { return "\(bytes / (1024 * 1024)) MB" }
        if bytes >= 1024, bytes % 1024 == 0 { return "\(bytes / 1024) KB" }
        return "\(bytes) bytes"
    }

    static func describeErrno(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// Opens a connection to the first address of the host that accepts one.
    static func openConnection(
        _ endpoint: HTTPEndpoint, deadline: ContinuousClock.Instant
    ) throws(OutboundHTTPError) -> Int32 {
        let addresses = try HostResolver.resolve(endpoint.host, port: endpoint.port, deadline: deadline)
        var lastError = "no address"
        for address in addresses {
            let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if descriptor < 0 {
                lastError = describeErrno()
                continue
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            let connected = address.bytes.withUnsafeBytes { raw in
                connect(descriptor, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            }
            if connected == 0 { return descriptor }
            guard errno == EINPROGRESS else {
                lastError = describeErrno()
                close(descriptor)
                continue
            }
            do {
                try wait(descriptor, for: Int16(POLLOUT), deadline: deadline)
            } catch {
                close(descriptor)
                throw error
            }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
            if failure == 0 { return descriptor }
            lastError = describeErrno(failure)
            close(descriptor)
        }
        throw .unreachable(lastError)
    }

    /// Reads the answer until its body is complete (or the connection ends), at most `limit` bytes.
    static func receiveAnswer(
        from channel: some ByteChannel, limit: Int, deadline: ContinuousClock.Instant
    ) throws(OutboundHTTPError) -> OutboundResponse {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var parsedHead: (status: Int, headers: [String: String], bodyStart: Int)?
        while true {
            if let head = parsedHead, let body = completeBody(data, head: head, atEnd: false) {
                return OutboundResponse(status: head.status, headers: head.headers, body: body)
            }
            let read = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(OutboundHTTPError) in try channel.read(into: raw, deadline: deadline) }
            }
            let count = try read.get()
            if count == 0 {
                guard let head = parsedHead else {
                    throw .broken("the connection closed before a complete HTTP answer")
                }
                guard let body = completeBody(data, head: head, atEnd: true) else {
                    throw .broken("the connection closed before the whole body arrived")
                }
                return OutboundResponse(status: head.status, headers: head.headers, body: body)
            }
            data += buffer[0..<count]
            if data.count > limit { throw .broken("the answer is larger than \(Self.describeSize(limit))") }
            if parsedHead == nil { parsedHead = try parseHead(data) }
        }
    }

    /// The status line and headers, once the blank line that ends them has arrived.
    static func parseHead(
        _ data: [UInt8]
    ) throws(OutboundHTTPError) -> (status: Int, headers: [String: String], bodyStart: Int)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard data.count >= 4 else { return nil }
        var end: Int?
        for index in 0...(data.count - 4) where Array(data[index..<index + 4]) == separator {
            end = index
            break
        }
        guard let end else {
            if data.count > 64 * 1024 { throw .broken("the answer's headers are too long") }
            return nil
        }
        let lines = String(decoding: data[0..<end], as: UTF8.self).split(
            separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw .broken("the answer is not HTTP/1.1")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingSpaces
        }
        return (status, headers, end + 4)
    }

    /// The body when all of it has arrived (`Content-Length`, chunked, or everything up to the end of the
    /// connection).
    static func completeBody(
        _ data: [UInt8], head: (status: Int, headers: [String: String], bodyStart: Int), atEnd: Bool
    ) -> [UInt8]? {
        let raw = Array(data[head.bodyStart...])
        if head.headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            return dechunk(raw)
        }
        if let length = head.headers["content-length"].flatMap({ Int($0) }) {
            return raw.count >= length ? Array(raw.prefix(length)) : nil
        }
        return atEnd ? raw : nil
    }

    /// A chunked body decoded, or `nil` while its last chunk has not arrived.
    static func dechunk(_ raw: [UInt8]) -> [UInt8]? {
        var body: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = findCRLF(raw, from: index) else { return nil }
            let sizeText = String(decoding: raw[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingSpaces, radix: 16) else { return nil }
            let start = lineEnd + 2
            if size == 0 { return body }
            guard raw.count >= start + size + 2 else { return nil }
            body += raw[start..<start + size]
            index = start + size + 2
        }
    }

    static func findCRLF(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 13 && bytes[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
