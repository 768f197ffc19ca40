import Foundation
import PostgreSQLTesting

/// `dataconnect postgres start|stop DIR`: a development PostgreSQL server kept in a directory.
///
/// The same cluster the repository's `make postgres` starts (`PostgreSQLCluster.start(persistentAt:port:)`), so a
/// project made by `dataconnect init` can run its backend on PostgreSQL without this repository: `start` prints the
/// URL for `dataconnect emulator --postgres URL`, and the server keeps running until `stop`.
enum PostgresCommand {
    /// Runs the command; returns the exit status.
    static func run(_ options: PostgresOptions) -> Int32 {
        do {
            switch options.action {
            case .start(let port):
                let cluster = try PostgreSQLCluster.start(persistentAt: options.directory, port: port)
                print(cluster.url)
            case .stop:
                let wasRunning = try PostgreSQLCluster.stop(persistentAt: options.directory)
                print(wasRunning ? "stopped \(options.directory)" : "no server running in \(options.directory)")
            }
            return 0
        } catch {
            DataConnectTool.printError("dataconnect postgres: error: \(error)")
            return 1
        }
    }
}
