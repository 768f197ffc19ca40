import DataConnectWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A WebSocket client written at the frame level on a raw blocking socket, for tests of the stream endpoint.
///
/// It sends whatever frames a test builds (masked or not, any opcode and reserved bits, fragments), reads the server's
/// frames one by one, and records every text frame both ways in ``transcript``. Reads wait at most the hang guard.
final class WebSocketClient {
    /// One frame from the server.
    struct Frame: Equatable {
        var fin: Bool
        var opcode: UInt8
        var payload: [UInt8]

        var text: String { String(decoding: payload, as: UTF8.self) }
        var json: JSONValue? { try? JSONValue(parsing: payload) }
        /// A close frame's code.
        var closeCode: UInt16? { payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil }
    }

    static let key = "dGhlIHNhbXBsZSBub25jZQ=="

    /// The handshake's header fields when a test gives none.
    static func standardHeaders(extra: [(String, String)] = []) -> [(String, String)] {
        [
            ("Host", "127.0.0.1"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
            ("Sec-WebSocket-Key", key), ("Sec-WebSocket-Version", "13"),
        ] + extra
    }

    private(set) var status = 0
    private(set) var headers: [String: String] = [:]
    private(set) var body: [UInt8] = []
    /// Text frames sent (`>`) and received (`<`), in order.
    private(set) var transcript: [String] = []
    private var fd: Int32 = -1
    private var buffer: [UInt8] = []

    /// Connects and sends the opening handshake; returns once the response's status and headers arrived.
    init(port: UInt16, path: String, method: String = "GET", headers: [(String, String)] = standardHeaders()) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSetupError("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw TestSetupError("connect failed: errno \(errno)") }
        var request = "\(method) \(path) HTTP/1.1\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        sendRaw(Array(request.utf8))
        let deadline = ContinuousClock.now + HangGuard.event
        var end: Int?
        while end == nil {
            guard fill(until: deadline) else { throw TestSetupError("no handshake response") }
            end = Self.find([13, 10, 13, 10], in: buffer)
        }
        let head = String(decoding: buffer[..<end!], as: UTF8.self)
        buffer.removeFirst(end! + 4)
        let lines = head.components(separatedBy: "\r\n")
        status = Int(lines[0].split(separator: " ")[1]) ?? 0
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            self.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        if status != 101, let length = Int(self.headers["content-length"] ?? "") {
            while buffer.count < length, fill(until: deadline) {}
            body = Array(buffer.prefix(length))
        }
    }

    deinit { close() }

    func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    // MARK: Sending

    func sendRaw(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// The bytes of one client frame.
    static func frame(
        opcode: UInt8, payload: [UInt8], fin: Bool = true, masked: Bool = true, reserved: UInt8 = 0,
        announcedLength: Int? = nil
    ) -> [UInt8] {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | (reserved << 4) | opcode]
        let length = announcedLength ?? payload.count
        let maskBit: UInt8 = masked ? 0x80 : 0
        if length < 126 {
            frame.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            frame += [maskBit | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            frame.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                frame.append(UInt8(truncatingIfNeeded: length >> shift))
            }
        }
        guard masked else { return frame + payload }
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        frame += mask
        for (index, byte) in payload.enumerated() { frame.append(byte ^ mask[index % 4]) }
        return frame
    }

    func sendFrame(
        opcode: UInt8, payload: [UInt8], fin: Bool = true, masked: Bool = true, reserved: UInt8 = 0
    ) {
        sendRaw(Self.frame(opcode: opcode, payload: payload, fin: fin, masked: masked, reserved: reserved))
    }

    /// Sends a JSON text frame.
    func send(_ json: JSONValue) {
        let text = json.jsonString()
        transcript.append("> " + text)
        sendFrame(opcode: 1, payload: Array(text.utf8))
    }

    // MARK: Receiving

    /// The next frame, or `nil` on timeout or end of stream.
    func readFrame(timeout: Duration = HangGuard.event) -> Frame? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let frame = parseFrame() {
                if frame.opcode == 1 { transcript.append("< " + frame.text) }
                return frame
            }
            guard fill(until: deadline) else { return nil }
        }
    }

    /// The next text frame as JSON, answering pings on the way; `nil` on timeout, close or end of stream.
    func next(timeout: Duration = HangGuard.event) -> JSONValue? {
        let deadline = ContinuousClock.now + timeout
        while let frame = readFrame(timeout: deadline - ContinuousClock.now) {
            switch frame.opcode {
            case 1: return frame.json
            case 9: sendFrame(opcode: 10, payload: frame.payload)
            case 8: return nil
            default: continue
            }
        }
        return nil
    }

    /// The next `result` of a text frame.
    func nextResult(timeout: Duration = HangGuard.event) -> JSONValue? {
        next(timeout: timeout)?["result"]
    }

    /// Reads until a close frame and returns its code (`nil` when the stream ended without one, or on timeout).
    func closeCode(timeout: Duration = HangGuard.event) -> UInt16? {
        let deadline = ContinuousClock.now + timeout
        while let frame = readFrame(timeout: deadline - ContinuousClock.now) {
            if frame.opcode == 8 { return frame.closeCode }
        }
        return nil
    }

    /// Whether the server ends the TCP stream before the hang guard.
    func endsStream(timeout: Duration = HangGuard.event) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            buffer = []
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pollfd, 1, Self.milliseconds(left)) > 0 else { return false }
            var chunk = [UInt8](repeating: 0, count: 16_384)
            if recv(fd, &chunk, chunk.count, 0) <= 0 { return true }
        }
    }

    private func parseFrame() -> Frame? {
        guard buffer.count >= 2 else { return nil }
        let fin = buffer[0] & 0x80 != 0
        let opcode = buffer[0] & 0x0F
        var length = Int(buffer[1] & 0x7F)
        var header = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            header = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = 0
            for index in 2..<10 { length = length << 8 | Int(buffer[index]) }
            header = 10
        }
        guard buffer.count >= header + length else { return nil }
        let payload = Array(buffer[header..<(header + length)])
        buffer.removeFirst(header + length)
        return Frame(fin: fin, opcode: opcode, payload: payload)
    }

    private func fill(until deadline: ContinuousClock.Instant) -> Bool {
        let left = deadline - ContinuousClock.now
        guard left > .zero, fd >= 0 else { return false }
        var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pollfd, 1, Self.milliseconds(left)) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: max(1, seconds * 1_000 + attoseconds / 1_000_000_000_000_000))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return start }
        }
        return nil
    }
}
