import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, reaped with `waitpid`: the one way this repository runs programs.
///
/// Foundation's `Process` learns that a child ended from `SIGCHLD`, which can miss a child when several are
/// launched from concurrent tests, leaving `waitUntilExit()` (or the termination handler) waiting for ever. Here the
/// caller waits for its own child's pid, so nothing else can take its exit.
///
/// The child starts with default signal handling and an empty signal mask, whatever the parent ignores or blocks,
/// and with none of the parent's descriptors besides its standard input, output and error (where the C library can
/// close them: glibc 2.34 and later). Standard output and error go to pipes the parent reads, to a file, or nowhere;
/// standard error can share standard output's pipe.
///
/// ```swift
/// let child = try SpawnedProcess(executable: "/bin/sh", arguments: ["-c", "echo hi; exit 3"])
/// let output = child.readAll(child.standardOutput!)   // "hi\n"
/// child.waitForExit()                                 // .exit(3)
/// ```
///
/// ``run(_:_:environment:workingDirectory:)`` does all of it for a program that runs to its end.
public final class SpawnedProcess: Sendable {
    /// How a process ended.
    public enum Termination: Hashable, Sendable, CustomStringConvertible {
        /// It exited with a status.
        case exit(Int32)
        /// A signal ended it.
        case signal(Int32)

        /// The exit status, or 128 + the signal number, as a shell reports it.
        public var shellStatus: Int32 {
            switch self {
            case .exit(let status): status
            case .signal(let signal): 128 + signal
            }
        }

