import PostgreSQLKit
import PostgreSQLTesting
import Testing

@Suite struct RecoveryTests {
    @Test func resetReconnectsAfterTheServerRestarts() throws {
        // given a cluster of its own, a connection and a prepared statement
        let cluster = try PostgreSQLCluster.start(name: "restart")
        defer { cluster.stop() }
        let connection = try PGConnection(cluster.url)
        try connection.execute("CREATE TABLE kept(id int); INSERT INTO kept VALUES (7)")
        let select = try connection.prepare("SELECT id FROM kept WHERE id = $1")
        let oldPID = connection.backendPID

        // when the server restarts
        try cluster.restart()

        // then the next statement fails as a connection failure
        let error = #expect(throws: PGError.self) { try connection.query("SELECT 1") }
        #expect(error?.isConnectionFailure == true)
        #expect(error?.description.contains("\n") == false)
        #expect(!connection.isConnected)

        // when resetting, then the connection works again, with a new session, and the statement re-prepares
        try connection.reset()
        #expect(connection.isConnected)
        #expect(connection.backendPID != oldPID)
        #expect(try select.execute([7]).int64(row: 0, column: 0) == 7)
    }

    @Test func resetFailsWhileTheServerIsDown() throws {
        // given a connection to a cluster that then stops
        let cluster = try PostgreSQLCluster.start(name: "down")
        let connection = try PGConnection(cluster.url)
        cluster.stop()

        // when resetting
        let error = #expect(throws: PGError.self) { try connection.reset() }

        // then the error names the server
        #expect(error?.kind == .connection)
        #expect(error?.description.hasPrefix("cannot connect to PostgreSQL at 127.0.0.1:\(cluster.port): ") == true)
        #expect(error?.description.contains("\n") == false)
    }
}
