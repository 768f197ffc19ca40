import Foundation

/// Random ids, email checks and time formats, as firebase-tools makes and reads them.
enum Identifiers {
    private static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    private static let base64URLAlphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// `length` random letters and digits (user ids are 28 long).
    static func randomID(_ length: Int) -> String {
        String((0..<length).map { _ in alphanumerics.randomElement()! })
    }

    /// `length` random base64url characters (out-of-band codes are 54 long).
    static func randomBase64URL(_ length: Int) -> String {
        String((0..<length).map { _ in base64URLAlphabet.randomElement()! })
    }

    /// Whether `text` looks like an email address: one `@` with text on both sides and no whitespace.
    static func isValidEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && !text.contains(where: { $0.isWhitespace })
    }

    /// The stored form of an email: lowercased.
    static func canonicalEmail(_ text: String) -> String { text.lowercased() }

    /// Whether `text` is an E.164 phone number (`+` and digits).
    static func isValidPhoneNumber(_ text: String) -> Bool {
        text.hasPrefix("+") && text.count > 1 && text.dropFirst().allSatisfy { $0.isNumber || $0 == " " || $0 == "-" }
    }

    /// Milliseconds since the epoch, as text (`createdAt`, `lastLoginAt`).
    static func milliseconds(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// Seconds since the epoch (`iat`, `validSince`).
    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    /// An ISO 8601 date with milliseconds (`lastRefreshAt`).
    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// Reads ``iso8601(_:)``.
    static func date(iso8601 text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}