        /// `exit 3` or `signal 9`.
        public var description: String {
            switch self {
            case .exit(let status): "exit \(status)"
            case .signal(let signal): "signal \(signal)"
            }
        }
    }

    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe whose writing end is ``standardInput``.
        case pipe
    }

    /// Where the child's standard output or error goes.
    public enum Output: Sendable {
        /// A pipe whose reading end is ``standardOutput`` (or ``standardError``).
        case pipe
        /// A file, created or truncated (mode 0600).
        case file(String)
        /// `/dev/null`.
        case null
        /// The same place as standard output (for standard error only).
        case standardOutput
    }

    /// Why a program could not be started.
    public struct LaunchError: Error, Sendable, CustomStringConvertible {
        /// The program, and why.
        public var description: String
    }

    /// The child's process id.
    public let processIdentifier: pid_t
    /// The writing end of the child's standard input, with ``Input/pipe``; the caller closes it.
    public let standardInput: Int32?
    /// The reading end of the child's standard output, with ``Output/pipe``; the caller closes it.
    public let standardOutput: Int32?
    /// The reading end of the child's standard error, with ``Output/pipe``; the caller closes it.
    public let standardError: Int32?

    /// The termination once the child is reaped; while it is `nil` the pid is still ours, so signals cannot reach
    /// another process that reused it.
    private let reaped = Mutex<Termination?>(nil)

    /// Starts a program.
    ///
    /// - Parameters:
    ///   - executable: The program's path (no `PATH` search).
    ///   - arguments: The arguments after the program's name.
    ///   - environment: The child's environment; this process's when `nil`.
    ///   - workingDirectory: The child's working directory; this process's when `nil`.
    ///   - input: Where standard input comes from.
    ///   - output: Where standard output goes.
    ///   - errors: Where standard error goes.
    /// - Throws: ``LaunchError`` when a pipe cannot be made or the program cannot be started.
    public init(
        executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        workingDirectory: String? = nil, input: Input = .null, output: Output = .pipe, errors: Output = .pipe
    ) throws(LaunchError) {
        var parentEnds: [Int32] = []
        var childEnds: [Int32] = []
        defer { for descriptor in childEnds { close(descriptor) } }
        func fail(_ reason: String) -> LaunchError {
            for descriptor in parentEnds { close(descriptor) }
            return LaunchError(description: "cannot run \(executable): \(reason)")
        }
        /// A pipe, both ends closed on exec; `(parent's end, child's end)`.
        func makePipe(childReads: Bool) throws(LaunchError) -> (Int32, Int32) {
            guard let (readEnd, writeEnd) = Pipes.make() else { throw fail("no pipe (errno \(errno))") }
            let ends = childReads ? (writeEnd, readEnd) : (readEnd, writeEnd)
            parentEnds.append(ends.0)
            childEnds.append(ends.1)
            return ends
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }

        var inputEnd: Int32?
        switch input {
        case .null:
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .pipe:
            let (parent, child) = try makePipe(childReads: true)
            inputEnd = parent
            posix_spawn_file_actions_adddup2(&actions, child, 0)
        }
        var outputEnd: Int32?
        var errorEnd: Int32?
        for (target, destination) in [(Int32(1), output), (Int32(2), errors)] {
            switch destination {
            case .pipe:
                let (parent, child) = try makePipe(childReads: false)
                if target == 1 { outputEnd = parent } else { errorEnd = parent }
                posix_spawn_file_actions_adddup2(&actions, child, target)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .standardOutput:
                posix_spawn_file_actions_adddup2(&actions, 1, target)
            }
        }
        _ = SpawnExtensions.addCloseFrom.map { $0(&actions, 3) }
        if let workingDirectory {
            guard let addChangeDirectory = SpawnExtensions.addChangeDirectory else {
                throw fail("this C library cannot set a child's working directory")
            }
            _ = addChangeDirectory(&actions, workingDirectory)
        }

        // Default signal dispositions and an empty mask, whatever this process ignores or blocks.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map {
            $0.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var pid: pid_t = 0
        let spawned =
            if let envp {
                posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            } else {
                posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
            }
        guard spawned == 0 else { throw fail(String(cString: strerror(spawned))) }
        processIdentifier = pid
        standardInput = inputEnd
        standardOutput = outputEnd
        standardError = errorEnd
    }

    /// Runs a program to its end, reading its standard output and error as they arrive.
    ///
    /// - Parameters:
    ///   - executable: The program's path.
    ///   - arguments: The arguments after the program's name.
    ///   - environment: The child's environment; this process's when `nil`.
    ///   - workingDirectory: The child's working directory; this process's when `nil`.
    ///   - mergingErrors: Whether standard error goes to the same pipe as standard output (interleaved as written).
    /// - Returns: How it ended, its standard output and its standard error (empty when merged).
    /// - Throws: ``LaunchError`` when the program cannot be started.
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        workingDirectory: String? = nil, mergingErrors: Bool = false
    ) throws(LaunchError) -> (termination: Termination, output: [UInt8], errors: [UInt8]) {
        let child = try SpawnedProcess(
            executable: executable, arguments: arguments, environment: environment,
            workingDirectory: workingDirectory, errors: mergingErrors ? .standardOutput : .pipe)
        let streams = [child.standardOutput, child.standardError].compactMap { $0 }
        let read = Pipes.drain(streams)
        for descriptor in streams { close(descriptor) }
        let termination = child.waitForExit()
        return (termination, read[0], read.count > 1 ? read[1] : [])
    }

    /// Reads `descriptor` to its end (the child closed it) and returns what it read.
    ///
    /// - Parameter descriptor: A reading end, e.g. ``standardOutput``.
    /// - Returns: The bytes.
    public func readAll(_ descriptor: Int32) -> [UInt8] {
        Pipes.drain([descriptor])[0]
    }

    /// Whether the child has been reaped by ``waitForExit()``.
    public var termination: Termination? { reaped.withLock { $0 } }

    /// Sends `signal` to the child; does nothing once it has been reaped.
    ///
    /// - Parameter signal: The signal, e.g. `SIGTERM`.
    public func send(_ signal: Int32) {
        reaped.withLock { reaped in
            if reaped == nil { kill(processIdentifier, signal) }
        }
    }

    /// Blocks until the child ends, reaps it and returns how it ended; later calls return the same at once.
    ///
    /// The child is reaped under the same lock ``send(_:)`` takes, once it has ended: a signal sent meanwhile reaches
    /// the ended child (a zombie), never a process that reused its pid.
    ///
    /// - Returns: How it ended.
    @discardableResult
    public func waitForExit() -> Termination {
        if let termination { return termination }
        // Wait for the end without reaping, so the pid stays ours until the lock is held.
        var info = siginfo_t()
        while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        return reaped.withLock { reaped in
            if let reaped { return reaped }
            var status: Int32 = 0
            while waitpid(processIdentifier, &status, 0) < 0 && errno == EINTR {}
            // WIFEXITED, WEXITSTATUS and WTERMSIG are macros Swift does not import.
            let termination: Termination =
                status & 0x7F == 0 ? .exit((status >> 8) & 0xFF) : .signal(status & 0x7F)
            reaped = termination
            return termination
        }
    }
}
