import DataConnectTestSupport
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A TCP server on a free loopback port that answers every connection with scripted bytes, for tests that need
/// control over what goes on the wire: chunked bodies, bodies ended by closing, garbage, silence.
///
/// It reads each request (its head, then `Content-Length` bytes of body), records it, then acts on the script.
final class ScriptedServer: Sendable {
    /// What the server does once it has read a request.
    enum Script: Sendable {
        /// Writes these bytes, then closes the connection.
        case answer([UInt8])
        /// Never answers; the connection stays open until the server stops.
        case silence
        /// Writes these bytes as soon as the connection is accepted, without reading anything (a server that is
        /// not HTTP, or not TLS), then closes the connection.
        case blurt([UInt8])
    }

    /// The requests read so far, as text.
    let received = Mutex<[String]>([])
    /// The port it listens on.
    let port: UInt16
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let held = Mutex<[Int32]>([])
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = Atomic(false)

    /// Starts listening and serving on a thread of its own.
    init(_ script: Script) throws {
        let (listener, port) = try Loopback.listen()
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(listener)
            throw TestServerError("cannot make the wake-up pipe: \(errno)")
        }
        self.listener = listener
        self.port = UInt16(port)
        self.wake = (pipeEnds[0], pipeEnds[1])
        let thread = Thread { [self] in
            serve(script)
            finished.signal()
        }
        thread.start()
    }

    /// Stops accepting, closes held connections, and waits for the serving thread to end (which holds the server
    /// until then). Idempotent.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        finished.wait()
        held.withLock { descriptors in
            for descriptor in descriptors { close(descriptor) }
            descriptors = []
        }
        close(listener)
        close(wake.read)
        close(wake.write)
    }

    private func serve(_ script: Script) {
        while true {
            var entries = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            entries.append(pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0))
            guard poll(&entries, 2, -1) > 0 else { continue }
            if entries[1].revents != 0 { return }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            if case .answer = script {
                let request = readRequest(connection)
                received.withLock { $0.append(request) }
            }
            switch script {
            case .answer(let bytes), .blurt(let bytes):
                var offset = 0
                while offset < bytes.count {
                    let sent = bytes.withUnsafeBytes { raw in
                        send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    }
                    if sent <= 0 { break }
                    offset += sent
                }
                close(connection)
            case .silence:
                let request = readRequest(connection)
                received.withLock { $0.append(request) }
                held.withLock { $0.append(connection) }
            }
        }
    }

    /// The request's head and its `Content-Length` bytes of body, as text.
    private func readRequest(_ connection: Int32) -> String {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let text = String(decoding: data, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound].lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length {
                    return text
                }
            }
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return String(decoding: data, as: UTF8.self) }
            data += buffer[0..<count]
        }
    }
}
