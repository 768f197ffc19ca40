/// What one run of a child process produced.
public struct ProcessResult: Sendable {
    /// The exit status; `nil` when the process died from a signal or was stopped by the hang guard.
    public var exitStatus: Int32?
    /// Everything written to standard output.
    public var standardOutput: String
    /// Everything written to standard error.
    public var standardError: String

    /// Creates a result.
    public init(exitStatus: Int32?, standardOutput: String, standardError: String) {
        self.exitStatus = exitStatus
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Standard output split into lines, without the empty line after the last newline.
    public var outputLines: [String] { Self.lines(standardOutput) }

    /// Standard error split into lines, without the empty line after the last newline.
    public var errorLines: [String] { Self.lines(standardError) }

    private static func lines(_ text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.last == "" ? Array(lines.dropLast()) : lines
    }
}
