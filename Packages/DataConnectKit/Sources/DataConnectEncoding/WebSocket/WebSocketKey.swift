/// The keys of the WebSocket opening handshake (RFC 6455 §4): the client's `Sec-WebSocket-Key` and the server's
/// `Sec-WebSocket-Accept`, the base64 of the SHA-1 of the key and the protocol's GUID.
///
/// ```swift
/// WebSocketKey.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==")   // "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
/// WebSocketKey.isValid("dGhlIHNhbXBsZSBub25jZQ==")          // true: 16 bytes in base64
/// ```
public enum WebSocketKey {
    /// The GUID RFC 6455 appends to the client's key.
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The `Sec-WebSocket-Accept` value that answers `key`.
    ///
    /// - Parameter key: The client's `Sec-WebSocket-Key`, as sent.
    /// - Returns: The accept value.
    public static func acceptValue(for key: String) -> String {
        Base64.standard.encode(SHA1.hash(Array((key + guid).utf8)))
    }

    /// Whether `key` is a valid `Sec-WebSocket-Key`: 16 bytes in padded base64 (RFC 6455 §4.1).
    ///
    /// - Parameter key: The header's value, without surrounding white space.
    /// - Returns: Whether a server may accept it.
    public static func isValid(_ key: String) -> Bool {
        Base64.standard.decode(key)?.count == 16
    }

    /// A fresh key for a client's handshake: 16 random bytes in base64.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64.standard.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
