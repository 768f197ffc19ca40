import Foundation
import PostgreSQLKit
import PostgreSQLTesting

/// A fresh, empty PostgreSQL schema in the test process's PostgreSQL cluster, dropped when released.
///
/// The cluster is ``PostgreSQLCluster/shared()``: started on first use (as the `postgres` user when the
/// tests run as root), one per test process, removed when the process exits. Each schema isolates one test's
/// tables: ``connectionString`` sets the `search_path` to it.
///
/// ```swift
/// let schema = try TestPostgreSQLSchema()
/// let emulator = try Emulator(options: .init(backend: "Backend/movies", postgreSQL: schema.connectionString))
/// ```
public final class TestPostgreSQLSchema: Sendable {
    /// The schema's name (`t_` and 16 hex digits).
    public let name: String
    /// A connection string whose sessions work in the schema.
    public let connectionString: String
    /// The cluster's own connection string.
    public let clusterURL: String

    /// Creates the schema.
    ///
    /// - Throws: ``PostgreSQLClusterError`` when PostgreSQL is not installed or the cluster does not start;
    ///   ``PGError`` when the schema cannot be created.
    public init() throws {
        let cluster = try PostgreSQLCluster.shared()
        var random = SystemRandomNumberGenerator()
        let suffix = String(random.next() as UInt64, radix: 16)
        name = "t_" + String(repeating: "0", count: 16 - suffix.count) + suffix
        clusterURL = cluster.url
        let connection = try PGConnection(cluster.url)
        try connection.execute("CREATE SCHEMA \(name)")
        connectionString = cluster.url + (cluster.url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(name)"
    }

    deinit {
        if let connection = try? PGConnection(clusterURL) {
            try? connection.execute("DROP SCHEMA IF EXISTS \(name) CASCADE")
        }
    }
}
