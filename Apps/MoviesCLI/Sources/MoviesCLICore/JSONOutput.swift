import Foundation

/// Renders values as the JSON `--json` prints: pretty, keys sorted, slashes unescaped, ending with a newline.
///
/// ```swift
/// JSONOutput.render(["movies": rows])   // "{\n  \"movies\" : [ ... ]\n}\n"
/// JSONOutput.line(change)               // one line, for watch's stream of changes
/// ```
public enum JSONOutput {
    /// `value` as pretty-printed JSON with a trailing newline.
    ///
    /// - Parameter value: The value.
    /// - Returns: The JSON text.
    public static func render(_ value: some Encodable) -> String {
        encode(value, formatting: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) + "\n"
    }

    /// `value` as compact JSON on one line, with a trailing newline (JSON Lines).
    ///
    /// - Parameter value: The value.
    /// - Returns: The JSON text.
    public static func line(_ value: some Encodable) -> String {
        encode(value, formatting: [.sortedKeys, .withoutEscapingSlashes]) + "\n"
    }

    private static func encode(_ value: some Encodable, formatting: JSONEncoder.OutputFormatting) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        // The models hold only strings, numbers, booleans, arrays and optionals, which always encode.
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
