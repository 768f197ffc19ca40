import SQLiteKit
import Testing

private struct Abort: Error {}

@Suite struct TransactionTests {
    private func makeConnection() throws -> Connection {
        let connection = try Connection()
        try connection.execute("CREATE TABLE log(entry TEXT)")
        return connection
    }

    private func entries(_ connection: Connection) throws -> [String] {
        try connection.query("SELECT entry FROM log ORDER BY rowid").compactMap { $0["entry"] }
    }

    @Test func commitsWhenTheBodyReturns() throws {
        // given a connection
        let connection = try makeConnection()

        // when a transaction inserts and returns a value
        let id = try connection.transaction(.immediate) {
            try connection.execute("INSERT INTO log VALUES ('a')")
            return connection.lastInsertRowID
        }

        // then the row is committed and the value returned
        #expect(id == 1)
        #expect(try entries(connection) == ["a"])
        #expect(!connection.isInTransaction)
    }

    @Test func rollsBackWhenTheBodyThrows() throws {
        // given a connection with one committed row
        let connection = try makeConnection()
        try connection.execute("INSERT INTO log VALUES ('kept')")

        // when a transaction inserts and then throws
        #expect(throws: Abort.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO log VALUES ('lost')")
                #expect(connection.isInTransaction)
                throw Abort()
            }
        }

        // then its insert is gone
        #expect(try entries(connection) == ["kept"])
        #expect(!connection.isInTransaction)
    }

    @Test func nestsSavepoints() throws {
        // given a transaction with nested savepoints
        let connection = try makeConnection()

        // when the innermost savepoint fails but the middle one succeeds
        try connection.transaction {
            try connection.execute("INSERT INTO log VALUES ('outer')")
            try connection.savepoint("middle") {
                try connection.execute("INSERT INTO log VALUES ('middle')")
                try? connection.savepoint("inner") {
                    try connection.execute("INSERT INTO log VALUES ('inner')")
                    throw Abort()
                }
                try connection.savepoint("inner") {
                    try connection.execute("INSERT INTO log VALUES ('inner again')")
                }
            }
        }

        // then only the failed savepoint's work is undone
        #expect(try entries(connection) == ["outer", "middle", "inner again"])
    }

    @Test func savepointOutsideATransactionCommits() throws {
        // given no open transaction
        let connection = try makeConnection()

        // when savepoints with the same name nest, and the outer one fails after the inner succeeded
        #expect(throws: Abort.self) {
            try connection.savepoint {
                try connection.savepoint {
                    try connection.execute("INSERT INTO log VALUES ('inner')")
                }
                throw Abort()
            }
        }
        try connection.savepoint {
            try connection.execute("INSERT INTO log VALUES ('second')")
        }

        // then the outer rollback undid the inner work, and the second savepoint committed
        #expect(try entries(connection) == ["second"])
        #expect(!connection.isInTransaction)
    }

    @Test func transactionsDoNotNest() throws {
        // given an open transaction
        let connection = try makeConnection()

        // when another one begins inside it
        let error = #expect(throws: SQLiteError.self) {
            try connection.transaction {
                try connection.transaction {}
            }
        }

        // then BEGIN fails and the outer transaction is rolled back
        #expect(error?.message == "cannot start a transaction within a transaction")
        #expect(!connection.isInTransaction)
    }

    @Test func failedCommitRollsBack() throws {
        // given a deferred foreign key that a transaction leaves broken
        let connection = try Connection()
        try connection.execute(
            """
            CREATE TABLE parent(id INTEGER PRIMARY KEY);
            CREATE TABLE child(parent_id INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
            """)

        // when the transaction commits
        let error = #expect(throws: SQLiteError.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO child VALUES (99)")
            }
        }

        // then COMMIT fails with a foreign key error and nothing is kept
        #expect(error?.extendedCode == .constraintForeignKey)
        #expect(!connection.isInTransaction)
        #expect(try connection.query("SELECT * FROM child").isEmpty)
    }
}
