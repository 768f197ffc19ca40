import Foundation

/// Base64url without padding (RFC 4648 §5), the encoding of JWT segments and of refresh tokens.
enum Base64URL {
    /// Encodes bytes as base64url without `=` padding.
    ///
    /// - Parameter bytes: The bytes to encode.
    /// - Returns: The text, using `-` and `_` instead of `+` and `/`.
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes base64url or plain base64, with or without padding.
    ///
    /// - Parameter text: The encoded text.
    /// - Returns: The bytes, or `nil` when the text is not base64.
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard = standard.replacingOccurrences(of: "=", with: "")
        while standard.count % 4 != 0 { standard.append("=") }
        return Data(base64Encoded: standard).map(Array.init)
    }
}
