/// Reads the frames a WebSocket client sends (RFC 6455 §5) from bytes as they arrive, and reassembles messages.
///
/// The parser is a value with no I/O: feed it what the socket delivered, get back what it completed. It enforces
/// what a server must: every client frame is masked; no reserved bit is set (no extension is negotiated); the
/// opcode is known; control frames are final and carry at most 125 bytes; continuation frames continue a message
/// and a new message does not interrupt one; text is UTF-8; a close frame's code is one a peer may send and its
/// reason is UTF-8. A message (all its fragments) larger than ``maximumMessageSize`` is refused as soon as its
/// announced length crosses the limit, before the payload is buffered.
///
/// The first violation yields ``Event/failure(_:_:)`` with the close code to send (1002, 1007 or 1009); after it the
/// parser ignores further input.
///
/// ```swift
/// var parser = WebSocketFrameParser(maximumMessageSize: 1 << 20)
/// for event in parser.consume(bytesFromSocket) {
///     if case .message(.text(let text)) = event { print(text) }
/// }
/// ```
public struct WebSocketFrameParser: Sendable {
    /// What the parser completed.
    public enum Event: Sendable, Equatable {
        /// A whole message.
        case message(WebSocketMessage)
        /// A ping, with its payload (to echo in the pong).
        case ping([UInt8])
        /// A pong.
        case pong
        /// A close frame: its code (`nil` when it carried none) and reason.
        case close(WebSocketCloseCode?, String)
        /// A protocol violation: the code to close with and why.
        case failure(WebSocketCloseCode, String)
    }

    /// The largest message accepted, in bytes, fragments included.
    public let maximumMessageSize: Int

    private var buffer: [UInt8] = []
    private var offset = 0
    private var fragments: [UInt8] = []
    private var fragmentedOpcode: WebSocketFrame.Opcode?
    private var failed = false

    /// Creates a parser.
    ///
    /// - Parameter maximumMessageSize: The largest message accepted, in bytes.
    public init(maximumMessageSize: Int) {
        self.maximumMessageSize = max(0, maximumMessageSize)
    }

    /// Whether the parser met a violation and ignores further input.
    public var hasFailed: Bool { failed }

    /// Feeds bytes from the socket; returns the events they complete, in order.
    public mutating func consume(_ bytes: some Collection<UInt8>) -> [Event] {
        guard !failed else { return [] }
        if offset > 0 && offset == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 65_536)
            offset = 0
        }
        buffer += bytes
        var events: [Event] = []
        while !failed, let event = nextEvent() {
            events.append(event)
            if case .failure = event { failed = true }
        }
        if offset > 0 && (offset == buffer.count || offset >= 65_536) {
            buffer.removeFirst(offset)
            offset = 0
        }
        return events
    }

    /// Parses the next frame when it is complete; `nil` when more bytes are needed.
    ///
    /// A frame that completes nothing the caller sees (a non-final fragment) is consumed and parsing goes on.
    private mutating func nextEvent() -> Event? {
        while true {
            let available = buffer.count - offset
            guard available >= 2 else { return nil }
            let first = buffer[offset]
            let second = buffer[offset + 1]
            let isFinal = first & 0x80 != 0
            if first & 0x70 != 0 {
                return .failure(.protocolError, "reserved bits set without a negotiated extension")
            }
            guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
                return .failure(.protocolError, "unknown opcode \(first & 0x0F)")
            }
            guard second & 0x80 != 0 else {
                return .failure(.protocolError, "client frames must be masked")
            }
            var headerLength = 2
            var length = UInt64(second & 0x7F)
            if length == 126 {
                guard available >= 4 else { return nil }
                length = UInt64(buffer[offset + 2]) << 8 | UInt64(buffer[offset + 3])
                headerLength = 4
            } else if length == 127 {
                guard available >= 10 else { return nil }
                length = 0
                for index in 0..<8 { length = length << 8 | UInt64(buffer[offset + 2 + index]) }
                guard length >> 63 == 0 else {
                    return .failure(.protocolError, "the most significant bit of a 64-bit length must be 0")
                }
                headerLength = 10
            }
            if opcode.isControl {
                guard isFinal else { return .failure(.protocolError, "control frames must not be fragmented") }
                guard length <= 125 else {
                    return .failure(.protocolError, "control frames carry at most 125 bytes")
                }
            } else {
                switch (opcode, fragmentedOpcode) {
                case (.continuation, nil):
                    return .failure(.protocolError, "a continuation frame without a message to continue")
                case (.text, _?), (.binary, _?):
                    return .failure(.protocolError, "a new message before the fragmented one ended")
                default:
                    break
                }
                if length > UInt64(maximumMessageSize - fragments.count) {
                    return .failure(.messageTooBig, "messages are limited to \(maximumMessageSize) bytes")
                }
            }
            let frameLength = headerLength + 4 + Int(length)
            guard available >= frameLength else { return nil }
            let maskStart = offset + headerLength
            let mask = (buffer[maskStart], buffer[maskStart + 1], buffer[maskStart + 2], buffer[maskStart + 3])
            let payloadStart = maskStart + 4
            var payload = Array(buffer[payloadStart..<(payloadStart + Int(length))])
            for index in payload.indices {
                switch index & 3 {
                case 0: payload[index] ^= mask.0
                case 1: payload[index] ^= mask.1
                case 2: payload[index] ^= mask.2
                default: payload[index] ^= mask.3
                }
            }
            offset += frameLength

            switch opcode {
            case .ping:
                return .ping(payload)
            case .pong:
                return .pong
            case .close:
                return Self.closeEvent(payload)
            case .text, .binary, .continuation:
                if opcode != .continuation { fragmentedOpcode = opcode }
                if fragments.isEmpty {
                    fragments = payload
                } else {
                    fragments += payload
                }
                guard isFinal else { continue }
                let message = fragments
                let kind = fragmentedOpcode
                fragments = []
                fragmentedOpcode = nil
                if kind == .binary { return .message(.binary(message)) }
                guard let text = String(validating: message, as: UTF8.self) else {
                    return .failure(.invalidPayload, "text messages must be UTF-8")
                }
                return .message(.text(text))
            }
        }
    }

    private static func closeEvent(_ payload: [UInt8]) -> Event {
        guard !payload.isEmpty else { return .close(nil, "") }
        guard payload.count >= 2 else { return .failure(.protocolError, "a close frame's code takes two bytes") }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isValidOnTheWire else {
            return .failure(.protocolError, "close code \(code.rawValue) may not be sent")
        }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            return .failure(.invalidPayload, "a close frame's reason must be UTF-8")
        }
        return .close(code, reason)
    }
}
