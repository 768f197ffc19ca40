import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PostgreSQLCluster {
    /// The process's shared cluster, or why it could not start.
    private static let sharedCluster = Mutex<Result<PostgreSQLCluster, PostgreSQLClusterError>?>(nil)

    /// The cluster shared by every test of this process: started on first use, stopped and removed at exit.
    ///
    /// Tests isolate themselves by creating their own databases (``createDatabase(_:)``) or tables with unique
    /// names. A test that stops or restarts a server starts its own cluster with ``start(name:)`` instead.
    ///
    /// - Throws: ``PostgreSQLClusterError`` when the cluster cannot start; later calls throw the same error
    ///   without trying again.
    public static func shared() throws -> PostgreSQLCluster {
        try sharedCluster.withLock { slot in
            if let slot { return try slot.get() }
            let result: Result<PostgreSQLCluster, PostgreSQLClusterError>
            do {
                result = .success(try start(name: "shared"))
                atexit { PostgreSQLCluster.stopShared() }
            } catch let error as PostgreSQLClusterError {
                result = .failure(error)
            } catch {
                result = .failure(PostgreSQLClusterError("\(error)"))
            }
            slot = result
            return try result.get()
        }
    }

    /// Stops and removes the shared cluster; registered with `atexit`.
    private static func stopShared() {
        let cluster = sharedCluster.withLock { slot in try? slot?.get() }
        cluster?.stop()
    }

    /// Stops and removes throwaway clusters whose owning process no longer runs.
    ///
    /// Directories without an owner file are left alone: their owner may be creating them right now.
    static func removeStaleClusters(tools: PostgreSQLServerTools) {
        let root = temporaryRoot
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        for entry in entries where entry.hasPrefix(temporaryPrefix) {
            let directory = "\(root)/\(entry)"
            guard let text = try? String(contentsOfFile: directory + "/owner.pid", encoding: .utf8),
                let owner = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                kill(owner, 0) != 0, errno == ESRCH
            else { continue }
            if FileManager.default.fileExists(atPath: directory + "/data/postmaster.pid") {
                _ = try? tools.run(
                    "pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"], in: directory)
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
