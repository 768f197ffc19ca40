import DataConnectEncoding
import DataConnectTestSupport
import DataConnectWire
import Foundation

/// A WebSocket client written at the frame level on a loopback connection, for tests of the stream endpoint.
///
/// It sends whatever frames a test builds (masked or not, any opcode and reserved bits, fragments, a length that
/// lies), reads the server's frames one by one as they are, and records every text frame both ways in
/// ``transcript``. Frames are written and read with DataConnectEncoding's framing; reads wait at most the hang guard.
final class WebSocketClient {
    /// One frame from the server.
    struct Frame: Equatable {
        var fin: Bool
        var opcode: UInt8
        var payload: [UInt8]

        var text: String { String(decoding: payload, as: UTF8.self) }
        var json: JSONValue? { try? JSONValue(parsing: payload) }
        /// A close frame's code.
        var closeCode: UInt16? { WebSocketCloseCode(payload: payload)?.rawValue }
    }

    static let key = "dGhlIHNhbXBsZSBub25jZQ=="

    /// The masking key of every frame the client masks.
    static let maskingKey = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)

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
    private let connection: LoopbackConnection
    private var reader = WebSocketFrameReader()

    /// Connects and sends the opening handshake; returns once the response's status and headers arrived.
    init(port: UInt16, path: String, method: String = "GET", headers: [(String, String)] = standardHeaders()) throws {
        do {
            connection = try LoopbackConnection(port: Int(port))
        } catch {
            throw TestSetupError(error.description)
        }
        var request = "\(method) \(path) HTTP/1.1\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        sendRaw(Array(request.utf8))
        let deadline = HangGuard.deadline
        var received: [UInt8] = []
        while RawHTTP.headEnd(in: received) == nil {
            guard case .bytes(let bytes) = connection.receive(until: deadline) else {
                throw TestSetupError("no handshake response")
            }
            received += bytes
        }
        let end = RawHTTP.headEnd(in: received)!
        let head = try RawHTTP.parseHead(received[..<end])
        status = head.status
        for (name, value) in head.headers {
            self.headers[name.lowercased()] = value.trimmingCharacters(in: .whitespaces)
        }
        var rest = Array(received[(end + 4)...])
        if status != 101, let length = Int(self.headers["content-length"] ?? "") {
            while rest.count < length, case .bytes(let bytes) = connection.receive(until: deadline) { rest += bytes }
            body = Array(rest.prefix(length))
        } else {
            reader.append(rest)
        }
    }

    func close() {
        connection.close()
    }

    // MARK: Sending

    func sendRaw(_ bytes: [UInt8]) {
        try? connection.send(bytes)
    }

    /// The bytes of one client frame, masked with ``maskingKey`` unless told otherwise; `announcedLength` makes the
    /// header lie about the payload's length.
    static func frame(
        opcode: UInt8, payload: [UInt8], fin: Bool = true, masked: Bool = true, reserved: UInt8 = 0,
        announcedLength: Int? = nil
    ) -> [UInt8] {
        let key = masked ? maskingKey : nil
        var frame: [UInt8] = []
        WebSocketFrameHeader(
            opcodeBits: opcode, payloadLength: UInt64(announcedLength ?? payload.count), isFinal: fin,
            reservedBits: reserved, maskingKey: key
        ).append(to: &frame)
        var masked = payload
        key?.apply(to: &masked)
        return frame + masked
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
            if let next = try? reader.next() {
                let frame = Frame(fin: next.isFinal, opcode: next.opcodeBits, payload: next.payload)
                if frame.opcode == 1 { transcript.append("< " + frame.text) }
                return frame
            }
            guard case .bytes(let bytes) = connection.receive(until: deadline) else { return nil }
            reader.append(bytes)
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
        reader.removeAll()
        while true {
            switch connection.receive(until: deadline) {
            case .bytes: continue
            case .closed: return true
            case .timedOut: return false
            }
        }
    }
}
