import Foundation
import PostgreSQLKit
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PostgreSQL server of our own: a throwaway cluster for tests, or a persistent one for development.
///
/// ```swift
/// let cluster = try PostgreSQLCluster.shared()  // one per test process, removed at exit
/// let url = try cluster.createDatabase("movies_\(UInt32.random(in: 0...UInt32.max))")
/// let connection = try PGConnection(url)
/// ```
///
/// A throwaway cluster (``start(name:)``) lives in a fresh temporary directory, listens on 127.0.0.1 on a free
/// port and on a Unix socket in its directory, trusts every local login as user `postgres`, and trades
/// durability for speed (`fsync`, `synchronous_commit` and `full_page_writes` off). ``stop()`` stops the
/// server and removes the directory. Clusters left behind by crashed processes are stopped and removed by the
/// next ``start(name:)``: each directory records its owner's process ID.
///
/// The server programs come from `pg_config --bindir` or `/usr/lib/postgresql/*/bin`. PostgreSQL refuses to
/// run as root, so as root they run as the `postgres` user. When PostgreSQL is not installed, starting fails
/// with an error saying how to install it: tests that need a server fail rather than skip.
public final class PostgreSQLCluster: Sendable {
    /// The prefix of throwaway cluster directories in the temporary directory.
    static let temporaryPrefix = "dataconnect-pg-"

    /// The directory holding the cluster: `data/`, the server `log`, and the Unix socket.
    public let directory: String
    /// The TCP port the server listens on, on 127.0.0.1.
    public let port: Int
    /// Whether ``stop()`` removes ``directory``.
    public let isTemporary: Bool
    let tools: PostgreSQLServerTools
    private let running: Mutex<Bool>

    private init(directory: String, port: Int, isTemporary: Bool, tools: PostgreSQLServerTools) {
        self.directory = directory
        self.port = port
        self.isTemporary = isTemporary
        self.tools = tools
        self.running = Mutex(true)
    }

    deinit {
        if isTemporary { stop() }
    }

    /// The cluster's data directory (`initdb -D`).
    public var dataDirectory: String {
        directory + "/data"
    }

    /// The server log.
    public var logFile: String {
        directory + "/log"
    }

    /// The URL of the `postgres` database: `postgres://postgres@127.0.0.1:<port>/postgres?sslmode=disable`.
    public var url: String {
        url(database: "postgres")
    }

    /// The URL of `database` on this cluster, as user `postgres`.
    public func url(database: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let path = database.addingPercentEncoding(withAllowedCharacters: allowed) ?? database
        return "postgres://postgres@127.0.0.1:\(port)/\(path)?sslmode=disable"
    }

    /// Creates a database and returns its URL.
    ///
    /// - Throws: `PGError`, e.g. when the database exists already.
    public func createDatabase(_ name: String) throws -> String {
        let connection = try PGConnection(url)
        try connection.execute("CREATE DATABASE " + PGConnection.quoteIdentifier(name))
        return url(database: name)
    }

    // MARK: Throwaway clusters

