import DataConnectTestSupport
import Foundation
import Testing

extension ChildProcess {
    /// Runs the built `dataconnect` with arguments to its end, with the test runner's environment.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - workingDirectory: The child's working directory; the test runner's when `nil`.
    ///   - limit: The hang guard (see ``ChildProcess/waitForExit(upTo:sourceLocation:)``).
    /// - Returns: The exit status and both output streams.
    /// - Throws: ``BuiltExecutable/Missing`` when it is not built, or the error of starting it.
    static func dataconnect(
        _ arguments: [String], workingDirectory: URL? = nil, upTo limit: Duration = HangGuard.process
    ) async throws -> ProcessResult {
        try await run(
            BuiltExecutable.require("dataconnect"), arguments, workingDirectory: workingDirectory, upTo: limit)
    }
}
