import Foundation

/// `application/x-www-form-urlencoded` text (`grant_type=refresh_token&refresh_token=…`), as
/// `URLSearchParams` reads it.
enum FormDecoding {
    /// The pairs of a form body or query, in order; `+` is a space and `%XX` escapes are decoded.
    ///
    /// - Parameter text: `a=1&b=two+words`.
    /// - Returns: `[("a", "1"), ("b", "two words")]`.
    static func pairs(_ text: some StringProtocol) -> [(name: String, value: String)] {
        text.split(separator: "&").compactMap { part in
            guard !part.isEmpty else { return nil }
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(pieces[0])
            let value = pieces.count > 1 ? decode(pieces[1]) : ""
            return (name, value)
        }
    }

    private static func decode(_ text: some StringProtocol) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
