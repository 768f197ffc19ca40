import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// PostgreSQL's server programs (`initdb`, `pg_ctl`) and how to run them.
///
/// PostgreSQL refuses to run as root, so when this process is root every program runs as the `postgres`
/// user through `runuser -u postgres --`, and the directories it writes are handed to that user first.
struct PostgreSQLServerTools: Sendable {
    /// The directory holding `initdb` and `pg_ctl`.
    let binDirectory: String
    /// The user and group the programs run as when this process is root; `nil` otherwise.
    let account: (name: String, uid: uid_t, gid: gid_t)?
    /// `runuser`, when programs run as another user.
    let runuser: String?

    /// Finds the server programs: `pg_config --bindir`, else the newest `/usr/lib/postgresql/*/bin`.
    ///
    /// - Throws: ``PostgreSQLClusterError`` saying how to install PostgreSQL when no directory has both
    ///   `initdb` and `pg_ctl`, or when running as root without a `postgres` user or `runuser`.
    static func locate() throws -> PostgreSQLServerTools {
        var candidates: [String] = []
        if let pgConfig = findExecutable("pg_config", in: searchPath()),
            let output = try? run(pgConfig, ["--bindir"], in: "/").output
        {
            let directory = output.trimmingCharacters(in: .whitespacesAndNewlines)
            if !directory.isEmpty { candidates.append(directory) }
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            candidates.append("/usr/lib/postgresql/\(version)/bin")
        }
        guard
            let binDirectory = candidates.first(where: { directory in
                ["initdb", "pg_ctl"].allSatisfy { FileManager.default.isExecutableFile(atPath: "\(directory)/\($0)") }
            })
        else {
            throw PostgreSQLClusterError.notInstalled(
                searched: candidates.isEmpty ? ["pg_config --bindir", "/usr/lib/postgresql/*/bin"] : candidates)
        }
        guard geteuid() == 0 else {
            return PostgreSQLServerTools(binDirectory: binDirectory, account: nil, runuser: nil)
        }
        guard let entry = getpwnam("postgres") else {
            throw PostgreSQLClusterError(
                "PostgreSQL refuses to run as root and there is no `postgres` user to run it as; "
                    + "install the server with `apt-get install postgresql`, which creates one")
        }
        guard let runuser = findExecutable("runuser", in: ["/usr/sbin", "/sbin", "/usr/bin", "/bin"] + searchPath())
        else {
            throw PostgreSQLClusterError("PostgreSQL refuses to run as root and `runuser` (util-linux) is missing")
        }
        return PostgreSQLServerTools(
            binDirectory: binDirectory, account: ("postgres", entry.pointee.pw_uid, entry.pointee.pw_gid),
            runuser: runuser)
    }

    /// Gives `path` to the user the programs run as, when that is not this process's user.
    func handOver(_ path: String) throws {
        guard let account else { return }
        guard chown(path, account.uid, account.gid) == 0 else {
            throw PostgreSQLClusterError("cannot give \(path) to the \(account.name) user: errno \(errno)")
        }
    }

    /// Runs the server program `tool` (`initdb`, `pg_ctl`) with `arguments` in `directory`.
    ///
    /// - Returns: The exit status and the program's standard output and error, interleaved.
    func run(_ tool: String, _ arguments: [String], in directory: String) throws -> (status: Int32, output: String) {
        let program = "\(binDirectory)/\(tool)"
        if let account, let runuser {
            return try PostgreSQLServerTools.run(
                runuser, ["-u", account.name, "--", program] + arguments, in: directory)
        }
        return try PostgreSQLServerTools.run(program, arguments, in: directory)
    }

    /// Runs `tool` with `arguments` in `directory`, waiting for it to exit.
    ///
    /// Standard output and error share one pipe, so a chatty program cannot block on a full pipe that is not
    /// being read; standard input is `/dev/null`. The program gets no other descriptor of this process, so a
    /// server it leaves running holds none of our pipes open, and it starts with default signal handling.
    ///
    /// This uses `posix_spawn` and a blocking `waitpid` on the child rather than Foundation's `Process`, whose
    /// exit detection through `SIGCHLD` can miss a child when several processes are launched from concurrent
    /// tests, leaving `waitUntilExit()` blocked for ever.
    ///
    /// - Returns: The exit status (128 + the signal number when killed) and the output.
    /// - Throws: ``PostgreSQLClusterError`` when the program cannot be launched.
    static func run(
        _ executable: String, _ arguments: [String], in directory: String
    ) throws -> (
        status: Int32, output: String
    ) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else {
            throw PostgreSQLClusterError("cannot run \(executable): no pipe (errno \(errno))")
        }
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        // Keep the pipe out of other programs launched meanwhile (`pipe2` is not imported either).
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        _ = SpawnExtensions.addCloseFrom.map { $0(&actions, 3) }
        _ = SpawnExtensions.addChangeDirectory.map { $0(&actions, directory) }

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
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        close(writeEnd)
        guard spawned == 0 else {
            throw PostgreSQLClusterError("cannot run \(executable): \(String(cString: strerror(spawned)))")
        }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                output += chunk[0..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else {
                throw PostgreSQLClusterError("cannot wait for \(executable): errno \(errno)")
            }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exitStatus, String(decoding: output, as: UTF8.self))
    }

    /// The directories of `PATH`.
    private static func searchPath() -> [String] {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
            .split(separator: ":").map(String.init)
    }

    /// The first executable file named `name` in `directories`.
    private static func findExecutable(_ name: String, in directories: [String]) -> String? {
        directories.lazy.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// glibc's `posix_spawn` extensions, which Swift's `Glibc` module does not declare (they need `_GNU_SOURCE`),
/// looked up at run time; `nil` where the C library lacks them.
private enum SpawnExtensions {
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias AddChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34): close every descriptor from a number up.
    static let addCloseFrom: AddCloseFrom? = lookUp("posix_spawn_file_actions_addclosefrom_np")
    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29): change the child's working directory.
    static let addChangeDirectory: AddChangeDirectory? = lookUp("posix_spawn_file_actions_addchdir_np")

    private static func lookUp<Function>(_ name: String) -> Function? {
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }
}
