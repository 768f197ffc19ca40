/// Whether and how output is colored: bold headers and dim ids, with ANSI escapes.
///
/// Color is used only when standard output is a terminal and `NO_COLOR` is unset (https://no-color.org).
///
/// ```swift
/// let style = TerminalStyle.detect(isTerminal: true, environment: ["NO_COLOR": "1"])  // .plain
/// style.bold("TITLE")                                                                 // "TITLE"
/// ```
public struct TerminalStyle: Equatable, Sendable {
    /// Whether escapes are written.
    public var colors: Bool

    /// No escapes.
    public static let plain = TerminalStyle(colors: false)
    /// Bold and dim escapes.
    public static let colored = TerminalStyle(colors: true)

    /// Creates a style.
    public init(colors: Bool) {
        self.colors = colors
    }

    /// The style for an output stream.
    ///
    /// - Parameters:
    ///   - isTerminal: Whether the stream is a TTY.
    ///   - environment: The process environment; any `NO_COLOR` value turns color off.
    /// - Returns: ``colored`` for a terminal without `NO_COLOR`, else ``plain``.
    public static func detect(isTerminal: Bool, environment: [String: String]) -> TerminalStyle {
        TerminalStyle(colors: isTerminal && environment["NO_COLOR"] == nil)
    }

    /// `text` in bold.
    public func bold(_ text: String) -> String { wrap(text, "1") }
    /// `text` dimmed.
    public func dim(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ code: String) -> String {
        colors && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
