import MoviesModels

/// Fitting text into terminal cells by display width (wide CJK characters take two cells).
public enum TextCells {
    /// `text` sanitized and cut to at most `width` columns, ending in `…` when cut.
    ///
    /// A wide character that would straddle the limit is dropped, never split.
    ///
    /// ```swift
    /// TextCells.clip("千と千尋の神隠し", to: 7)   // "千と千…" (6 + 1 columns)
    /// ```
    ///
    /// - Parameters:
    ///   - text: Any text; control characters become spaces.
    ///   - width: The most columns the result may take.
    /// - Returns: The clipped text.
    public static func clip(_ text: String, to width: Int) -> String {
        let clean = DisplayWidth.sanitized(text)
        guard width > 0 else { return "" }
        guard DisplayWidth.of(clean) > width else { return clean }
        var result = ""
        var used = 0
        for character in clean {
            let cells = DisplayWidth.of(character)
            if used + cells > width - 1 { break }
            result.append(character)
            used += cells
        }
        return result + "…"
    }

    /// `text` clipped to `width` columns and padded with spaces to exactly `width` (or right-aligned).
    ///
    /// - Parameters:
    ///   - text: Any text.
    ///   - width: The exact column count of the result.
    ///   - alignRight: Whether to pad on the left.
    /// - Returns: Text exactly `width` columns wide.
    public static func fit(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        DisplayWidth.pad(clip(text, to: width), to: max(0, width), alignRight: alignRight)
    }
}
