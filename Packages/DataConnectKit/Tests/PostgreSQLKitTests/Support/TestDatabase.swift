import PostgreSQLKit
import PostgreSQLTesting

/// Fresh databases on the process's shared cluster, one per test, so that tests running in parallel do not
/// see each other's tables.
enum TestDatabase {
    /// Creates an empty database and returns its URL.
    static func makeURL() throws -> String {
        let name = "test_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        return try PostgreSQLCluster.shared().createDatabase(name)
    }

    /// Connects to a new empty database.
    static func connect() throws -> PGConnection {
        try PGConnection(makeURL())
    }
}
