/// Reads the frames a WebSocket peer sends (RFC 6455 §5) from bytes as they arrive, and reassembles messages.
///
/// The parser is a value with no I/O: feed it what the socket delivered, get back what it completed. It enforces
/// what an endpoint must: frames from a client are masked and frames from a server are not (``Role``); no reserved
/// bit is set (no extension is negotiated); the opcode is defined; control frames are final and carry at most 125
/// bytes; continuation frames continue a message and a new message does not interrupt one; text is UTF-8; a close
/// frame's code is one a peer may send and its reason is UTF-8. A message (all its fragments) larger than
/// ``maximumMessageSize`` is refused as soon as its announced length crosses the limit, before the payload is
/// buffered.
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
    /// Which side of the connection reads: it decides whether frames must be masked.
    public enum Role: Sendable, Hashable {
        /// A server, reading a client's frames: each must be masked.
        case server
        /// A client, reading a server's frames: none may be masked.
        case client
    }

    /// What the parser completed.
    public enum Event: Sendable, Hashable {
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

    /// The side that reads.
    public let role: Role
    /// The largest message accepted, in bytes, fragments included.
    public let maximumMessageSize: Int

    @usableFromInline var buffer: [UInt8] = []
    private var offset = 0
    private var fragments: [UInt8] = []
    private var fragmentedOpcode: WebSocketOpcode?
    private var failed = false

    /// Creates a parser.
    ///
    /// - Parameters:
    ///   - role: The side that reads; a server by default.
    ///   - maximumMessageSize: The largest message accepted, in bytes.
    public init(role: Role = .server, maximumMessageSize: Int) {
        self.role = role
        self.maximumMessageSize = max(0, maximumMessageSize)
    }

    /// Whether the parser met a violation and ignores further input.
    public var hasFailed: Bool { failed }

    /// Feeds bytes from the socket; returns the events they complete, in order.
    ///
    /// - Parameter bytes: The next bytes of the stream.
    /// - Returns: The messages, control frames and at most one failure the bytes complete.
    @inlinable
    public mutating func consume(_ bytes: some Collection<UInt8>) -> [Event] {
        guard prepareForInput() else { return [] }
        buffer += bytes
        return parseBuffered()
    }

    /// Makes room for new input; `false` once the parser has failed.
    @usableFromInline
    mutating func prepareForInput() -> Bool {
        guard !failed else { return false }
        if offset > 0 && offset == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 65_536)
            offset = 0
        }
        return true
    }

    /// Parses what is buffered into events.
    @usableFromInline
    mutating func parseBuffered() -> [Event] {
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
            let isFinal = first & 0x80 != 0
            if first & 0x70 != 0 {
                return .failure(.protocolError, "reserved bits set without a negotiated extension")
            }
            guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
                return .failure(.protocolError, "unknown opcode \(first & 0x0F)")
            }
            let isMasked = buffer[offset + 1] & 0x80 != 0
            switch (role, isMasked) {
            case (.server, false): return .failure(.protocolError, "client frames must be masked")
            case (.client, true): return .failure(.protocolError, "server frames must not be masked")
            default: break
            }
            let start = offset
            let lengthField: (length: UInt64, byteCount: Int)?
            do {
                lengthField = try buffer.withUnsafeBufferPointer { buffer throws(WebSocketFrameError) in
                    try WebSocketFrameHeader.payloadLength(UnsafeBufferPointer(rebasing: buffer[start...]))
                }
            } catch {
                return .failure(error.code, error.reason)
            }
            guard let (length, lengthEnd) = lengthField else { return nil }
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
            let headerLength = lengthEnd + (isMasked ? 4 : 0)
            let frameLength = headerLength + Int(length)
            guard available >= frameLength else { return nil }
            let payloadStart = offset + headerLength
            var payload = Array(buffer[payloadStart..<(payloadStart + Int(length))])
            if isMasked {
                let key = offset + lengthEnd
                WebSocketMaskingKey(buffer[key], buffer[key + 1], buffer[key + 2], buffer[key + 3])
                    .apply(to: &payload)
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
        guard let code = WebSocketCloseCode(payload: payload) else {
            return .failure(.protocolError, "a close frame's code takes two bytes")
        }
        guard code.isValidOnTheWire else {
            return .failure(.protocolError, "close code \(code.rawValue) may not be sent")
        }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            return .failure(.invalidPayload, "a close frame's reason must be UTF-8")
        }
        return .close(code, reason)
    }
}
