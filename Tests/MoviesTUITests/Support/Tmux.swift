import DataConnectTestSupport
import Foundation
import ProcessSpawning

/// A private tmux server (`tmux -L <socket>`) for driving `movies-tui` in a real terminal.
///
/// Creating one fails, with a message that says so, when tmux is not installed: the end-to-end tests must
/// fail rather than pass silently.
final class Tmux: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let socket: String
    private let executable: URL

    /// Finds tmux on `PATH`.
    ///
    /// - Throws: ``Failure`` when tmux is missing.
    init() throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard
            let found = (path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"])
                .map({ URL(fileURLWithPath: $0).appendingPathComponent("tmux") })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else {
            throw Failure(
                description: "tmux is not installed (apt-get install tmux); the movies-tui end-to-end test needs it")
        }
        executable = found
        socket = "movies-tui-test-\(UUID().uuidString.prefix(8))"
    }

    /// Runs `tmux -L socket ARGUMENTS` and returns its standard output.
    ///
    /// Run and reaped by the shared `posix_spawn` runner rather than `Process`: `Process.waitUntilExit` was seen
    /// never to return for the `new-session` client in the test runner. Output goes to a file, not a pipe, because
    /// the server that `new-session` forks inherits the descriptors and would keep a pipe open. The child starts
    /// with default signal handling whatever the test runner ignores or blocks, so that kill-server's SIGHUP ends
    /// the panes' processes.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outputURL) }
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        environment.removeValue(forKey: "TMUX")
        let termination: SpawnedProcess.Termination
        do {
            termination = try SpawnedProcess(
                executable: executable.path, arguments: ["-L", socket, "-u"] + arguments, environment: environment,
                output: .file(outputURL.path), errors: .standardOutput
            ).waitForExit()
        } catch {
            throw Failure(description: "cannot start tmux: \(error)")
        }
        let text = String(decoding: FileManager.default.contents(atPath: outputURL.path) ?? Data(), as: UTF8.self)
        guard termination == .exit(0) else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed (\(termination)): \(text)")
        }
        return text
    }

    /// Starts a detached 120x40 session running `command` through `sh -c`.
    func start(_ command: String, columns: Int = 120, rows: Int = 40) throws {
        try run([
            "new-session", "-d", "-s", "tui", "-x", "\(columns)", "-y", "\(rows)", "-e", "LANG=C.UTF-8", "-e",
            "LC_ALL=C.UTF-8", "sh", "-c", command,
        ])
    }

    /// Sends tmux key names (`Down`, `Enter`, `C-c`) or single characters.
    func keys(_ keys: String...) throws {
        try run(["send-keys", "-t", "tui"] + keys)
    }

    /// Types text literally.
    func type(_ text: String) throws {
        try run(["send-keys", "-t", "tui", "-l", text])
    }

    /// The visible pane text.
    func screen() throws -> String {
        try run(["capture-pane", "-p", "-t", "tui"])
    }

    /// A tmux format value of the pane, e.g. `#{pane_pid}`.
    func display(_ format: String) throws -> String {
        try run(["display-message", "-p", "-t", "tui", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until the screen satisfies `condition`, or the hang guard passes; returns the last screen either way.
    ///
    /// tmux announces no change of a pane's text, so the screen is captured again until it shows what the test
    /// waits for: the pause between two captures decides nothing, and the hang guard only catches hangs (the
    /// debug TUI can be slow on a busy machine).
    func waitForScreen(
        timeout: Duration = HangGuard.process, _ condition: (String) -> Bool
    ) async throws -> (Bool, String) {
        var screen = ""
        let shown = try await HangGuard.wait(upTo: timeout, every: .milliseconds(100)) {
            screen = try self.screen()
            return condition(screen)
        }
        return (shown, screen)
    }

    /// Waits until the screen contains `text`.
    func waitFor(_ text: String, timeout: Duration = HangGuard.process) async throws -> (Bool, String) {
        try await waitForScreen(timeout: timeout) { $0.contains(text) }
    }

    /// Stops the private server and everything in it: the pane's processes too, even if they outlive SIGHUP.
    func kill() {
        let panePID = (try? display("#{pane_pid}")).flatMap { Int32($0) }
        let processes = panePID.map { [$0] + Self.descendants(of: $0) } ?? []
        _ = try? run(["kill-server"])
        for process in processes { Foundation.kill(process, SIGKILL) }
    }

    /// The pids below `pid` in the process tree, from `/proc`.
    private static func descendants(of pid: Int32) -> [Int32] {
        let path = "/proc/\(pid)/task/\(pid)/children"
        let children = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: " ")
            .compactMap { Int32($0) }
        return children + children.flatMap { descendants(of: $0) }
    }
}
