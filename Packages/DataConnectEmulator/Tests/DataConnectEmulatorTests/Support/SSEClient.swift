import DataConnectWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A server-sent-events client on a raw blocking socket, for realtime tests.
///
/// Sends one `POST`, reads the status and headers, then decodes the chunked body into events: `data:`
/// lines (parsed as JSON) and comment lines (`: ping`).
final class SSEClient {
    /// One server-sent event.
    enum Event: Equatable {
        case data(JSONValue)
        case comment(String)
    }

    private(set) var status = 0
    private(set) var headers: [String: String] = [:]
    private(set) var errorBody: JSONValue = .null
    private var fd: Int32 = -1
    private var raw: [UInt8] = []
    private var decoded: [UInt8] = []
    private var chunked = false

    /// Connects and sends the request; returns once the status line and headers arrived (or throws, after the
    /// hang guard).
    init(port: UInt16, path: String, body: JSONValue, headers extra: [String: String] = [:]) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        guard fd >= 0 else { throw SSEError("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close()
            throw SSEError("connect failed: errno \(errno)")
        }
        let payload = body.serialized()
        var request = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        request += "Accept: text/event-stream\r\nContent-Length: \(payload.count)\r\n"
        for (name, value) in extra { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8) + payload
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        // Status line and headers.
        let deadline = ContinuousClock.now + HangGuard.event
        var headerEnd: Int?
        while headerEnd == nil {
            guard Self.fill(fd, into: &raw, until: deadline) else { throw SSEError("no response headers") }
            headerEnd = Self.find([13, 10, 13, 10], in: raw)
        }
        let head = String(decoding: raw[..<headerEnd!], as: UTF8.self)
        raw.removeFirst(headerEnd! + 4)
        let lines = head.components(separatedBy: "\r\n")
        status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var parsed: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            parsed[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        headers = parsed
        chunked = parsed["transfer-encoding"]?.lowercased() == "chunked"
        if !chunked, let length = Int(parsed["content-length"] ?? "") {
            while raw.count < length, Self.fill(fd, into: &raw, until: deadline) {}
            errorBody = (try? JSONValue(parsing: Array(raw.prefix(length)))) ?? .null
        }
    }

    deinit { close() }

    /// Closes the connection (the client's way of cancelling).
    func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    /// The next event, or `nil` when none arrives within `timeout` or the stream ended.
    ///
    /// The default is the hang guard; a test expecting nothing passes a short pause instead.
    func next(timeout: Duration = HangGuard.event) -> Event? {
        let deadline = ContinuousClock.now + timeout
        while true {
            decodeChunks()
            if let end = Self.find([10, 10], in: decoded) {
                let text = String(decoding: decoded[..<end], as: UTF8.self)
                decoded.removeFirst(end + 2)
                if text.hasPrefix("data: ") {
                    return .data((try? JSONValue(parsing: Array(text.dropFirst(6).utf8))) ?? .null)
                }
                if text.hasPrefix(":") {
                    return .comment(String(text.dropFirst()).trimmingCharacters(in: .whitespaces))
                }
                continue
            }
            guard fd >= 0, Self.fill(fd, into: &raw, until: deadline) else { return nil }
        }
    }

    /// The next `data:` event, skipping comments; `nil` on timeout or end.
    ///
    /// The default is the hang guard; a test expecting nothing passes a short pause instead.
    func nextData(timeout: Duration = HangGuard.event) -> JSONValue? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero, let event = next(timeout: left) else { return nil }
            if case .data(let value) = event { return value }
        }
    }

    /// Whether the server ended the stream (end of the chunked body or connection closed) before the hang guard.
    func ended(within timeout: Duration = HangGuard.event) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            decodeChunks()
            if finished { return true }
            var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pollfd, 1, 50) >= 0 else { return true }
            if pollfd.revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { return true }
                raw += buffer[..<count]
            }
        }
        return false
    }

    private var finished = false

    private func decodeChunks() {
        guard chunked else {
            decoded += raw
            raw = []
            return
        }
        while let lineEnd = Self.find([13, 10], in: raw) {
            let sizeText = String(decoding: raw[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return }
            if size == 0 {
                finished = true
                return
            }
            guard raw.count >= lineEnd + 2 + size + 2 else { return }
            decoded += raw[(lineEnd + 2)..<(lineEnd + 2 + size)]
            raw.removeFirst(lineEnd + 2 + size + 2)
        }
    }

    /// Reads what is available before the deadline; `false` on timeout, error or end of stream.
    private static func fill(_ fd: Int32, into buffer: inout [UInt8], until deadline: ContinuousClock.Instant) -> Bool {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return false }
        let milliseconds = Int32(left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000)
        var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pollfd, 1, max(1, milliseconds)) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return start }
        }
        return nil
    }
}

struct SSEError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
