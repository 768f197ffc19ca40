import DataConnectTestSupport
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on a raw socket that answers each connection according to a script.
///
/// It exists to produce what a real server rarely does on demand: a connection closed or reset before any
/// response. Each accepted connection reads one full request, records it and takes the next behaviour.
final class RawHTTPServer: Sendable {
    enum Behavior: Sendable {
        /// Reads the request, then closes the connection without a byte of response.
        case closeWithoutReply
        /// Reads the request, then resets the connection (`SO_LINGER` 0).
        case reset
        /// Answers with a status and a JSON body, then closes.
        case reply(status: Int, body: String)
    }

    private struct State {
        var behaviors: [Behavior]
        var requests: [String] = []
    }

    let port: Int
    private let listener: Int32
    private let state: Mutex<State>

    init(_ behaviors: [Behavior]) throws {
        state = Mutex(State(behaviors: behaviors))
        (listener, port) = try Loopback.listen()
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit {
        stop()
    }

    /// The raw requests received so far (head and body), one per connection.
    var requests: [String] {
        state.withLock { $0.requests }
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 { break }
            let request = Self.readRequest(connection)
            let behavior = state.withLock { state -> Behavior in
                state.requests.append(request)
                return state.behaviors.isEmpty ? .closeWithoutReply : state.behaviors.removeFirst()
            }
            switch behavior {
            case .closeWithoutReply:
                close(connection)
            case .reset:
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                close(connection)
            case .reply(let status, let body):
                let bytes = Array(body.utf8)
                let head =
                    "HTTP/1.1 \(status) Status\r\nContent-Type: application/json\r\nContent-Length: \(bytes.count)\r\n"
                    + "Connection: close\r\n\r\n"
                let reply = Array(head.utf8) + bytes
                _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(connection)
            }
        }
        close(listener)
    }

    private static func readRequest(_ connection: Int32) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator = Array("\r\n\r\n".utf8)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
            guard let headEnd = firstRange(of: separator, in: received) else { continue }
            let head = String(decoding: received[0..<headEnd], as: UTF8.self).lowercased()
            let contentLength =
                head.split(separator: "\r\n")
                .first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if received.count >= headEnd + separator.count + contentLength { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    private static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<start + needle.count]) == needle {
            return start
        }
        return nil
    }
}
