import SQLiteKit
import Testing

@Suite struct StatementTests {
    @Test func bindsAndReadsEveryType() throws {
        // given a table without declared types, so values keep their storage class
        let connection = try Connection()
        try connection.execute("CREATE TABLE v(a, b, c, d, e, f, g, h, i)")
        let insert = try connection.prepare("INSERT INTO v VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")

        // when one value of each Swift type is bound
        try insert.bind(nil as String?, at: 1)
        try insert.bind(42, at: 2)
        try insert.bind(Int64.min, at: 3)
        try insert.bind(2.5, at: 4)
        try insert.bind("Cléo 🎬", at: 5)
        try insert.bind(true, at: 6)
        try insert.bind([0x00, 0xFF, 0x10] as [UInt8], at: 7)
        try insert.bind(SQLiteValue.text(""), at: 8)
        try insert.bind([] as [UInt8], at: 9)
        try insert.execute()

        // then each reads back with its storage class and value
        let select = try connection.prepare("SELECT * FROM v")
        #expect(try select.step())
        #expect(select.columnType(at: 0) == .null)
        #expect(select.isNull(at: 0))
        #expect(select.int(at: 1) == 42)
        #expect(select.int64(at: 2) == .min)
        #expect(select.double(at: 3) == 2.5)
        #expect(select.string(at: 4) == "Cléo 🎬")
        #expect(select.bool(at: 5))
        #expect(select.blob(at: 6) == [0x00, 0xFF, 0x10])
        #expect(select.string(at: 7) == "")
        #expect(select.columnType(at: 7) == .text)
        #expect(select.blob(at: 8) == [])
        #expect(select.columnType(at: 8) == .blob)
        #expect(select.string(at: 0) == nil)
        #expect(select.blob(at: 0) == nil)
        #expect(select.value(at: 3) == .real(2.5))
        #expect(select.column(at: 4, as: String.self) == "Cléo 🎬")
        #expect(select.column(at: 0, as: Int?.self) == .some(nil))
        #expect(try !select.step())
    }

    @Test func bindsNamedParameters() throws {
        // given a statement with named parameters in three styles
        let connection = try Connection()
        let statement = try connection.prepare("SELECT :title, @year, $rating")

        // when bound with and without prefixes
        try statement.bind("Alien", named: "title")
        try statement.bind(1979, named: "@year")
        try statement.bind(named: ["rating": .real(8.5)])

        // then each lands at its place
        #expect(statement.parameterCount == 3)
        #expect(statement.parameterName(at: 1) == ":title")
        #expect(statement.parameterIndex(named: "year") == 2)
        let row = try #require(try statement.rows().first)
        #expect(row[0] == "Alien")
        #expect(row[1] == 1979)
        #expect(row[2] == 8.5)
    }

    @Test func rejectsUnknownParameters() throws {
        // given a statement with one parameter
        let connection = try Connection()
        let statement = try connection.prepare("SELECT :a")

        // when binding a missing name or index
        let byName = #expect(throws: SQLiteError.self) { try statement.bind(1, named: "b") }
        let byIndex = #expect(throws: SQLiteError.self) { try statement.bind(1, at: 2) }

        // then both are range errors
        #expect(byName?.code == .range)
        #expect(byName?.message == #"no parameter named "b""#)
        #expect(byIndex?.code == .range)
    }

    @Test func reusesStatementsWithResetAndClearBindings() throws {
        // given a prepared insert kept for reuse
        let connection = try Connection()
        try connection.execute("CREATE TABLE t(x)")
        let insert = try connection.prepare("INSERT INTO t VALUES (?)", persistent: true)

        // when it runs several times, once after clearing bindings
        for value in 1...3 {
            try insert.execute([.integer(Int64(value))])
        }
        insert.reset()
        insert.clearBindings()
        try insert.step()

        // then every run inserted a row, the last one NULL
        let rows = try connection.query("SELECT x FROM t ORDER BY rowid")
        #expect(rows.map { $0[0] } == [1, 2, 3, .null])
        #expect(!insert.isReadOnly)
    }

    @Test func describesColumns() throws {
        // given a query with aliases
        let connection = try Connection()
        let statement = try connection.prepare("SELECT 1 AS id, 'x' AS Title")

        // then names and lookups match SQLite's case-insensitive rules
        #expect(statement.columnCount == 2)
        #expect(statement.columnName(at: 1) == "Title")
        #expect(statement.columnNames == ["id", "Title"])
        #expect(statement.columnIndex(named: "title") == 1)
        #expect(statement.columnIndex(named: "nope") == nil)
        #expect(statement.sql == "SELECT 1 AS id, 'x' AS Title")
        #expect(statement.isReadOnly)
    }

    @Test func readsTextWithoutCopying() throws {
        // given a JSON text column
        let connection = try Connection()
        let statement = try connection.prepare("SELECT json_object('title', 'Alien'), NULL, 42")
        #expect(try statement.step())

        // when read through the zero-copy accessors
        let json = statement.withUnsafeText(at: 0) { Array($0) }
        let null = statement.unsafeText(at: 1)
        let number = statement.unsafeText(at: 2).map { Array($0) }

        // then the bytes are SQLite's, NULL is distinguished, and numbers convert to text
        #expect(String(decoding: json, as: UTF8.self) == #"{"title":"Alien"}"#)
        #expect(null == nil)
        #expect(statement.withUnsafeText(at: 1) { $0.count } == 0)
        #expect(number == Array("42".utf8))
    }

    @Test func materializesRows() throws {
        // given a row with several types
        let connection = try Connection()
        let row = try #require(try connection.query("SELECT 7 AS n, 'x' AS s, 1.5 AS r, NULL AS z, x'01' AS b").first)

        // then values are reachable by index, by name, and as Swift types
        #expect(row.count == 5)
        #expect(row[0] == .integer(7))
        #expect(row["S"] == .text("x"))
        #expect(row["missing"] == nil)
        #expect(row[99] == .null)
        let n: Int? = row["n"]
        let r: Double? = row["r"]
        let z: String? = row["z"]
        let b: [UInt8]? = row["b"]
        let wrong: Int? = row["s"]
        #expect(n == 7)
        #expect(r == 1.5)
        #expect(z == nil)
        #expect(b == [1])
        #expect(wrong == nil)
        #expect(row.columnNames == ["n", "s", "r", "z", "b"])
    }

    @Test func valueLiteralsAndDescriptions() {
        let values: [SQLiteValue] = [nil, 1, 2.5, "it's", true, .blob([0x0A, 0xFF])]
        #expect(values.map(\.description) == ["NULL", "1", "2.5", "'it''s'", "1", "X'0AFF'"])
        #expect(values.map(\.type) == [.null, .integer, .real, .text, .integer, .blob])
        #expect(Int(sqliteValue: .real(3.0)) == 3)
        #expect(Int(sqliteValue: .real(3.5)) == nil)
        #expect(Bool(sqliteValue: .integer(0)) == false)
        #expect([UInt8](sqliteValue: .text("ab")) == [0x61, 0x62])
    }
}
