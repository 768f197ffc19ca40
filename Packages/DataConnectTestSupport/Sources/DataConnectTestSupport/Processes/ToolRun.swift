import Foundation
import ProcessSpawning

/// A command-line tool a test prepares its fixtures with (`openssl` making keys and certificates) failed.
public struct ToolFailure: Error, CustomStringConvertible {
    /// The command line and the tool's error output.
    public var description: String
}

/// Runs a tool found on `PATH` in a folder and waits for it, for fixtures that need one.
///
/// ```swift
/// try runTool("openssl", ["genrsa", "-out", "key.pem", "2048"], in: directory)
/// ```
///
/// - Throws: ``ToolFailure`` with the tool's error output when it exits with another status than 0; the spawner's
///   error when it cannot start.
public func runTool(_ tool: String, _ arguments: [String], in directory: URL) throws {
    let (termination, _, errors) = try SpawnedProcess.run(
        "/usr/bin/env", [tool] + arguments, workingDirectory: directory.path)
    guard termination == .exit(0) else {
        let commandLine = ([tool] + arguments).joined(separator: " ")
        throw ToolFailure(description: "\(commandLine): \(String(decoding: errors, as: UTF8.self))")
    }
}
