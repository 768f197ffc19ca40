import DataConnectTestSupport
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 (port chosen by the kernel) that records every request and answers it
/// with a handler; one thread per connection, `Connection: close`.
///
/// `FirebaseAuth` talks real HTTP (URLSession, libcurl) to it.
final class StandInServer: Sendable {
    /// One request as received.
    struct Request: Sendable, Equatable {
        var method: String
        /// The path and the query, e.g. `/v1/accounts:signUp?key=k`.
        var target: String
        /// Header fields, by lowercased name.
        var headers: [String: String]
        var body: Data

        /// The body's JSON, re-serialized with sorted keys.
        var canonicalBody: String { canonicalJSON(body) }
    }

    typealias Handler = @Sendable (Request) -> (status: Int, body: Data)

    /// The port the server listens on.
    let port: Int
    private let socketDescriptor: Int32
    private let handler: Handler
    private let recorded = Mutex<[Request]>([])
    private let stopped = Mutex(false)

    init(handler: @escaping Handler) throws {
        self.handler = handler
        let (descriptor, port) = try Loopback.listen(backlog: 64)
        self.port = port
        socketDescriptor = descriptor
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:<port>`.
    var origin: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// `127.0.0.1:<port>`, for `useEmulator`.
    var hostAndPort: String { "127.0.0.1:\(port)" }

    /// Every request so far, in arrival order.
    var requests: [Request] { recorded.withLock { $0 } }

    /// Forgets the requests recorded so far.
    func clearRequests() {
        recorded.withLock { $0.removeAll() }
    }

    /// Stops accepting connections; later calls do nothing.
    ///
    /// Only `shutdown` here: the accept loop closes the descriptor once `accept` fails, so the number cannot be
    /// reused by another test's socket while this loop might still call `accept` on it.
    func stop() {
        let wasStopped = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        shutdown(socketDescriptor, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        while true {
            let connection = accept(socketDescriptor, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                close(socketDescriptor)
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        func readMore() -> Bool {
            let count = read(connection, &chunk, chunk.count)
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        let separator = Data("\r\n\r\n".utf8)
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            guard readMore() else { return }
            headerEnd = buffer.range(of: separator)
        }
        guard let headerEnd, let head = String(data: buffer[..<headerEnd.lowerBound], encoding: .utf8) else { return }
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count >= 2 else { return }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" {
            write(connection, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count - headerEnd.upperBound < length {
            guard readMore() else { break }
        }
        let body = Data(buffer[headerEnd.upperBound...].prefix(length))
        let request = Request(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
        recorded.withLock { $0.append(request) }
        let (status, answer) = handler(request)
        let head2 =
            "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(answer.count)\r\nConnection: close\r\n\r\n"
        write(connection, Array(head2.utf8) + Array(answer))
    }

    private func write(_ connection: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(connection, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }
}

/// `data`'s JSON re-serialized with sorted keys, or its text when it is not JSON.
func canonicalJSON(_ data: Data) -> String {
    guard
        let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
        let sorted = try? JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
    else { return String(decoding: data, as: UTF8.self) }
    return String(decoding: sorted, as: UTF8.self)
}

/// `text`'s JSON re-serialized with sorted keys.
func canonicalJSON(_ text: String) -> String {
    canonicalJSON(Data(text.utf8))
}
