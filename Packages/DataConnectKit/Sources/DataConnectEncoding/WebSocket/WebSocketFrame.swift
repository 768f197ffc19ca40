/// Whole WebSocket frames as bytes (RFC 6455 §5.2): a header and its payload, masked when a client sends it.
///
/// A server writes final, unmasked frames (``encode(_:payload:isFinal:maskingKey:)`` with the defaults, or
/// ``appendHeader(_:payloadCount:to:)`` before payload it copies itself); a client masks each frame with a key of
/// its own.
///
/// ```swift
/// let bytes = WebSocketFrame.encode(.text, payload: Array(#"{"result":{}}"#.utf8))
/// let fromClient = WebSocketFrame.encode(.text, payload: Array("hi".utf8), maskingKey: .random())
/// ```
public enum WebSocketFrame {
    /// The most payload a close frame's reason may take: control frames carry at most 125 bytes, 2 go to the code.
    public static let maximumCloseReasonCount = 123

    /// The bytes of one frame carrying `payload`.
    ///
    /// - Parameters:
    ///   - opcode: What the frame carries.
    ///   - payload: The payload, unmasked.
    ///   - isFinal: Whether the frame ends its message.
    ///   - maskingKey: The key a client masks the payload with; `nil` (a server's frame) writes it as it is.
    /// - Returns: The frame.
    @inlinable
    public static func encode(
        _ opcode: WebSocketOpcode, payload: some Collection<UInt8>, isFinal: Bool = true,
        maskingKey: WebSocketMaskingKey? = nil
    ) -> [UInt8] {
        let header = WebSocketFrameHeader(
            opcode: opcode, payloadLength: payload.count, isFinal: isFinal, maskingKey: maskingKey)
        var frame: [UInt8] = []
        frame.reserveCapacity(header.byteCount + payload.count)
        header.append(to: &frame)
        let payloadStart = frame.count
        frame += payload
        if let maskingKey {
            frame.withUnsafeMutableBufferPointer {
                maskingKey.apply(to: UnsafeMutableBufferPointer(rebasing: $0[payloadStart...]))
            }
        }
        return frame
    }

    /// Appends the header of a final, unmasked frame whose payload is `count` bytes long; the payload follows.
    ///
    /// - Parameters:
    ///   - opcode: What the frame carries.
    ///   - count: The payload's length.
    ///   - frame: Where the header goes.
    @inlinable
    public static func appendHeader(_ opcode: WebSocketOpcode, payloadCount count: Int, to frame: inout [UInt8]) {
        WebSocketFrameHeader(opcode: opcode, payloadLength: count).append(to: &frame)
    }

    /// The bytes of a close frame with `code` and `reason`.
    ///
    /// - Parameters:
    ///   - code: The close code.
    ///   - reason: Why; cut at a whole character to ``maximumCloseReasonCount`` bytes.
    ///   - maskingKey: The key a client masks the payload with; `nil` for a server's frame.
    /// - Returns: The frame.
    public static func close(
        code: WebSocketCloseCode, reason: String, maskingKey: WebSocketMaskingKey? = nil
    ) -> [UInt8] {
        encode(.close, payload: closePayload(code: code, reason: reason), maskingKey: maskingKey)
    }

    /// A close frame's payload: `code`, big-endian, then as much of `reason` in UTF-8 as fits, whole characters only.
    ///
    /// - Parameters:
    ///   - code: The close code.
    ///   - reason: Why; cut at a whole character to ``maximumCloseReasonCount`` bytes.
    /// - Returns: The payload.
    public static func closePayload(code: WebSocketCloseCode, reason: String) -> [UInt8] {
        var payload = [UInt8(code.rawValue >> 8), UInt8(truncatingIfNeeded: code.rawValue)]
        payload += closeReason(reason)
        return payload
    }

    /// `reason` in UTF-8, cut at a whole character to ``maximumCloseReasonCount`` bytes so that it stays UTF-8.
    ///
    /// - Parameter reason: The reason.
    /// - Returns: Its bytes.
    public static func closeReason(_ reason: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in reason.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            guard bytes.count + encoded.count <= maximumCloseReasonCount else { break }
            bytes += encoded
        }
        return bytes
    }
}
