import PostgreSQLKit
import Testing

@Suite struct TransactionStatusTests {
    @Test func followsBeginSavepointRollbackToAndCommit() throws {
        // given a table
        let connection = try TestDatabase.connect()
        try connection.execute("CREATE TABLE log(entry text)")
        var statuses: [PGTransactionStatus] = [connection.transactionStatus]

        // when a transaction recovers from a failure through a savepoint
        try connection.execute("BEGIN")
        statuses.append(connection.transactionStatus)
        try connection.execute("INSERT INTO log VALUES ('kept'); SAVEPOINT attempt")
        statuses.append(connection.transactionStatus)
        #expect(throws: PGError.self) { try connection.query("SELECT 1 / 0") }
        statuses.append(connection.transactionStatus)
        let blocked = #expect(throws: PGError.self) { try connection.query("SELECT 1") }
        try connection.execute("ROLLBACK TO SAVEPOINT attempt")
        statuses.append(connection.transactionStatus)
        try connection.execute("COMMIT")
        statuses.append(connection.transactionStatus)

        // then the status went through each state, and the work before the savepoint committed
        #expect(statuses == [.idle, .inTransaction, .inTransaction, .inError, .inTransaction, .idle])
        #expect(blocked?.sqlState == "25P02")
        #expect(try connection.query("SELECT entry FROM log").string(row: 0, column: 0) == "kept")
    }

    @Test func rollbackLeavesAFailedTransaction() throws {
        // given a failed transaction
        let connection = try TestDatabase.connect()
        try connection.execute("CREATE TABLE log(entry text)")
        try connection.execute("BEGIN; INSERT INTO log VALUES ('gone')")
        _ = try? connection.query("SELECT 1 / 0")
        #expect(connection.transactionStatus == .inError)

        // when it rolls back
        try connection.execute("ROLLBACK")

        // then nothing was written
        #expect(connection.transactionStatus == .idle)
        #expect(try connection.query("SELECT count(*) FROM log").int64(row: 0, column: 0) == 0)
    }
}
