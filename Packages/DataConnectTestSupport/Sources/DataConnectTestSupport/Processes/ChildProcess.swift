import Foundation
import ProcessSpawning
import Synchronization
import Testing

/// A built tool (or any program) run as a child process, the way a user runs it, with events to wait on.
///
/// The child is a ``SpawnedProcess`` (`posix_spawn`, default signal handling, no inherited descriptors). Two
/// threads read its standard output and standard error as they arrive, so a chatty child never blocks on a full
/// pipe, and a third waits for its exit with `waitpid` on its own pid. Every change (bytes read, a stream closed, the
/// exit) is an event: ``wait(upTo:until:)`` re-checks its condition at each one and never polls. The hang guard of
/// each wait only catches hangs.
///
/// ```swift
/// let emulator = try ChildProcess(try BuiltExecutable.require("dataconnect"), ["emulator", "--port", "0"])
/// let url = try #require(await emulator.waitForLine(startingWith: "ready "))
/// ...
/// let result = await emulator.stop(signal: SIGTERM)
/// #expect(result.exitStatus == 0)
/// ```
public final class ChildProcess: Sendable {
    /// How a process ended: `.exit(status)` or `.signal(number)`.
    public typealias Termination = SpawnedProcess.Termination

    /// What the process has produced so far.
    public struct Output: Sendable {
        /// Standard output so far.
        public var standardOutput: String
        /// Standard error so far.
        public var standardError: String
        /// How the process ended; `nil` while it runs.
        public var termination: Termination?
        /// Whether the process has ended and closed both output streams: nothing more will arrive.
        public var isFinished: Bool
    }

    /// The command line, for messages: the program's name and the arguments.
    public let commandLine: String
    /// The child's process id.
    public let processIdentifier: Int32
    private let events: Events
    private let process: SpawnedProcess

