import DataConnectEncoding
import DataConnectTestSupport
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A minimal RFC 6455 server on a raw POSIX socket; each accepted connection runs the next script on its own thread.
///
/// It exists to prove the libwebsockets client without the emulator, and to produce what a real server rarely
/// does on demand: fragmented messages, pings, a silent peer, a refused upgrade. Scripts read and write frames
/// through a ``WebSocketPeer``; what they throw is recorded in ``failures``.
final class ScriptedWebSocketServer: Sendable {
    typealias Script = @Sendable (WebSocketPeer) throws -> Void

    private struct State {
        var scripts: [Script]
        var failures: [String] = []
        var finishedScripts = 0
    }

    let port: Int
    private let listener: Int32
    private let state: Mutex<State>

    init(_ scripts: [Script]) throws {
        state = Mutex(State(scripts: scripts))
        (listener, port) = try Loopback.listen()
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// What the scripts threw, one line each.
    var failures: [String] {
        state.withLock { $0.failures }
    }

    /// How many scripts ran to their end (returned or threw).
    var finishedScripts: Int {
        state.withLock { $0.finishedScripts }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 { break }
            let script = state.withLock { $0.scripts.isEmpty ? nil : $0.scripts.removeFirst() }
            Thread.detachNewThread { [self] in
                let peer = WebSocketPeer(fd: connection)
                do {
                    try script?(peer)
                } catch {
                    state.withLock { $0.failures.append(String(describing: error)) }
                }
                peer.hangUp()
                state.withLock { $0.finishedScripts += 1 }
            }
        }
        close(listener)
    }
}

/// The server's side of one connection: the upgrade, then frames.
final class WebSocketPeer: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One frame as received, unmasked.
    struct Frame: Equatable {
        var fin: Bool
        var opcode: UInt8
        var payload: [UInt8]
        var masked: Bool

        var text: String { String(decoding: payload, as: UTF8.self) }

        /// The close frame's code, or nil.
        var closeCode: Int? {
            opcode == Opcode.close ? WebSocketCloseCode(payload: payload).map { Int($0.rawValue) } : nil
        }
    }

    enum Opcode {
        static let continuation = WebSocketOpcode.continuation.rawValue
        static let text = WebSocketOpcode.text.rawValue
        static let binary = WebSocketOpcode.binary.rawValue
        static let close = WebSocketOpcode.close.rawValue
        static let ping = WebSocketOpcode.ping.rawValue
        static let pong = WebSocketOpcode.pong.rawValue
    }

    private let fd: Int32
    /// Bytes read before the upgrade request's end (the head) or after it (frames).
    private var buffer: [UInt8] = []
    private var frames = WebSocketFrameReader()
    private(set) var requestHead = ""

    init(fd: Int32) {
        self.fd = fd
        // A hang guard for a script waiting on a client that never writes.
        var timeout = timeval(tv_sec: Int(HangGuard.event.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads the upgrade request and answers `101 Switching Protocols` with the right `Sec-WebSocket-Accept`.
    func accept() throws {
        try readHead()
        guard let key = header("sec-websocket-key") else { throw Failure(description: "no Sec-WebSocket-Key") }
        let accept = WebSocketKey.acceptValue(for: key)
        try write(
            Array(
                ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Accept: \(accept)\r\n\r\n").utf8))
    }

    /// Reads the upgrade request and refuses it with `status`.
    func refuse(status: Int) throws {
        try readHead()
        try write(Array("HTTP/1.1 \(status) Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
    }

    /// A header of the upgrade request, by lowercase name.
    func header(_ name: String) -> String? {
        for line in requestHead.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The next frame from the client.
    func readFrame() throws -> Frame {
        while true {
            if let frame = try frames.next() {
                return Frame(
                    fin: frame.isFinal, opcode: frame.opcodeBits, payload: frame.payload, masked: frame.isMasked)
            }
            try fill()
            frames.append(buffer)
            buffer = []
        }
    }

    /// The next data frame's text, skipping pings and pongs.
    func readText() throws -> String {
        while true {
            let frame = try readFrame()
            if frame.opcode == Opcode.ping || frame.opcode == Opcode.pong { continue }
            guard frame.opcode == Opcode.text else {
                throw Failure(description: "expected a text frame, got opcode \(frame.opcode)")
            }
            return frame.text
        }
    }

    /// Sends one frame, unmasked as a server must.
    func send(opcode: UInt8, payload: [UInt8], fin: Bool = true) throws {
        var frame: [UInt8] = []
        WebSocketFrameHeader(
            opcodeBits: opcode, payloadLength: UInt64(payload.count), isFinal: fin, reservedBits: 0, maskingKey: nil
        ).append(to: &frame)
        try write(frame + payload)
    }

    func sendText(_ text: String) throws {
        try send(opcode: Opcode.text, payload: Array(text.utf8))
    }

    /// Sends `text` as `parts` frames: a text frame, then continuation frames, the last with FIN.
    func sendFragmented(_ text: String, parts: Int) throws {
        let bytes = Array(text.utf8)
        let size = (bytes.count + parts - 1) / parts
        for part in 0..<parts {
            let slice = Array(bytes[min(part * size, bytes.count)..<min((part + 1) * size, bytes.count)])
            try send(opcode: part == 0 ? Opcode.text : Opcode.continuation, payload: slice, fin: part == parts - 1)
        }
    }

    func sendClose(code: Int, reason: String) throws {
        try send(opcode: Opcode.close, payload: [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8))
    }

    /// Closes the socket without a close frame.
    func hangUp() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    private func readHead() throws {
        let separator = Array("\r\n\r\n".utf8)
        while true {
            if let end = Self.firstRange(of: separator, in: buffer) {
                requestHead = String(decoding: buffer[0..<end], as: UTF8.self)
                buffer.removeFirst(end + separator.count)
                frames.append(buffer)
                buffer = []
                return
            }
            try fill()
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw Failure(description: "the client closed the connection") }
        buffer += chunk[0..<count]
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw Failure(description: "the client closed the connection") }
            offset += sent
        }
    }

    private static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<start + needle.count]) == needle {
            return start
        }
        return nil
    }
}
