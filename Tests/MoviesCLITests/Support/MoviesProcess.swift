import Foundation
import Testing

/// What one run of the `movies` executable produced.
struct ProcessResult: Sendable {
    /// The exit status; `nil` when the process died from a signal or was stopped by the hang guard.
    var exitStatus: Int32?
    /// Everything written to standard output.
    var standardOutput: String
    /// Everything written to standard error.
    var standardError: String

    /// Standard output split into lines, without the empty line after the last newline.
    var outputLines: [String] {
        standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastEmpty()
    }

    /// Standard error split into lines, without the empty line after the last newline.
    var errorLines: [String] {
        standardError.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastEmpty()
    }
}

extension Array where Element == String {
    fileprivate func dropLastEmpty() -> [String] {
        last == "" ? Array(dropLast()) : self
    }
}

/// Runs the built `movies` executable as a separate process, the way a user does.
enum MoviesProcess {
    /// Why the executable could not be run.
    struct LaunchError: Error, CustomStringConvertible {
        var description: String
    }

    /// How long a test waits for a `movies` process to print something or to exit before it calls it a hang.
    ///
    /// Generous on purpose: the tests share a 2-core machine with other builds, where a debug process can be slow.
    /// It only catches hangs; speed is measured by the benchmarks (`make bench-*`).
    static let hangGuard: Duration = .seconds(300)

    /// The built `movies` executable.
    ///
    /// SwiftPM builds it next to the test runner because the test target depends on it: the runner is
    /// `.build/<triple>/debug/<Package>PackageTests.xctest`, and the tool is `.build/<triple>/debug/movies`.
    /// The `MOVIES_EXECUTABLE` environment variable overrides the search.
    static let executable: URL? = {
        let fileManager = FileManager.default
        if let override = ProcessInfo.processInfo.environment["MOVIES_EXECUTABLE"] {
            return fileManager.isExecutableFile(atPath: override) ? URL(fileURLWithPath: override) : nil
        }
        var directories: [URL] = []
        for start in [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments.first ?? ".")] {
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                directories.append(directory)
                directory = directory.deletingLastPathComponent()
            }
        }
        for directory in directories {
            let candidate = directory.appendingPathComponent("movies")
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                fileManager.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        return nil
    }()

    /// Runs `movies` with arguments and waits for it to finish.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - environment: Variables set on top of a minimal environment (`PATH`, `HOME`); `NO_COLOR` is never
    ///     inherited, and the emulator variable only when given here.
    ///   - timeout: The hang guard: a process still running after it is stopped, its exit status is then `nil`,
    ///     and the test fails saying so.
    /// - Returns: The exit status and both output streams.
    /// - Throws: ``LaunchError`` when the executable is missing or cannot be started.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: Duration = hangGuard
    ) async throws -> ProcessResult {
        try await RunningProcess(arguments, environment: environment).waitForExit(timeout: timeout)
    }

    /// The environment a child gets: `PATH` and `HOME` from the runner, then `extra`.
    static func childEnvironment(_ extra: [String: String]) -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["PATH", "HOME", "TMPDIR"] {
            if let value = ProcessInfo.processInfo.environment[name] { environment[name] = value }
        }
        environment.merge(extra) { _, new in new }
        return environment
    }
}

/// A `movies` process started in the background, e.g. `watch`, with its output going to temporary files.
final class RunningProcess: @unchecked Sendable {
    private let process = Process()
    private let scratch: TemporaryDirectory
    private let outputURL: URL
    private let errorURL: URL
    private let output: FileHandle
    private let error: FileHandle

    /// Starts `movies` with arguments.
    ///
    /// - Throws: ``MoviesProcess/LaunchError`` when the executable is missing or cannot be started.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        guard let executable = MoviesProcess.executable else {
            throw MoviesProcess.LaunchError(
                description: "no built `movies` next to \(Bundle.main.bundleURL.path); run `swift build` first")
        }
        scratch = try TemporaryDirectory(prefix: "movies-output")
        outputURL = scratch.url.appendingPathComponent("stdout")
        errorURL = scratch.url.appendingPathComponent("stderr")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        output = try FileHandle(forWritingTo: outputURL)
        error = try FileHandle(forWritingTo: errorURL)
        process.executableURL = executable
        process.arguments = arguments
        process.environment = MoviesProcess.childEnvironment(environment)
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw MoviesProcess.LaunchError(description: "cannot start \(executable.path): \(error)")
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
        scratch.remove()
    }

    /// Whether the process is still running.
    var isRunning: Bool { process.isRunning }

    /// What the process has written to standard output so far.
    var standardOutputSoFar: String {
        String(decoding: FileManager.default.contents(atPath: outputURL.path) ?? Data(), as: UTF8.self)
    }

    /// Sends a signal, e.g. `SIGINT`.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Stops the process with SIGTERM.
    func terminate() {
        process.terminate()
    }

    /// Waits until standard output contains `text`, the process exits, or the hang guard passes.
    ///
    /// - Returns: Whether the text appeared.
    func waitForOutput(containing text: String, timeout: Duration = MoviesProcess.hangGuard) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if standardOutputSoFar.contains(text) { return true }
            if !isRunning { return standardOutputSoFar.contains(text) }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Waits for the process to exit and returns what it produced.
    ///
    /// A process still running after the hang guard (`timeout`) is stopped, and the test fails saying so.
    func waitForExit(timeout: Duration = MoviesProcess.hangGuard) async throws -> ProcessResult {
        let deadline = ContinuousClock.now + timeout
        var timedOut = false
        while isRunning {
            if ContinuousClock.now > deadline {
                timedOut = true
                process.terminate()
                let command = (["movies"] + (process.arguments ?? [])).joined(separator: " ")
                Issue.record("hang guard: \(command) was still running after \(timeout)")
                break
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return try finish(timedOut: timedOut)
    }

    /// Reaps the finished process and reads its output.
    fileprivate func finish(timedOut: Bool) throws -> ProcessResult {
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

/// A fresh directory under the system's temporary folder, removed by ``remove()``.
struct TemporaryDirectory: Sendable {
    /// The directory.
    let url: URL

    /// The directory's path.
    var path: String { url.path }

    /// Creates `<tmp>/<prefix>-<uuid>`.
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
