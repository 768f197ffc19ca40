import DataConnectTestSupport
import EmulatorHTTP

/// Why a raw socket operation failed.
enum RawHTTPError: Error, Equatable {
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

/// A blocking HTTP/1.1 client on a loopback connection, for tests that need control over the bytes on the
/// wire: keep-alive, pipelining, chunked uploads, garbage.
final class RawHTTPConnection {
    private let connection: LoopbackConnection
    private let receiveTimeout: Duration
    private var buffer: [UInt8] = []

    /// Connects to `127.0.0.1:port`; each read gives up after `receiveTimeout` (by default the hang guard), and so
    /// do writes the server does not take.
    init(port: UInt16, receiveTimeout: Duration = HangGuard.event) throws(RawHTTPError) {
        do {
            connection = try LoopbackConnection(port: Int(port), sendTimeout: receiveTimeout)
        } catch {
            throw .connect(error.code)
        }
        self.receiveTimeout = receiveTimeout
    }

    func send(_ text: String) throws(RawHTTPError) {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws(RawHTTPError) {
        do {
            try connection.send(bytes)
        } catch {
            throw .send(error.code)
        }
    }

    /// Closes the sending side, as a client does once its request is out.
    func shutdownWrite() {
        connection.shutdownWrite()
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

    /// Reads the status line and header lines of a response as sent, each without its line end, leaving the body
    /// unread.
    func readRawHead() throws(RawHTTPError) -> [String] {
        var lines = [try readLine()]
        while let line = Optional(try readLine()), !line.isEmpty { lines.append(line) }
        return lines
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
        switch connection.receive(until: .now + receiveTimeout) {
        case .bytes(let bytes):
            buffer += bytes
            return true
        case .closed:
            return false
        case .timedOut:
            throw .timedOut
        }
    }
}
