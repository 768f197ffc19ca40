import Foundation

/// Unbuffered writes to standard output and standard error, so `watch` output reaches pipes line by line.
enum Console {
    /// Writes text to standard output as is.
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes one line to standard error.
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Whether standard output is a terminal.
    static var isTerminal: Bool {
        isatty(STDOUT_FILENO) == 1
    }
}
