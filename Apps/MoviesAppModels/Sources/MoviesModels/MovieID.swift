import Foundation

/// Movie ids as the command line reads and prints them.
///
/// Data Connect ids are UUIDs; they are printed lowercase with dashes (`252ff53a-a807-5c12-840b-96bff4798d7b`)
/// and read with or without dashes, in any case.
public enum MovieID {
    /// Reads a UUID with or without dashes; `nil` when the text is not one.
    ///
    /// - Parameter text: The id as typed.
    /// - Returns: The UUID, or `nil`.
    public static func parse(_ text: String) -> UUID? {
        if let uuid = UUID(uuidString: text) { return uuid }
        let hex = Array(text)
        guard hex.count == 32, hex.allSatisfy(\.isHexDigit) else { return nil }
        var dashed = ""
        for (offset, character) in hex.enumerated() {
            if [8, 12, 16, 20].contains(offset) { dashed.append("-") }
            dashed.append(character)
        }
        return UUID(uuidString: dashed)
    }

    /// The id as printed: lowercase, with dashes.
    ///
    /// - Parameter id: The UUID.
    /// - Returns: The text, e.g. `252ff53a-a807-5c12-840b-96bff4798d7b`.
    public static func format(_ id: UUID) -> String {
        id.uuidString.lowercased()
    }
}
