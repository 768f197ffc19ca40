/// How many terminal columns text takes: 2 for East Asian wide characters and emoji, 0 for combining marks.
///
/// ```swift
/// DisplayWidth.of("Amélie")      // 6, whether é is precomposed or e + U+0301
/// DisplayWidth.of("千と千尋")     // 8
/// ```
public enum DisplayWidth {
    /// The number of columns `text` takes in a terminal.
    ///
    /// - Parameter text: Text without control characters (see ``sanitized(_:)``).
    /// - Returns: The column count.
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The number of columns one grapheme cluster takes: 0, 1 or 2.
    ///
    /// - Parameter character: The character.
    /// - Returns: The column count.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.contains(where: { $0.properties.isEmojiPresentation })
            || (scalars.count > 1 && scalars.contains { $0.value == 0xFE0F })
        {
            return 2
        }
        guard let base = scalars.first(where: { !isZeroWidth($0) }) else { return 0 }
        return isWide(base) ? 2 : 1
    }

    /// `text` with control characters (line breaks, tabs, escape sequences) replaced by spaces, so a value
    /// from the server cannot break a table's layout or drive the terminal.
    ///
    /// - Parameter text: Any text.
    /// - Returns: Text safe to print in a table cell.
    public static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(isControl(scalar) ? " " : scalar)
        }
        return String(result)
    }

    /// `text` followed by spaces up to `width` columns (or before them, when aligned right).
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - width: The column count to fill.
    ///   - alignRight: Whether to put the spaces before the text.
    /// - Returns: The padded text; `text` unchanged when it is already as wide.
    public static func pad(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - of(text)))
        return alignRight ? padding + text : text + padding
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return scalar.value == 0x200B || (0xFE00...0xFE0F).contains(scalar.value)
        }
    }

    /// East Asian Wide and Fullwidth ranges (Unicode 15, UAX #11), without the emoji handled above.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
        0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x1100 else { return false }
        return wideRanges.contains { $0.contains(value) }
    }
}
