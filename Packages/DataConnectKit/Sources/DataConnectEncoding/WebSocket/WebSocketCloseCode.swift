/// The status code of a WebSocket close frame (RFC 6455 §7.4).
///
/// ```swift
/// connection.close(code: .goingAway, reason: "the server is stopping")
/// let code: WebSocketCloseCode = 4001   // a code of the application's own range
/// ```
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// The code, for example `1000`.
    public var rawValue: UInt16

    /// Creates a code.
    ///
    /// - Parameter rawValue: The code's number.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// Creates a code from a literal, e.g. `4001`.
    ///
    /// - Parameter value: The code's number.
    public init(integerLiteral value: UInt16) {
        self.rawValue = value
    }

    /// The code at the start of a close frame's payload; `nil` when the payload is shorter than the code's two bytes.
    ///
    /// - Parameter payload: A close frame's payload: the code, big-endian, then the reason in UTF-8.
    public init?(payload: some Collection<UInt8>) {
        var bytes = payload.makeIterator()
        guard let high = bytes.next(), let low = bytes.next() else { return nil }
        self.rawValue = UInt16(high) << 8 | UInt16(low)
    }

    /// The code as text.
    public var description: String { String(rawValue) }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normal = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the endpoint is going away (the server stops, or the peer stopped answering pings).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: the peer broke the protocol (an unmasked frame, reserved bits, a bad opcode, a bad control frame).
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: a kind of data the endpoint cannot accept.
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1005: the close frame carried no code (never sent on the wire).
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// 1006: the connection ended without a close frame (never sent on the wire).
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: a text message that is not UTF-8.
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a message that violates the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message larger than the endpoint accepts.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1011: the server met an unexpected condition.
    public static let internalError = WebSocketCloseCode(rawValue: 1011)

    /// Whether a peer may send this code in a close frame: 1000–1003, 1007–1014 and 3000–4999.
    public var isValidOnTheWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }
}
