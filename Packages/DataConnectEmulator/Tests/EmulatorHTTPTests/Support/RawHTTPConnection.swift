import EmulatorHTTP

#if canImport(Glibc)
import Glibc
#endif

/// Why a raw socket operation failed.
enum RawHTTPError: Error, Equatable {
    case socket(Int32)
    case connect(Int32)
    case send(Int32)
    case closedByPeer
    case timedOut
    case malformedResponse(String)
}

/// A response read off a raw socket.
struct RawHTTPResponse {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
    /// The chunks of a chunked body, in order (empty otherwise).
    var chunks: [[UInt8]]

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking HTTP/1.1 client on a plain TCP socket, for tests that need control over the bytes on the
/// wire: keep-alive, pipelining, chunked uploads, garbage.
final class RawHTTPConnection {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to `127.0.0.1:port`; reads give up after `receiveTimeout` seconds (by default the hang guard), and
    /// so do writes the server does not take.
    init(port: UInt16, receiveTimeout: Int = HangGuard.eventSeconds) throws(RawHTTPError) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw .socket(errno) }
        var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            // The descriptor is closed by deinit, which runs for a class whose initializer throws once every
            // stored property is set; closing it here too could close a descriptor reused meanwhile.
            throw .connect(errno)
        }
    }

    deinit {
        close(descriptor)
    }

    func send(_ text: String) throws(RawHTTPError) {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws(RawHTTPError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw .send(errno)
            }
            offset += sent
        }
    }

    /// Closes the sending side, as a client does once its request is out.
    func shutdownWrite() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Reads one response; a chunked body is de-chunked into `body` and kept piecewise in `chunks`.
    func readResponse() throws(RawHTTPError) -> RawHTTPResponse {
        var response = try readHead()
        if response.headers["Transfer-Encoding"]?.lowercased() == "chunked" {
            while let chunk = try readChunk() {
                response.chunks.append(chunk)
                response.body += chunk
            }
        } else if let length = response.headers["Content-Length"].flatMap({ Int($0) }) {
            response.body = try readBytes(length)
        }
        return response
    }

    /// Reads the status line and headers of a response, leaving the body unread.
    func readHead() throws(RawHTTPError) -> RawHTTPResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw .malformedResponse(statusLine)
        }
        var headers = HTTPHeaders()
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw .malformedResponse(line) }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            headers.add(name: String(line[..<colon]), value: String(value))
        }
        return RawHTTPResponse(status: status, headers: headers, body: [], chunks: [])
    }

    /// Reads the next chunk of a chunked body; `nil` after the last one (and its trailer).
    func readChunk() throws(RawHTTPError) -> [UInt8]? {
        let sizeLine = try readLine()
        guard let sizeText = sizeLine.split(separator: ";").first, let size = Int(sizeText, radix: 16) else {
            throw .malformedResponse(sizeLine)
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let chunk = try readBytes(size)
        _ = try readLine()
        return chunk
    }

    /// Reads until the server closes the connection (or the timeout passes) and returns what arrived.
    func readToEnd() -> [UInt8] {
        while (try? fill()) == true {}
        defer { buffer = [] }
        return buffer
    }

    /// Whether the server has closed the connection: a read returns end-of-file rather than timing out.
    func isClosedByServer() -> Bool {
        do {
            while try fill() {}
            return true
        } catch {
            return error == .closedByPeer
        }
    }

    private func readLine() throws(RawHTTPError) -> String {
        while true {
            if let index = newlineIndex() {
                let line = buffer[..<index]
                buffer.removeFirst(index + 2)
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { throw .closedByPeer }
        }
    }

    private func newlineIndex() -> Int? {
        guard buffer.count >= 2 else { return nil }
        for index in 0..<(buffer.count - 1) where buffer[index] == 13 && buffer[index + 1] == 10 {
            return index
        }
        return nil
    }

    /// Reads exactly `count` bytes (after whatever the header reads left buffered).
    func readBytes(_ count: Int) throws(RawHTTPError) -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw .closedByPeer }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// Reads what is available; `false` at end-of-file.
    private func fill() throws(RawHTTPError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer += chunk[..<count]
                return true
            }
            if count == 0 { return false }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw .timedOut }
            if errno == ECONNRESET { return false }
            throw .closedByPeer
        }
    }
}
