import PostgreSQLKit
import Testing

@Suite struct QueryTests {
    @Test func executesAScriptOfSeveralStatements() throws {
        // given a fresh database
        let connection = try TestDatabase.connect()

        // when a script creates and fills a table (a notice is dropped on the way)
        try connection.execute(
            """
            DROP TABLE IF EXISTS genres;
            CREATE TABLE genres(name text PRIMARY KEY);
            INSERT INTO genres VALUES ('drama'), ('sci-fi');
            """)

        // then every statement ran
        let result = try connection.query("SELECT name FROM genres ORDER BY name")
        #expect(result.rowCount == 2)
        #expect(result.string(row: 1, column: 0) == "sci-fi")
    }

    @Test func failedScriptAppliesNothing() throws {
        // given a script whose last statement fails
        let connection = try TestDatabase.connect()
        try connection.execute("CREATE TABLE genres(name text PRIMARY KEY)")

        // when it runs
        #expect(throws: PGError.self) {
            try connection.execute("INSERT INTO genres VALUES ('drama'); INSERT INTO genres VALUES ('drama')")
        }

        // then its implicit transaction rolled back
        #expect(try connection.query("SELECT count(*) FROM genres").int64(row: 0, column: 0) == 0)
        #expect(connection.transactionStatus == .idle)
    }

    @Test func bindsTextIntegersAndNull() throws {
        // given a connection
        let connection = try TestDatabase.connect()

        // when parameters of several kinds are bound
        let result = try connection.query(
            "SELECT $1::text, $2::int8, $3::int8, $4::text IS NULL, $5::bool, $6::text",
            ["Ünïcödé 🎬", .int(.max), .int(.min), .null, true, ""])

        // then they come back as sent
        #expect(result.string(row: 0, column: 0) == "Ünïcödé 🎬")
        #expect(result.int64(row: 0, column: 1) == .max)
        #expect(result.int64(row: 0, column: 2) == .min)
        #expect(result.bool(row: 0, column: 3) == true)
        #expect(result.bool(row: 0, column: 4) == true)
        #expect(result.string(row: 0, column: 5) == "")
        #expect(!result.isNull(row: 0, column: 5))
    }

    @Test(arguments: [0.1, -2.5e-300, 1e300, 123_456.789, .infinity, -.infinity])
    func doublesRoundTrip(value: Double) throws {
        // given a connection
        let connection = try TestDatabase.connect()

        // when a double goes through float8
        let result = try connection.query("SELECT $1::float8", [.double(value)])

        // then the same value comes back
        #expect(result.double(row: 0, column: 0) == value)
    }

    @Test func specialDoublesUsePostgreSQLSpelling() throws {
        // given the special values
        #expect(PGValue.double(.infinity) == .text("Infinity"))
        #expect(PGValue.double(-.infinity) == .text("-Infinity"))
        #expect(PGValue.double(.nan) == .text("NaN"))

        // when NaN goes through float8, then it comes back as NaN
        let connection = try TestDatabase.connect()
        let result = try connection.query("SELECT $1::float8, $1::float8 = 'NaN'::float8", [.double(.nan)])
        #expect(result.string(row: 0, column: 0) == "NaN")
        #expect(result.double(row: 0, column: 0)?.isNaN == true)
        #expect(result.bool(row: 0, column: 1) == true)
    }

    @Test func bindsAndReadsBytea() throws {
        // given bytes including NUL and 0xFF
        let connection = try TestDatabase.connect()
        let bytes: [UInt8] = [0, 1, 2, 0x7F, 0x80, 0xFF]

        // when they go through a bytea parameter
        let result = try connection.query(
            "SELECT $1::bytea, octet_length($1::bytea), $2::bytea", [.bytes(bytes), .bytes([])])

        // then the server saw the raw bytes, and the hex text decodes back
        #expect(result.int64(row: 0, column: 1) == 6)
        #expect(result.string(row: 0, column: 0) == #"\x0001027f80ff"#)
        #expect(result.bytea(row: 0, column: 0) == bytes)
        #expect(result.bytea(row: 0, column: 2) == [])
        #expect(result.columnType(at: 0) == 17)
    }

    @Test func readsValuesWithoutCopying() throws {
        // given a result with a value and a NULL
        let connection = try TestDatabase.connect()
        let result = try connection.query("SELECT '{\"a\":1}'::jsonb AS doc, NULL::text AS missing")

        // when reading their bytes in place
        let document = result.withUnsafeBytes(row: 0, column: 0) { $0.map { Array($0) } }
        let missing = result.withUnsafeBytes(row: 0, column: 1) { $0 == nil }

        // then the bytes are the text form, and NULL gives nil
        #expect(document == Array(#"{"a": 1}"#.utf8))
        #expect(result.bytes(row: 0, column: 0) == document)
        #expect(missing)
        #expect(result.bytes(row: 0, column: 1) == nil)
        #expect(result.columnNames == ["doc", "missing"])
        #expect(result.columnIndex(named: "missing") == 1)
        #expect(result.columnIndex(named: "other") == nil)
        #expect(result.columnType(at: 0) == 3802)
    }

    @Test func textWithNULIsRejectedBeforeSending() throws {
        // given a connection
        let connection = try TestDatabase.connect()

        // when text holding NUL is bound
        let error = #expect(throws: PGError.self) { try connection.query("SELECT $1::text", ["a\u{0}b"]) }

        // then the driver refuses it instead of truncating it
        #expect(error?.kind == .misuse)
        #expect(error?.sqlState == "22021")
    }

    @Test func reportsAffectedRows() throws {
        // given a table of five rows
        let connection = try TestDatabase.connect()
        try connection.execute("CREATE TABLE items(id int PRIMARY KEY, done bool NOT NULL DEFAULT false)")
        let insert = try connection.query("INSERT INTO items(id) SELECT generate_series(1, 5)")

        // when updating three and deleting two
        let update = try connection.query("UPDATE items SET done = true WHERE id <= $1", [3])
        let delete = try connection.query("DELETE FROM items WHERE NOT done")
        let select = try connection.query("SELECT id FROM items")

        // then each command reports its count
        #expect(insert.affectedRows == 5)
        #expect(update.affectedRows == 3)
        #expect(update.commandStatus == "UPDATE 3")
        #expect(delete.affectedRows == 2)
        #expect(select.rowCount == 3)
        #expect(try connection.query("CREATE TABLE other(id int)").affectedRows == 0)
    }

    @Test func preparedStatementsRunManyTimes() throws {
        // given a table and two prepared statements
        let connection = try TestDatabase.connect()
        try connection.execute("CREATE TABLE movies(id text PRIMARY KEY, rating float8)")
        let insert = try connection.prepare("INSERT INTO movies VALUES ($1, $2)")
        let find = try connection.prepare("SELECT rating FROM movies WHERE id = $1")

        // when they run several times
        for (id, rating) in [("m1", 8.5), ("m2", 7.0), ("m3", 9.25)] {
            try insert.execute([.text(id), .double(rating)])
        }
        let ratings = try ["m3", "m1", "m9"].map { try find.execute([.text($0)]).double(row: 0, column: 0) }

        // then each run used its own parameters, under distinct names
        #expect(ratings == [9.25, 8.5, nil])
        #expect(insert.name != find.name)
        let prepared = try connection.query("SELECT name FROM pg_prepared_statements ORDER BY name")
        #expect(prepared.rowCount == 2)
    }

    @Test func deallocatedStatementPreparesAgain() throws {
        // given a prepared statement
        let connection = try TestDatabase.connect()
        let statement = try connection.prepare("SELECT $1::int8 + 1")

        // when it is deallocated, then run
        try statement.deallocate()
        let countAfterDeallocate = try connection.query("SELECT count(*) FROM pg_prepared_statements")
        let result = try statement.execute([41])

        // then it was gone from the server and came back on use
        #expect(countAfterDeallocate.int64(row: 0, column: 0) == 0)
        #expect(result.int64(row: 0, column: 0) == 42)
    }

    @Test func preparingInvalidSQLFails() throws {
        // given a connection
        let connection = try TestDatabase.connect()

        // when preparing a statement on a missing table
        let error = #expect(throws: PGError.self) { try connection.prepare("SELECT * FROM nowhere") }

        // then the server's error comes back
        #expect(error?.sqlState == "42P01")
        #expect(error?.kind == .server)
    }
}
