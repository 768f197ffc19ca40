import Foundation
import Testing

/// What one run of the `dataconnect` executable produced.
struct ProcessResult: Sendable {
    /// The exit status; `nil` when the process died from a signal or was stopped by the hang guard.
    var exitStatus: Int32?
    /// Everything written to standard output.
    var standardOutput: String
    /// Everything written to standard error.
    var standardError: String

    /// Standard error split into lines.
    var errorLines: [String] {
        standardError.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}

/// Runs the built `dataconnect` executable as a separate process, the way a user does.
enum DataConnectProcess {
    /// Why the executable could not be run.
    struct LaunchError: Error, CustomStringConvertible {
        var description: String
    }

    /// The built `dataconnect` executable.
    ///
    /// SwiftPM builds it next to the test bundle because the test target depends on it: the test
    /// runner is `.build/<triple>/debug/<Package>PackageTests.xctest` (an executable on Linux, a bundle
    /// on macOS), and the tool is `.build/<triple>/debug/dataconnect`. The `DATACONNECT_EXECUTABLE`
    /// environment variable overrides the search.
    static let executable: URL? = {
        let fileManager = FileManager.default
        if let override = ProcessInfo.processInfo.environment["DATACONNECT_EXECUTABLE"] {
            return fileManager.isExecutableFile(atPath: override) ? URL(fileURLWithPath: override) : nil
        }
        var directories: [URL] = []
        for start in [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments.first ?? ".")] {
            // Walk up from the runner (or from inside a macOS `.xctest` bundle) to the build directory.
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                directories.append(directory)
                directory = directory.deletingLastPathComponent()
            }
        }
        for directory in directories {
            let candidate = directory.appendingPathComponent("dataconnect")
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                fileManager.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        return nil
    }()

    /// Runs `dataconnect` with arguments and waits for it to finish.
    ///
    /// Output goes to temporary files rather than pipes, so a large `--print-sdl` cannot fill a pipe
    /// buffer and block the child.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - workingDirectory: The child's working directory; the test runner's when `nil`.
    ///   - timeout: The hang guard: a process still running after it is stopped, its exit status is then `nil`,
    ///     and the test fails saying so.
    /// - Returns: The exit status and both output streams.
    /// - Throws: ``LaunchError`` when the executable is missing, or when it cannot be started.
    static func run(
        _ arguments: [String], workingDirectory: URL? = nil, timeout: Duration = HangGuard.process
    ) async throws -> ProcessResult {
        guard let executable else {
            throw LaunchError(
                description: "no built `dataconnect` next to \(Bundle.main.bundleURL.path); run `swift build` first")
        }
        let scratch = try TemporaryDirectory(prefix: "dataconnect-output")
        defer { scratch.remove() }
        let outputURL = scratch.url.appendingPathComponent("stdout")
        let errorURL = scratch.url.appendingPathComponent("stderr")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice

        let finished = ProcessCompletion()
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        let deadline = ContinuousClock.now + timeout
        var timedOut = false
        while !finished.isSignalled {
            if ContinuousClock.now > deadline {
                timedOut = true
                process.terminate()
                HangGuard.record("dataconnect \(arguments.joined(separator: " ")) was still running", limit: timeout)
                break
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        process.waitUntilExit()
        try output.close()
        try error.close()

        let exited = process.terminationReason == .exit && !timedOut
        return ProcessResult(
            exitStatus: exited ? process.terminationStatus : nil,
            standardOutput: String(
                decoding: FileManager.default.contents(atPath: outputURL.path) ?? Data(), as: UTF8.self),
            standardError: String(
                decoding: FileManager.default.contents(atPath: errorURL.path) ?? Data(), as: UTF8.self))
    }
}

/// A flag the process's termination handler sets from another thread.
private final class ProcessCompletion: @unchecked Sendable {
    private let lock = NSLock()
    private var signalled = false

    func signal() {
        lock.withLock { signalled = true }
    }

    var isSignalled: Bool {
        lock.withLock { signalled }
    }
}

/// A fresh directory under the system's temporary folder, removed by ``remove()``.
struct TemporaryDirectory {
    /// The directory.
    let url: URL

    /// The directory's path, the way it is passed on a command line.
    var path: String { url.path }

    /// Creates `<tmp>/<prefix>-<uuid>`.
    ///
    /// - Throws: File-system errors.
    init(prefix: String) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Deletes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