    /// Starts a program.
    ///
    /// - Parameters:
    ///   - executable: The program.
    ///   - arguments: The arguments after the program's name.
    ///   - environment: The child's environment; the test runner's when `nil` (see ``environment(adding:)``).
    ///   - workingDirectory: The child's working directory; the test runner's when `nil`.
    ///   - standardInput: Bytes written to the child's standard input, which is then closed; `/dev/null` when `nil`.
    /// - Throws: ``SpawnedProcess/LaunchError`` when the program cannot be started.
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, workingDirectory: URL? = nil,
        standardInput: Data? = nil
    ) throws {
        commandLine = ([executable.lastPathComponent] + arguments).joined(separator: " ")
        let events = Events()
        self.events = events
        let process = try SpawnedProcess(
            executable: executable.path, arguments: arguments, environment: environment,
            workingDirectory: workingDirectory?.path, input: standardInput == nil ? .null : .pipe)
        self.process = process
        processIdentifier = process.processIdentifier
        Self.read(process.standardOutput!, into: events, errors: false)
        Self.read(process.standardError!, into: events, errors: true)
        Thread.detachNewThread { events.terminated(process.waitForExit()) }
        if let writer = process.standardInput, let standardInput {
            Thread.detachNewThread {
                var offset = 0
                while offset < standardInput.count {
                    let written = standardInput.withUnsafeBytes { bytes in
                        write(writer, bytes.baseAddress! + offset, bytes.count - offset)
                    }
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { break }
                    offset += written
                }
                close(writer)
            }
        }
    }

    deinit {
        process.send(SIGKILL)
    }

    /// Runs a program to its end.
    ///
    /// - Parameters:
    ///   - executable: The program.
    ///   - arguments: The arguments.
    ///   - environment: The child's environment; the test runner's when `nil`.
    ///   - workingDirectory: The child's working directory.
    ///   - standardInput: Bytes for standard input.
    ///   - limit: The hang guard: a process still running after it is killed, its exit status is `nil`, and the
    ///     test fails saying so.
    /// - Returns: The exit status and both output streams.
    /// - Throws: ``SpawnedProcess/LaunchError`` when the program cannot be started.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, workingDirectory: URL? = nil,
        standardInput: Data? = nil, upTo limit: Duration = HangGuard.process,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ProcessResult {
        let child = try ChildProcess(
            executable, arguments, environment: environment, workingDirectory: workingDirectory,
            standardInput: standardInput)
        return await child.waitForExit(upTo: limit, sourceLocation: sourceLocation)
    }

    /// A small environment for a child: `PATH`, `HOME` and `TMPDIR` from the test runner, then `extra`.
    ///
    /// Nothing else is inherited, so a variable set where the tests run (`NO_COLOR`, an emulator host) cannot
    /// change what the child does.
    public static func environment(adding extra: [String: String] = [:]) -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["PATH", "HOME", "TMPDIR"] {
            if let value = ProcessInfo.processInfo.environment[name] { environment[name] = value }
        }
        environment.merge(extra) { _, new in new }
        return environment
    }

    // MARK: State

    /// What the process has produced so far.
    public var output: Output { events.snapshot() }

    /// Standard output so far.
    public var standardOutput: String { output.standardOutput }

    /// Standard error so far.
    public var standardError: String { output.standardError }

    /// Whether the process has not ended yet.
    public var isRunning: Bool { output.termination == nil }

    // MARK: Signals

    /// Sends a signal, e.g. `SIGINT`; nothing once the process has ended.
    public func send(_ signal: Int32) {
        process.send(signal)
    }

    /// Sends a signal and waits for the process to end.
    ///
    /// - Parameters:
    ///   - signal: The signal, `SIGTERM` by default.
    ///   - limit: The hang guard.
    /// - Returns: What the process produced; its exit status is `nil` when a signal ended it.
    @discardableResult
    public func stop(
        signal: Int32 = SIGTERM, upTo limit: Duration = HangGuard.process,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ProcessResult {
        send(signal)
        return await waitForExit(upTo: limit, sourceLocation: sourceLocation)
    }

    // MARK: Waiting

    /// Waits until `condition` holds for what the process has produced, checking it again at each event.
    ///
    /// - Parameters:
    ///   - limit: The hang guard.
    ///   - condition: What the test waits for.
    /// - Returns: The output that satisfied `condition`; `nil` when the process finished without satisfying it,
    ///   or when the hang guard passed.
    public func wait(upTo limit: Duration = HangGuard.process, until condition: (Output) -> Bool) async -> Output? {
        let (observer, changes, continuation) = events.observe()
        defer { events.stopObserving(observer) }
        let hangGuard = Task {
            try? await Task.sleep(for: limit)
            continuation.finish()
        }
        defer { hangGuard.cancel() }
        var current = events.snapshot()
        if condition(current) { return current }
        if current.isFinished { return nil }
        for await _ in changes {
            current = events.snapshot()
            if condition(current) { return current }
            if current.isFinished { return nil }
        }
        return nil
    }

    /// Waits until standard output contains `text`.
    ///
    /// - Returns: Whether it appeared; `false` when the process finished without it or the hang guard passed.
    public func waitForOutput(containing text: String, upTo limit: Duration = HangGuard.process) async -> Bool {
        await wait(upTo: limit) { $0.standardOutput.contains(text) } != nil
    }

    /// Waits until standard error contains `text`.
    ///
    /// - Returns: Whether it appeared; `false` when the process finished without it or the hang guard passed.
    public func waitForError(containing text: String, upTo limit: Duration = HangGuard.process) async -> Bool {
        await wait(upTo: limit) { $0.standardError.contains(text) } != nil
    }

    /// Waits for a whole line of standard output starting with `prefix`, e.g. the emulator's `ready <url>`.
    ///
    /// - Returns: The rest of the line after `prefix`; `nil` when the process finished without printing it, or
    ///   when the hang guard passed.
    public func waitForLine(startingWith prefix: String, upTo limit: Duration = HangGuard.process) async -> String? {
        func line(in output: Output) -> Substring? {
            output.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .first { $0.hasPrefix(prefix) }
        }
        guard let output = await wait(upTo: limit, until: { line(in: $0) != nil }), let found = line(in: output)
        else { return nil }
        return String(found.dropFirst(prefix.count))
    }

    /// Waits for the process to end and close its output.
    ///
    /// A process still running after the hang guard is killed, and the test fails saying so.
    ///
    /// - Returns: The exit status (`nil` when a signal ended the process or the hang guard passed) and the output.
    public func waitForExit(
        upTo limit: Duration = HangGuard.process, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ProcessResult {
        var finished = await wait(upTo: limit) { $0.isFinished }
        var timedOut = false
        if finished == nil {
            timedOut = true
            HangGuard.record("\(commandLine) was still running", limit: limit, sourceLocation: sourceLocation)
            send(SIGKILL)
            finished = await wait(upTo: limit) { $0.termination != nil }
        }
        let output = finished ?? self.output
        var status: Int32?
        if !timedOut, case .exit(let code) = output.termination { status = code }
        return ProcessResult(
            exitStatus: status, standardOutput: output.standardOutput, standardError: output.standardError)
    }

    // MARK: Reading

    /// Reads a stream on its own thread until the child closes it, then closes it.
    private static func read(_ descriptor: Int32, into events: Events, errors: Bool) {
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    events.append(buffer[..<count], errors: errors)
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(descriptor)
            events.closeStream()
        }
    }
}

/// The output, the exit and the observers of one child process, shared with its reader threads.
private final class Events: Sendable {
    private struct State {
        var output: [UInt8] = []
        var errors: [UInt8] = []
        var openStreams = 2
        var termination: ChildProcess.Termination?
        var observers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextObserver = 0
    }

    private let state = Mutex(State())

    func append(_ bytes: ArraySlice<UInt8>, errors: Bool) {
        change { state in
            if errors { state.errors += bytes } else { state.output += bytes }
        }
    }

    func closeStream() {
        change { $0.openStreams -= 1 }
    }

    func terminated(_ termination: ChildProcess.Termination) {
        change { $0.termination = termination }
    }

    func snapshot() -> ChildProcess.Output {
        state.withLock { state in
            ChildProcess.Output(
                standardOutput: String(decoding: state.output, as: UTF8.self),
                standardError: String(decoding: state.errors, as: UTF8.self), termination: state.termination,
                isFinished: state.termination != nil && state.openStreams == 0)
        }
    }

    /// A stream that yields after each change, and the continuation that ends it.
    func observe() -> (Int, AsyncStream<Void>, AsyncStream<Void>.Continuation) {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let observer = state.withLock { state in
            defer { state.nextObserver += 1 }
            state.observers[state.nextObserver] = continuation
            return state.nextObserver
        }
        return (observer, stream, continuation)
    }

    func stopObserving(_ observer: Int) {
        state.withLock { $0.observers.removeValue(forKey: observer) }?.finish()
    }

    /// Applies a change, then tells every observer.
    private func change(_ body: (inout State) -> Void) {
        let observers = state.withLock { state in
            body(&state)
            return Array(state.observers.values)
        }
        for observer in observers { observer.yield() }
    }
}
