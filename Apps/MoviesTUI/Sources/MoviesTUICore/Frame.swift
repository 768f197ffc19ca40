/// How a run of text is drawn; the shell maps each style to ncurses attributes and colors.
public enum Style: Equatable, Sendable {
    /// Plain text.
    case normal
    /// The title bar.
    case title
    /// Column headings and section headings.
    case heading
    /// The selected row.
    case selected
    /// Hints and secondary text.
    case dim
    /// The status bar.
    case status
    /// An error in the status bar or a form.
    case error
    /// An overlay box's body.
    case overlay
    /// The highlighted line of an overlay (picker choice, focused field).
    case overlaySelected
}

/// A run of text in one style.
public struct Span: Equatable, Sendable {
    /// The text, without control characters.
    public var text: String
    /// Its style.
    public var style: Style

    /// Creates a span.
    public init(_ text: String, _ style: Style = .normal) {
        self.text = text
        self.style = style
    }
}

/// One screen row: spans drawn left to right.
public struct Line: Equatable, Sendable {
    /// The spans.
    public var spans: [Span]

    /// Creates a line.
    public init(_ spans: [Span]) {
        self.spans = spans
    }

    /// Creates a line of one span.
    public init(_ text: String, _ style: Style = .normal) {
        self.spans = [Span(text, style)]
    }

    /// The text of all spans.
    public var text: String { spans.map(\.text).joined() }
}

/// A box drawn over the screen: the help, the genre picker, the review form.
public struct Overlay: Equatable, Sendable {
    /// The screen row of its first line.
    public var top: Int
    /// The screen column of its left edge.
    public var left: Int
    /// Its width in columns; every line is exactly this wide.
    public var width: Int
    /// Its lines, top to bottom.
    public var lines: [Line]
}

/// What to draw: one ``Line`` per screen row, each exactly as wide as the screen, and maybe an overlay.
public struct Frame: Equatable, Sendable {
    /// The rows, top to bottom; `lines.count` is the screen's row count.
    public var lines: [Line]
    /// A box over the rows, if any.
    public var overlay: Overlay?
}
