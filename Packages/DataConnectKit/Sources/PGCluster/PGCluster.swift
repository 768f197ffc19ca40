import Foundation
import PostgreSQLTesting

/// `pg-cluster`: a development PostgreSQL server in a directory, for `make postgres`.
///
/// ```
/// pg-cluster start .build/postgres            # initdb when missing, start on 127.0.0.1:5432, print the URL
/// pg-cluster start .build/postgres --port 5433
/// pg-cluster stop .build/postgres
/// ```
///
/// `start` leaves the server running after it exits and prints its URL
/// (`postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable`), ready for
/// `FIREBASE_DATACONNECT_POSTGRESQL_STRING`; starting a running cluster only prints the URL. The cluster
/// trusts local logins as `postgres`, is durable, and keeps its data until the directory is removed. As root,
/// the server runs as the `postgres` user. Exit status: 0 on success, 1 on failure, 2 for bad arguments.
@main
enum PGCluster {
    static func main() {
        let command: ClusterCommand
        do {
            command = try ClusterCommand.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("pg-cluster: \(error.message)\n\(ClusterCommand.usage)\n".utf8))
            exit(2)
        }
        do {
            switch command {
            case .help:
                print(ClusterCommand.usage)
            case .start(let directory, let port):
                let cluster = try PostgreSQLCluster.start(persistentAt: directory, port: port)
                print(cluster.url)
            case .stop(let directory):
                let wasRunning = try PostgreSQLCluster.stop(persistentAt: directory)
                print(wasRunning ? "stopped \(directory)" : "no server running in \(directory)")
            }
        } catch {
            FileHandle.standardError.write(Data("pg-cluster: \(error)\n".utf8))
            exit(1)
        }
    }
}
