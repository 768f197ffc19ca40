import PostgreSQLKit
import Testing

@Suite struct PipelineTests {
    private func makeTable() throws -> (PGConnection, PGStatement) {
        let connection = try TestDatabase.connect()
        try connection.execute("CREATE TABLE items(id int PRIMARY KEY, label text NOT NULL)")
        let insert = try connection.prepare("INSERT INTO items VALUES ($1, $2) RETURNING id")
        return (connection, insert)
    }

    @Test func runsABatchOfInsertsInOrder() throws {
        // given an insert statement
        let (connection, insert) = try makeTable()

        // when 100 inserts run as one pipeline
        let results = try connection.pipeline((0..<100).map { (insert, [.int(Int64($0)), .text("item \($0)")]) })

        // then each result answers its own step, and every row is there
        #expect(results.count == 100)
        #expect(results.map { $0.int64(row: 0, column: 0) } == (0..<100).map { Int64($0) })
        #expect(results.allSatisfy { $0.affectedRows == 1 })
        #expect(try connection.query("SELECT count(*) FROM items").int64(row: 0, column: 0) == 100)
        #expect(connection.transactionStatus == .idle)
    }

    @Test func reportsAFailureInTheMiddleAndAppliesNothing() throws {
        // given an insert statement
        let (connection, insert) = try makeTable()

        // when step 50 of 100 repeats the key of step 10
        let steps = (0..<100).map { index -> (statement: PGStatement, parameters: [PGValue]) in
            (insert, [.int(Int64(index == 50 ? 10 : index)), .text("item \(index)")])
        }
        let error = #expect(throws: PGError.self) { try connection.pipeline(steps) }

        // then the unique violation is reported, the batch rolled back, and the connection works on
        #expect(error?.isUniqueViolation == true)
        #expect(error?.detail == "Key (id)=(10) already exists.")
        #expect(connection.transactionStatus == .idle)
        #expect(try connection.query("SELECT count(*) FROM items").int64(row: 0, column: 0) == 0)
        #expect(try connection.pipeline([(insert, [1, "one"])]).count == 1)
    }

    @Test func failureInsideATransactionLeavesItInError() throws {
        // given an open transaction
        let (connection, insert) = try makeTable()
        try connection.execute("BEGIN")

        // when a pipelined insert fails
        #expect(throws: PGError.self) { try connection.pipeline([(insert, [1, "one"]), (insert, [2, .null])]) }

        // then the transaction is in error, as after any failed statement
        #expect(connection.transactionStatus == .inError)
        try connection.execute("ROLLBACK")
        #expect(try connection.query("SELECT count(*) FROM items").int64(row: 0, column: 0) == 0)
    }

    @Test func emptyPipelineReturnsNothing() throws {
        let (connection, _) = try makeTable()
        #expect(try connection.pipeline([]).isEmpty)
    }
}
