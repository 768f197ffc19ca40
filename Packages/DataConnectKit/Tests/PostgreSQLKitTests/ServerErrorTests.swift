import PostgreSQLKit
import Testing

@Suite struct ServerErrorTests {
    /// A kind of failure, with the helper that must recognize it.
    enum Failure: String, Sendable, CaseIterable {
        case unique, foreignKey, notNull, check, numericOutOfRange, syntax

        func isRecognized(by error: PGError) -> Bool {
            switch self {
            case .unique: error.isUniqueViolation
            case .foreignKey: error.isForeignKeyViolation
            case .notNull: error.isNotNullViolation
            case .check: error.isCheckViolation
            case .numericOutOfRange: error.isNumericOutOfRange
            case .syntax: error.isSyntaxError
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var failure: Failure
        var sql: String
        var sqlState: String
        var constraint: String?
        var table: String?
        var testDescription: String { failure.rawValue }
    }

    static let cases = [
        Case(
            failure: .unique, sql: "INSERT INTO movies VALUES ('m2', 'alien', 8, 1)", sqlState: "23505",
            constraint: "movies_slug_key", table: "movies"),
        Case(
            failure: .foreignKey, sql: "INSERT INTO movies VALUES ('m2', 'heat', 8, 42)", sqlState: "23503",
            constraint: "movies_director_id_fkey", table: "movies"),
        Case(
            failure: .notNull, sql: "INSERT INTO directors VALUES (2, NULL)", sqlState: "23502", table: "directors"),
        Case(
            failure: .check, sql: "INSERT INTO movies VALUES ('m2', 'heat', 11, 1)", sqlState: "23514",
            constraint: "movies_rating_check", table: "movies"),
        Case(failure: .numericOutOfRange, sql: "SELECT 2147483647::int4 + 1", sqlState: "22003"),
        Case(failure: .syntax, sql: "SELEC 1", sqlState: "42601"),
    ]

    @Test(arguments: cases)
    func serverErrorsCarryTheirSQLState(_ expected: Case) throws {
        // given a schema with every kind of constraint
        let connection = try TestDatabase.connect()
        try connection.execute(
            """
            CREATE TABLE directors(id int PRIMARY KEY, name text NOT NULL);
            CREATE TABLE movies(
                id text PRIMARY KEY,
                slug text UNIQUE,
                rating float8 CHECK (rating BETWEEN 0 AND 10),
                director_id int REFERENCES directors(id)
            );
            INSERT INTO directors VALUES (1, 'Ridley Scott');
            INSERT INTO movies VALUES ('m1', 'alien', 8.5, 1);
            """)

        // when a statement fails, through both protocols
        let simple = #expect(throws: PGError.self) { try connection.execute(expected.sql) }
        let extended = #expect(throws: PGError.self) { try connection.query(expected.sql) }

        // then the error carries the SQLSTATE and its fields, and only the matching helper recognizes it
        for error in [simple, extended] {
            #expect(error?.kind == .server)
            #expect(error?.sqlState == expected.sqlState)
            #expect(error?.constraint == expected.constraint)
            #expect(error?.table == expected.table)
            #expect(error?.isConnectionFailure == false)
            #expect(error?.description.contains("\n") == false)
            for failure in Failure.allCases {
                #expect(error.map { failure.isRecognized(by: $0) } == (failure == expected.failure))
            }
        }
        #expect(connection.transactionStatus == .idle)
    }

    @Test func errorsCarryDetailAndPosition() throws {
        // given a unique value
        let connection = try TestDatabase.connect()
        try connection.execute("CREATE TABLE tags(name text UNIQUE); INSERT INTO tags VALUES ('a')")

        // when inserting it again, and running a statement with a syntax error
        let duplicate = #expect(throws: PGError.self) { try connection.query("INSERT INTO tags VALUES ($1)", ["a"]) }
        let syntax = #expect(throws: PGError.self) { try connection.query("SELECT 1 FROM") }

        // then the detail names the key and the position points at the error
        #expect(duplicate?.detail == "Key (name)=(a) already exists.")
        #expect(
            duplicate?.description
                == #"duplicate key value violates unique constraint "tags_name_key" (SQLSTATE 23505): "#
                + "Key (name)=(a) already exists.")
        #expect(syntax?.position == 14)
    }

    @Test func classifiesByCodeClass() {
        #expect(PGError(kind: .server, sqlState: "54001", message: "").isProgramLimitExceeded)
        #expect(PGError(kind: .server, sqlState: "53200", message: "").isOutOfMemory)
        #expect(PGError(kind: .server, sqlState: "08006", message: "").isConnectionFailure)
        #expect(PGError(kind: .server, sqlState: "57P01", message: "").isConnectionFailure)
        #expect(PGError(kind: .server, sqlState: "57P03", message: "").isConnectionFailure)
        #expect(!PGError(kind: .server, sqlState: "57014", message: "").isConnectionFailure)
        #expect(PGError(kind: .connection, message: "").isConnectionFailure)
    }
}
