import Foundation
import ProcessSpawning

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
    /// Standard output and error share one pipe, so the output reads as the program wrote it; standard input is
    /// `/dev/null`. The program gets no other descriptor of this process, so a server it leaves running holds none
    /// of our pipes open, and it starts with default signal handling.
    ///
    /// This runs on `SpawnedProcess` (`posix_spawn` and a blocking `waitpid` on the child) rather than Foundation's
    /// `Process`, whose exit detection through `SIGCHLD` can miss a child when several processes are launched from
    /// concurrent tests, leaving `waitUntilExit()` blocked for ever.
    ///
    /// - Returns: The exit status (128 + the signal number when killed) and the output.
    /// - Throws: ``PostgreSQLClusterError`` when the program cannot be launched.
    static func run(
        _ executable: String, _ arguments: [String], in directory: String
    ) throws -> (
        status: Int32, output: String
    ) {
        do {
            let (termination, output, _) = try SpawnedProcess.run(
                executable, arguments, workingDirectory: directory, mergingErrors: true)
            return (termination.shellStatus, String(decoding: output, as: UTF8.self))
        } catch {
            throw PostgreSQLClusterError(error.description)
        }
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