    /// Starts a throwaway cluster in a new temporary directory, on a free port.
    ///
    /// Runs `initdb` and `pg_ctl start`, waiting (`pg_ctl -w`) until the server accepts connections. First
    /// removes clusters whose owning process has died.
    ///
    /// - Parameter name: A word to find the directory by (`/tmp/dataconnect-pg-<name>-XXXXXX`).
    /// - Returns: The running cluster; stop it with ``stop()``.
    /// - Throws: ``PostgreSQLClusterError`` when PostgreSQL is not installed or the server does not start,
    ///   with the program's output or the log's tail.
    public static func start(name: String? = nil) throws -> PostgreSQLCluster {
        let tools = try PostgreSQLServerTools.locate()
        removeStaleClusters(tools: tools)
        let directory = try makeTemporaryDirectory(name: name)
        do {
            try "\(getpid())\n".write(toFile: directory + "/owner.pid", atomically: false, encoding: .utf8)
            try tools.handOver(directory)
            try initialize(dataDirectory: directory + "/data", tools: tools, durable: false)
            var attempt = 1
            while true {
                let port = try freePort()
                do {
                    try startServer(directory: directory, port: port, tools: tools, durable: false)
                    return PostgreSQLCluster(directory: directory, port: port, isTemporary: true, tools: tools)
                } catch let error as PostgreSQLClusterError where attempt < 5 && error.isPortTaken {
                    attempt += 1  // Another process took the port between our probe and the server's bind.
                }
            }
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Stops the server (`pg_ctl stop -m fast`) and, for a throwaway cluster, removes its directory.
    ///
    /// Stopping a stopped cluster does nothing. Failures are ignored: this runs at exit and in `deinit`.
    public func stop() {
        running.withLock { running in
            if running {
                _ = try? tools.run("pg_ctl", ["-D", dataDirectory, "-m", "fast", "-w", "stop"], in: directory)
                running = false
            }
            if isTemporary {
                try? FileManager.default.removeItem(atPath: directory)
            }
        }
    }

    /// Stops the server (`-m fast`, which ends every session) and starts it again on the same port and data.
    ///
    /// Connections made before fail with a connection error until `PGConnection.reset()`.
    ///
    /// - Throws: ``PostgreSQLClusterError`` when the server does not start again.
    public func restart() throws {
        try running.withLock { running in
            if running {
                let stopped = try tools.run("pg_ctl", ["-D", dataDirectory, "-m", "fast", "-w", "stop"], in: directory)
                guard stopped.status == 0 else {
                    throw PostgreSQLClusterError("pg_ctl stop failed:\n\(stopped.output)")
                }
                running = false
            }
            try PostgreSQLCluster.startServer(directory: directory, port: port, tools: tools, durable: !isTemporary)
            running = true
        }
    }

    // MARK: Persistent clusters

    /// Starts the cluster in `directory`, creating and initializing it when missing; a running one is left as
    /// it is.
    ///
    /// For development servers (`pg-cluster start`): the server is durable (default `fsync`) and keeps running
    /// after this process exits. ``stop()`` stops it without removing anything.
    ///
    /// - Parameters:
    ///   - directory: Where the cluster lives (`data/`, `log`, the Unix socket).
    ///   - port: The TCP port to listen on, on 127.0.0.1; a running server keeps the port it has.
    /// - Throws: ``PostgreSQLClusterError``.
    public static func start(persistentAt directory: String, port: Int = 5432) throws -> PostgreSQLCluster {
        let tools = try PostgreSQLServerTools.locate()
        let directory = URL(fileURLWithPath: directory).standardizedFileURL.path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try tools.handOver(directory)
        let dataDirectory = directory + "/data"
        if let runningPort = runningPort(dataDirectory: dataDirectory, tools: tools, in: directory) {
            return PostgreSQLCluster(directory: directory, port: runningPort, isTemporary: false, tools: tools)
        }
        if !FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION") {
            try initialize(dataDirectory: dataDirectory, tools: tools, durable: true)
        }
        try startServer(directory: directory, port: port, tools: tools, durable: true)
        return PostgreSQLCluster(directory: directory, port: port, isTemporary: false, tools: tools)
    }

    /// Stops the cluster in `directory` (`pg_ctl stop -m fast`).
    ///
    /// - Returns: Whether a server was running.
    /// - Throws: ``PostgreSQLClusterError`` when PostgreSQL is not installed or the server does not stop.
    @discardableResult
    public static func stop(persistentAt directory: String) throws -> Bool {
        let tools = try PostgreSQLServerTools.locate()
        let directory = URL(fileURLWithPath: directory).standardizedFileURL.path
        let dataDirectory = directory + "/data"
        guard runningPort(dataDirectory: dataDirectory, tools: tools, in: directory) != nil else { return false }
        let stopped = try tools.run("pg_ctl", ["-D", dataDirectory, "-m", "fast", "-w", "stop"], in: directory)
        guard stopped.status == 0 else {
            throw PostgreSQLClusterError("pg_ctl stop failed:\n\(stopped.output)")
        }
        return true
    }

    // MARK: Running the programs

    /// Runs `initdb`: superuser `postgres`, trust authentication, UTF-8 with the `C.UTF-8` locale.
    private static func initialize(dataDirectory: String, tools: PostgreSQLServerTools, durable: Bool) throws {
        var arguments = ["-D", dataDirectory, "-U", "postgres", "--auth=trust", "--locale=C.UTF-8", "-E", "UTF8"]
        if !durable { arguments.append("--no-sync") }
        let parent = (dataDirectory as NSString).deletingLastPathComponent
        let result = try tools.run("initdb", arguments, in: parent)
        guard result.status == 0 else {
            throw PostgreSQLClusterError("initdb failed for \(dataDirectory):\n\(result.output)")
        }
    }

    /// Runs `pg_ctl start -w` on `port`, with the socket in `directory` and the log in `directory/log`.
    ///
    /// - Throws: ``PostgreSQLClusterError`` with `pg_ctl`'s output and the new part of the log.
    private static func startServer(directory: String, port: Int, tools: PostgreSQLServerTools, durable: Bool) throws {
        var options = ["-p \(port)", "-k \(directory)", "-c listen_addresses=127.0.0.1"]
        if durable {
            options += ["-c max_connections=200"]
        } else {
            // Test suites start many emulators at once, each with a few connections.
            options += [
                "-c max_connections=1000", "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off",
            ]
        }
        let log = directory + "/log"
        let logOffset = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
        let result = try tools.run(
            "pg_ctl", ["-D", directory + "/data", "-l", log, "-w", "-o", options.joined(separator: " "), "start"],
            in: directory)
        guard result.status == 0 else {
            let logTail = tail(of: log, from: logOffset)
            throw PostgreSQLClusterError(
                "PostgreSQL did not start on port \(port) in \(directory):\n\(result.output)\nserver log:\n\(logTail)")
        }
    }

    /// The port of the server running on `dataDirectory` (line 4 of `postmaster.pid`), or `nil` when none runs.
    private static func runningPort(dataDirectory: String, tools: PostgreSQLServerTools, in directory: String) -> Int? {
        guard FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION"),
            let status = try? tools.run("pg_ctl", ["-D", dataDirectory, "status"], in: directory), status.status == 0
        else { return nil }
        let lines = (try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8))?
            .split(separator: "\n", omittingEmptySubsequences: false)
        return lines.flatMap { $0.count > 3 ? Int($0[3].trimmingCharacters(in: .whitespaces)) : nil }
    }

