import Foundation
import WorkspaceTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A minimal client of the emulator's realtime stream: a WebSocket on a raw blocking socket that sends JSON requests
/// as masked text frames and reads the server's text frames as JSON, answering pings on the way.
///
/// Enough for tests that subscribe from this process to a `dataconnect emulator` process; the frame-level client
/// with every protocol corner lives in the emulator package's tests.
final class StreamClient {
    /// Why the stream could not be opened.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private var descriptor: Int32 = -1
    private var buffer: [UInt8] = []

    /// Connects to `127.0.0.1:port` and completes the opening handshake on the stream path of `service`.
    ///
    /// - Throws: ``Failure`` when the connection or the handshake fails (the answer is not `101`).
    init(port: UInt16, service: String, timeout: Duration = HangGuard.process) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close()
            throw Failure(description: "connect failed: errno \(errno)")
        }
        let path = "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/p/locations/l/services/\(service)"
        write(
            Array(
                ("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8))
        let deadline = ContinuousClock.now + timeout
        var end: Int?
        while end == nil {
            guard fill(until: deadline) else { throw Failure(description: "no handshake response") }
            end = Self.find([13, 10, 13, 10], in: buffer)
        }
        let head = String(decoding: buffer[..<end!], as: UTF8.self)
        buffer.removeFirst(end! + 4)
        guard head.hasPrefix("HTTP/1.1 101") else { throw Failure(description: "handshake answered: \(head)") }
    }

    deinit { close() }

    /// Closes the socket.
    func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Sends one request as a text frame.
    func send(_ request: [String: Any]) throws {
        let payload = [UInt8](try JSONSerialization.data(withJSONObject: request))
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        let mask: [UInt8] = [0x5A, 0x17, 0xC3, 0x88]
        frame += mask
        for (index, byte) in payload.enumerated() { frame.append(byte ^ mask[index % 4]) }
        write(frame)
    }

    /// The `result` of the next text frame, answering pings on the way; `nil` on timeout, close or end of stream.
    func nextResult(timeout: Duration = HangGuard.process) -> [String: Any]? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let (opcode, payload) = parseFrame() {
                switch opcode {
                case 1:
                    let json = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any]
                    return json?["result"] as? [String: Any]
                case 9:
                    var pong: [UInt8] = [0x8A, 0x80 | UInt8(payload.count), 0, 0, 0, 0]
                    pong += payload
                    write(pong)
                case 8:
                    return nil
                default:
                    continue
                }
                continue
            }
            guard fill(until: deadline) else { return nil }
        }
    }

    private func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// One server frame (never masked) from the buffer, when it holds a whole one.
    private func parseFrame() -> (UInt8, [UInt8])? {
        guard buffer.count >= 2 else { return nil }
        var length = Int(buffer[1] & 0x7F)
        var header = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            header = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            header = 10
        }
        guard buffer.count >= header + length else { return nil }
        let frame = (buffer[0] & 0x0F, Array(buffer[header..<(header + length)]))
        buffer.removeFirst(header + length)
        return frame
    }

    private func fill(until deadline: ContinuousClock.Instant) -> Bool {
        let left = deadline - ContinuousClock.now
        guard left > .zero, descriptor >= 0 else { return false }
        let (seconds, attoseconds) = left.components
        let milliseconds = Int32(clamping: max(1, seconds * 1_000 + attoseconds / 1_000_000_000_000_000))
        var pollfd = Glibc.pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&pollfd, 1, milliseconds) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
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
