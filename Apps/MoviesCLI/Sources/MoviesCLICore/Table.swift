import MoviesModels

/// A table of text, rendered with columns aligned by display width.
///
/// Cells are sanitized (control characters become spaces) and padded by ``DisplayWidth``, so titles such
/// as "Amélie" or "千と千尋の神隠し" line up. Headers are bold and columns marked ``Column/Emphasis/dim``
/// are dimmed when the style has colors; padding is outside the escapes, so alignment never changes.
///
/// ```swift
/// let table = Table(columns: [Table.Column("ID", emphasis: .dim), Table.Column("TITLE")],
///                   rows: [["1", "Amélie"], ["22", "千と千尋"]])
/// print(table.render(style: .plain), terminator: "")
/// // ID  TITLE
/// // 1   Amélie
/// // 22  千と千尋
/// ```
public struct Table: Equatable, Sendable {
    /// One column: its header and how its cells look.
    public struct Column: Equatable, Sendable {
        /// How a column's cells are highlighted.
        public enum Emphasis: Equatable, Sendable {
            /// As is.
            case none
            /// Dimmed, for ids.
            case dim
        }

        /// The header text.
        public var title: String
        /// Whether cells are aligned right (numbers).
        public var alignRight: Bool
        /// How cells are highlighted.
        public var emphasis: Emphasis

        /// Creates a column.
        public init(_ title: String, alignRight: Bool = false, emphasis: Emphasis = .none) {
            self.title = title
            self.alignRight = alignRight
            self.emphasis = emphasis
        }
    }

    /// The columns.
    public var columns: [Column]
    /// The rows; each has one cell per column (missing cells are empty).
    public var rows: [[String]]

    /// Creates a table.
    public init(columns: [Column], rows: [[String]]) {
        self.columns = columns
        self.rows = rows
    }

    /// The table as lines separated by two spaces between columns, each ending with a newline; no trailing
    /// spaces on any line.
    ///
    /// - Parameter style: Whether to bold headers and dim marked columns.
    /// - Returns: The rendered text.
    public func render(style: TerminalStyle) -> String {
        let cells = rows.map { row in
            columns.indices.map { index in index < row.count ? DisplayWidth.sanitized(row[index]) : "" }
        }
        let widths = columns.indices.map { index in
            cells.reduce(DisplayWidth.of(columns[index].title)) { max($0, DisplayWidth.of($1[index])) }
        }
        var output = line(columns.map(\.title), widths: widths) { _, text in style.bold(text) }
        for row in cells {
            output += line(row, widths: widths) { index, text in
                columns[index].emphasis == .dim ? style.dim(text) : text
            }
        }
        return output
    }

    private func line(
        _ cells: [String], widths: [Int], decorate: (Int, String) -> String
    ) -> String {
        var parts: [String] = []
        for (index, text) in cells.enumerated() {
            let padding = String(repeating: " ", count: max(0, widths[index] - DisplayWidth.of(text)))
            let isLast = index == cells.count - 1
            if columns[index].alignRight {
                parts.append(padding + decorate(index, text))
            } else {
                parts.append(decorate(index, text) + (isLast ? "" : padding))
            }
        }
        var text = parts.joined(separator: "  ")
        while text.last == " " { text.removeLast() }
        return text + "\n"
    }
}