    /// The last 40 lines of `path` written after `offset`.
    private static func tail(of path: String, from offset: Int) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "(no log at \(path))" }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(offset))
        let text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(40).joined(separator: "\n")
    }

    // MARK: Directories and ports

    /// The directory throwaway clusters go in: `TMPDIR`, except as root, where the `postgres` user must be able
    /// to reach it, so `/tmp`.
    public static var temporaryRoot: String {
        if geteuid() != 0, let directory = ProcessInfo.processInfo.environment["TMPDIR"], !directory.isEmpty {
            return directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        }
        return "/tmp"
    }

    /// Creates `<temporary root>/dataconnect-pg-<name>-XXXXXX`.
    private static func makeTemporaryDirectory(name: String?) throws -> String {
        let word = name.map { name in
            String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }.prefix(32)) + "-"
        }
        var template = Array("\(temporaryRoot)/\(temporaryPrefix)\(word ?? "")XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw PostgreSQLClusterError("cannot create a temporary directory in \(temporaryRoot): errno \(errno)")
        }
        return String(cString: created)
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago: the kernel picks one for a socket bound to port 0.
    ///
    /// Also a port nobody listens on, for tests of refused connections.
    ///
    /// - Throws: ``PostgreSQLClusterError`` when no socket can be bound.
    public static func freePort() throws -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw PostgreSQLClusterError("cannot open a socket: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else { throw PostgreSQLClusterError("cannot find a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

extension PostgreSQLClusterError {
    /// Whether the server could not start because its port was taken.
    var isPortTaken: Bool {
        message.contains("could not bind") || message.contains("Address already in use")
    }
}
