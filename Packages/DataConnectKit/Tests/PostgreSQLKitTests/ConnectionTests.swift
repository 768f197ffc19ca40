import PostgreSQLKit
import PostgreSQLTesting
import Testing

@Suite struct ConnectionTests {
    @Test func connectsWithAURI() throws {
        // given the shared cluster
        let cluster = try PostgreSQLCluster.shared()

        // when connecting with its URL
        let connection = try PGConnection(cluster.url)

        // then the connection describes the server and session
        #expect(connection.isConnected)
        #expect(connection.serverVersion >= 150_000)
        #expect(try connection.serverVersionString.hasPrefix("\(connection.serverVersion / 10_000)."))
        #expect(connection.backendPID > 0)
        #expect(connection.host == "127.0.0.1")
        #expect(connection.port == cluster.port)
        #expect(connection.databaseName == "postgres")
        #expect(connection.userName == "postgres")
        #expect(connection.transactionStatus == .idle)
    }

    @Test func connectsWithKeyValueParameters() throws {
        // given the shared cluster
        let cluster = try PostgreSQLCluster.shared()

        // when connecting with a conninfo string
        let connection = try PGConnection(
            "host=127.0.0.1 port=\(cluster.port) user=postgres dbname=template1 sslmode=disable")

        // then it reaches the database named there, in UTF-8
        #expect(connection.databaseName == "template1")
        let encoding = try connection.query("SHOW client_encoding").string(row: 0, column: 0)
        #expect(encoding == "UTF8")
    }

    @Test func connectionStringOverridesTheDefaults() throws {
        // given a URI that sets the client encoding itself
        let cluster = try PostgreSQLCluster.shared()

        // when connecting
        let connection = try PGConnection(cluster.url + "&client_encoding=LATIN1")

        // then its value wins over the driver's default
        #expect(try connection.query("SHOW client_encoding").string(row: 0, column: 0) == "LATIN1")
    }

    @Test func refusedConnectionNamesHostAndPortOnOneLine() throws {
        // given a port nobody listens on
        let port = try PostgreSQLCluster.freePort()

        // when connecting to it
        let error = #expect(throws: PGError.self) {
            try PGConnection("postgres://postgres@127.0.0.1:\(port)/postgres?sslmode=disable")
        }

        // then the error is one line naming host, port and cause
        #expect(error?.kind == .connection)
        #expect(error?.isConnectionFailure == true)
        #expect(error?.description == "cannot connect to PostgreSQL at 127.0.0.1:\(port): connection refused")
    }

    @Test func unknownDatabaseAndRoleAreOneLineErrors() throws {
        // given the shared cluster
        let cluster = try PostgreSQLCluster.shared()
        let prefix = "cannot connect to PostgreSQL at 127.0.0.1:\(cluster.port): "

        // when connecting to a database or as a role that does not exist
        let noDatabase = #expect(throws: PGError.self) { try PGConnection(cluster.url(database: "no_such_db")) }
        let noRole = #expect(throws: PGError.self) {
            try PGConnection("postgres://ghost@127.0.0.1:\(cluster.port)/postgres?sslmode=disable")
        }

        // then each error says so on one line
        #expect(noDatabase?.description == prefix + #"database "no_such_db" does not exist"#)
        #expect(noRole?.description == prefix + #"role "ghost" does not exist"#)
    }

    @Test func wrongPasswordIsAOneLineError() throws {
        // given a cluster of its own that asks one role for a password
        let cluster = try PostgreSQLCluster.start(name: "auth")
        defer { cluster.stop() }
        try PGConnection(cluster.url).execute("CREATE ROLE alice LOGIN PASSWORD 'right'")
        let hbaPath = cluster.dataDirectory + "/pg_hba.conf"
        let rules = try String(contentsOfFile: hbaPath, encoding: .utf8)
        try ("host all alice 127.0.0.1/32 scram-sha-256\n" + rules)
            .write(toFile: hbaPath, atomically: false, encoding: .utf8)
        try cluster.restart()

        // when logging in with the wrong password, then with the right one
        let error = #expect(throws: PGError.self) {
            try PGConnection("postgres://alice:wrong@127.0.0.1:\(cluster.port)/postgres?sslmode=disable")
        }
        let connection = try PGConnection("postgres://alice:right@127.0.0.1:\(cluster.port)/postgres?sslmode=disable")

        // then the failure is one line naming the user
        #expect(
            error?.description
                == "cannot connect to PostgreSQL at 127.0.0.1:\(cluster.port): "
                + #"password authentication failed for user "alice""#)
        #expect(connection.userName == "alice")
    }

    @Test func quotesIdentifiersAndLiterals() throws {
        // given awkward names and text
        let connection = try TestDatabase.connect()
        let table = #"movie "cuts""#
        let text = #"it's a \ path"#

        // when they go into SQL text quoted
        try connection.execute(
            "CREATE TABLE \(PGConnection.quoteIdentifier(table)) (note text DEFAULT \(PGConnection.quoteLiteral(text)))"
        )
        try connection.execute("INSERT INTO \(PGConnection.quoteIdentifier(table)) DEFAULT VALUES")

        // then they read back unchanged
        #expect(PGConnection.quoteIdentifier(table) == #""movie ""cuts""""#)
        #expect(PGConnection.quoteLiteral("it's") == "'it''s'")
        #expect(PGConnection.quoteLiteral(#"a\b"#) == #"E'a\\b'"#)
        let result = try connection.query("SELECT note FROM \(PGConnection.quoteIdentifier(table))")
        #expect(result.string(row: 0, column: 0) == text)
    }
}
