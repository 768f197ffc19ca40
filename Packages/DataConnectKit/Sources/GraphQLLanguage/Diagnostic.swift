/// A position in a source file: 1-based line and column (columns count Unicode scalars).
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, counted in Unicode scalars.
    public var column: Int

    /// Creates a location.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// A source file: its name (as printed in diagnostics) and its text.
public struct Source: Hashable, Sendable {
    /// The name printed in diagnostics, usually a path relative to the working directory.
    public var name: String
    /// The file's text.
    public var text: String

    /// Creates a source.
    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}

/// One compiler-style message with a place: `file:line:col: error: message`.
///
/// Every phase (lexing, parsing, schema compilation, operation validation, config loading) reports
/// problems as `Diagnostic` values, so tools print them uniformly.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        case error
        case warning
        case note

        private var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .note: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// The file the diagnostic points into (its display name).
    public var file: String
    /// Where in the file; `nil` for file-level problems.
    public var location: SourceLocation?
    /// Error, warning or note.
    public var severity: Severity
    /// The message, starting lowercase, without a trailing period.
    public var message: String

    /// Creates a diagnostic.
    public init(file: String, location: SourceLocation?, severity: Severity = .error, message: String) {
        self.file = file
        self.location = location
        self.severity = severity
        self.message = message
    }

    /// `file:line:col: error: message` (or `file: error: message` without a location).
    public var description: String {
        if let location {
            return "\(file):\(location.line):\(location.column): \(severity.rawValue): \(message)"
        }
        return "\(file): \(severity.rawValue): \(message)"
    }
}

extension Array where Element == Diagnostic {
    /// Whether any element is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }

    /// Sorted by file, then position, then message: the order tools print them in.
    public func sortedForDisplay() -> [Diagnostic] {
        sorted {
            if $0.file != $1.file { return $0.file < $1.file }
            let l0 = $0.location ?? SourceLocation(line: 0, column: 0)
            let l1 = $1.location ?? SourceLocation(line: 0, column: 0)
            if l0 != l1 { return l0 < l1 }
            return $0.message < $1.message
        }
    }
}
