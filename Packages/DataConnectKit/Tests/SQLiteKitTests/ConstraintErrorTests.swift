import SQLiteKit
import Testing

@Suite struct ConstraintErrorTests {
    private func makeConnection() throws -> Connection {
        let connection = try Connection()
        try connection.execute(
            """
            CREATE TABLE directors(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE movies(
                id TEXT PRIMARY KEY,
                slug TEXT UNIQUE,
                rating REAL CHECK (rating BETWEEN 0 AND 10),
                director_id INTEGER REFERENCES directors(id)
            ) WITHOUT ROWID;
            INSERT INTO directors VALUES (1, 'Ridley Scott');
            INSERT INTO movies VALUES ('m1', 'alien', 8.5, 1);
            """)
        return connection
    }

    @Test(arguments: [
        (
            "INSERT INTO movies VALUES ('m2', 'alien', 8.0, 1)", ResultCode.constraintUnique,
            "UNIQUE constraint failed: movies.slug"
        ),
        ("INSERT INTO movies VALUES ('m2', 'heat', 8.0, 42)", .constraintForeignKey, "FOREIGN KEY constraint failed"),
        ("INSERT INTO directors VALUES (2, NULL)", .constraintNotNull, "NOT NULL constraint failed: directors.name"),
        (
            "INSERT INTO movies VALUES ('m2', 'heat', 11, 1)", .constraintCheck,
            "CHECK constraint failed: rating BETWEEN 0 AND 10"
        ),
        (
            "INSERT INTO movies VALUES ('m1', 'heat', 8.0, 1)", .constraintPrimaryKey,
            "UNIQUE constraint failed: movies.id"
        ),
        (
            "INSERT INTO directors VALUES (1, 'again')", .constraintPrimaryKey,
            "UNIQUE constraint failed: directors.id"
        ),
    ])
    func constraintErrorsCarryExtendedCodes(sql: String, expected: ResultCode, message: String) throws {
        // given a schema with every kind of constraint
        let connection = try makeConnection()

        // when a statement violates one
        let error = #expect(throws: SQLiteError.self) { try connection.execute(sql) }

        // then the error carries the primary and the extended code, the message and the SQL
        #expect(error?.code == .constraint)
        #expect(error?.extendedCode == expected)
        #expect(error?.message == message)
        #expect(error?.sql == sql)
    }

    @Test func extendedCodesDescribeThemselves() {
        #expect(ResultCode.constraintUnique.rawValue == 2067)
        #expect(ResultCode.constraintUnique.primary == .constraint)
        #expect(ResultCode.constraint.description == "19 (constraint failed)")
    }
}
