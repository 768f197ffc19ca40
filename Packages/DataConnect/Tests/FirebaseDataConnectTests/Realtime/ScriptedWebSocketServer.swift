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
        (listener, port) = try LoopbackListener.open()
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
            opcode == Opcode.close && payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil
        }
    }

    enum Opcode {
        static let continuation: UInt8 = 0x0
        static let text: UInt8 = 0x1
        static let binary: UInt8 = 0x2
        static let close: UInt8 = 0x8
        static let ping: UInt8 = 0x9
        static let pong: UInt8 = 0xA
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
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
        let accept = Data(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
            .base64EncodedString()
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
        let head = try read(2)
        let fin = head[0] & 0x80 != 0
        let opcode = head[0] & 0x0F
        let masked = head[1] & 0x80 != 0
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            let extended = try read(2)
            length = Int(extended[0]) << 8 | Int(extended[1])
        } else if length == 127 {
            length = try read(8).reduce(0) { $0 << 8 | Int($1) }
        }
        let mask = masked ? try read(4) : [0, 0, 0, 0]
        var payload = try read(length)
        for index in payload.indices { payload[index] ^= mask[index % 4] }
        return Frame(fin: fin, opcode: opcode, payload: payload, masked: masked)
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
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            frame.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
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
                return
            }
            try fill()
        }
    }

    private func read(_ count: Int) throws -> [UInt8] {
        while buffer.count < count { try fill() }
        defer { buffer.removeFirst(count) }
        return Array(buffer[0..<count])
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

/// SHA-1 (FIPS 180-4), for the `Sec-WebSocket-Accept` header only.
enum SHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message + [0x80]
        while padded.count % 64 != 56 { padded.append(0) }
        let bits = UInt64(message.count) * 8
        padded += (0..<8).reversed().map { UInt8((bits >> (UInt64($0) * 8)) & 0xFF) }
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            var w = [UInt32](repeating: 0, count: 80)
            for i in 0..<16 {
                let b = chunk + i * 4
                w[i] =
                    UInt32(padded[b]) << 24 | UInt32(padded[b + 1]) << 16 | UInt32(padded[b + 2]) << 8
                    | UInt32(padded[b + 3])
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
            }
            h[0] = h[0] &+ a
            h[1] = h[1] &+ b
            h[2] = h[2] &+ c
            h[3] = h[3] &+ d
            h[4] = h[4] &+ e
        }
        return h.flatMap { value in (0..<4).reversed().map { UInt8((value >> (UInt32($0) * 8)) & 0xFF) } }
    }
}
