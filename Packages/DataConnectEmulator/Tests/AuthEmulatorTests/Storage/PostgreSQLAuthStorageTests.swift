import AuthEmulator
import DataConnectWire
import Foundation
import PostgreSQLKit
import PostgreSQLTesting
import Testing

/// ``PostgreSQLAuthStorage`` on a real server: the test process's cluster, a database of its own.
@Suite struct PostgreSQLAuthStorageTests {
    @Test func accountsPersistInTheirOwnSchema() async throws {
        let cluster = try PostgreSQLCluster.shared()
        let database = try cluster.createDatabase("auth_\(UInt32.random(in: 0...UInt32.max))")
        // given
        let localId = try await AuthTestServer.with(storage: try PostgreSQLAuthStorage(connectionString: database)) {
            server in
            let user = try await server.signUp("pg@example.com")
            _ = try await server.send(
                "PATCH", "/emulator/v1/projects/demo-project/config", ["signIn": ["allowDuplicateEmails": true]])
            let other = try await server.signUp("gone@example.com")
            _ = try await server.admin("accounts:delete", ["localId": .string(other["localId"]!)])
            return try #require(user["localId"])
        }
        // when
        try await AuthTestServer.with(storage: try PostgreSQLAuthStorage(connectionString: database)) { server in
            // then
            #expect(server.auth.accounts().map(\.localId) == [localId])
            #expect(server.auth.config().allowDuplicateEmails)
        }
        let connection = try PGConnection(database)
        let tables = try connection.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'dataconnect_auth' ORDER BY 1")
        #expect((0..<tables.rowCount).map { tables.string(row: $0, column: 0) } == ["accounts", "config"])
        let publicTables = try connection.query(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")
        #expect(publicTables.int64(row: 0, column: 0) == 0)
    }
}
