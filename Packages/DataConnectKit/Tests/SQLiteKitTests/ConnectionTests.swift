import Foundation
import SQLiteKit
import Synchronization
import Testing

@Suite struct ConnectionTests {
    @Test func runsScriptsWithBindingsAcrossStatements() throws {
        // given an in-memory database
        let connection = try Connection()

        // when a script with parameters in two statements runs
        try connection.execute(
            """
            CREATE TABLE genres(name TEXT PRIMARY KEY, rank INTEGER);
            INSERT INTO genres VALUES (?, ?);
            -- a comment between statements
            INSERT INTO genres VALUES (?, ?);
            """, ["drama", 1, "sci-fi", 2])

        // then each statement took its own bindings
        let rows = try connection.query("SELECT name, rank FROM genres ORDER BY rank")
        #expect(rows.map { $0["name"] } == [.text("drama"), .text("sci-fi")])
        #expect(connection.totalChanges == 2)
    }

    @Test func rejectsWrongBindingCounts() throws {
        // given a table
        let connection = try Connection()
        try connection.execute("CREATE TABLE t(a, b)")

        // when too few or too many bindings are given
        let tooFew = #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO t VALUES (?, ?)", [1]) }
        let tooMany = #expect(throws: SQLiteError.self) {
            try connection.execute("INSERT INTO t VALUES (?, ?)", [1, 2, 3])
        }
        let queryTooFew = #expect(throws: SQLiteError.self) { try connection.query("SELECT * FROM t WHERE a = ?") }

        // then each is a range error rather than a silent NULL
        #expect(tooFew?.code == .range)
        #expect(tooMany?.code == .range)
        #expect(queryTooFew?.code == .range)
    }

    @Test func malformedSQLThrowsWithTheSQL() throws {
        // given SQL with a syntax error, an unknown table, and nothing at all
        let connection = try Connection()

        // when each is prepared
        let syntax = #expect(throws: SQLiteError.self) { try connection.prepare("SELEC 1") }
        let unknown = #expect(throws: SQLiteError.self) { try connection.query("SELECT * FROM nowhere") }
        let empty = #expect(throws: SQLiteError.self) { try connection.prepare("  -- nothing\n") }
        let script = #expect(throws: SQLiteError.self) { try connection.prepare("SELECT 1; SELECT 2") }

        // then SQLite's message and the SQL are reported, and nothing crashes
        #expect(syntax?.code == .error)
        #expect(syntax?.message == #"near "SELEC": syntax error"#)
        #expect(syntax?.sql == "SELEC 1")
        #expect(syntax?.description == #"SQLite error 1: near "SELEC": syntax error (in "SELEC 1")"#)
        #expect(unknown?.message == "no such table: nowhere")
        #expect(empty?.code == .misuse)
        #expect(script?.code == .misuse)
        #expect(try connection.query("SELECT 1;  -- trailing comment").count == 1)
    }

    @Test func reportsLastInsertRowIDAndChanges() throws {
        // given a table with three rows
        let connection = try Connection()
        try connection.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v)")
        try connection.execute("INSERT INTO t(v) VALUES (1), (2), (3)")

        // then the last rowid and the change counts follow each statement
        #expect(connection.lastInsertRowID == 3)
        #expect(connection.changes == 3)
        try connection.execute("UPDATE t SET v = v + 1 WHERE id > 1")
        #expect(connection.changes == 2)
    }

    @Test func enablesForeignKeysByDefault() throws {
        // given a default connection and one opened without foreign keys
        let enforced = try Connection()
        let relaxed = try Connection(configuration: .init(foreignKeys: false))

        // then the pragma reflects the configuration
        #expect(try enforced.query("PRAGMA foreign_keys").first?[0] == .integer(1))
        #expect(try relaxed.query("PRAGMA foreign_keys").first?[0] == .integer(0))
    }

    @Test func providesJSONFunctions() throws {
        // given a table of movies
        let connection = try Connection()
        try connection.execute(
            """
            CREATE TABLE movies(id TEXT, title TEXT, rating REAL);
            INSERT INTO movies VALUES ('m1', 'Alien', 8.5), ('m2', 'Cléo "5" à 7', 7.9);
            """)

        // when SQLite builds the JSON itself
        let rows = try connection.query(
            """
            SELECT json_group_array(json_object('id', id, 'title', title, 'rating', rating))
            FROM (SELECT * FROM movies ORDER BY id)
            """)

        // then the JSON1 functions are available and escape correctly
        #expect(
            rows.first?[0]
                == .text(
                    #"[{"id":"m1","title":"Alien","rating":8.5},{"id":"m2","title":"Cléo \"5\" à 7","rating":7.9}]"#))
        #expect(try connection.query(#"SELECT '{"a":[1,2]}' ->> '$.a[1]'"#).first?[0] == .integer(2))
    }

    @Test func supportsReturning() throws {
        // given a table with defaults
        let connection = try Connection()
        try connection.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, created TEXT DEFAULT 'now')")

        // when inserting with RETURNING
        let rows = try connection.query("INSERT INTO t(name) VALUES (?), (?) RETURNING id, name, created", ["a", "b"])

        // then the inserted rows come back
        #expect(rows.count == 2)
        #expect(rows[1]["id"] == .integer(2))
        #expect(rows[1]["created"] == .text("now"))
    }

    @Test func opensReadOnly() throws {
        // given a database file with a table
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        try Connection(path: path).execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")

        // when opened read-only
        let reader = try Connection(path: path, configuration: .init(mode: .readOnly))

        // then reads work and writes fail with SQLITE_READONLY
        #expect(reader.isReadOnly)
        #expect(try reader.query("SELECT x FROM t").count == 1)
        let error = #expect(throws: SQLiteError.self) { try reader.execute("INSERT INTO t VALUES (2)") }
        #expect(error?.code == .readOnly)
    }

    @Test func aCommitHookSeesEachCommitAndCheckpointsTheLog() throws {
        // given a database in WAL mode whose commit hook counts commits and checkpoints from one page on
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let connection = try Connection(path: path)
        #expect(try connection.journalMode(.wal) == .wal)
        let commits = Atomic<Int>(0)
        connection.setCommitHook(checkpointPages: 1) { commits.add(1, ordering: .relaxed) }

        // when two transactions commit, one rolls back, and one commits after the hook is removed
        try connection.execute("CREATE TABLE t(x)")
        try connection.execute("INSERT INTO t VALUES (1)")
        try connection.execute("BEGIN; INSERT INTO t VALUES (2); ROLLBACK")
        let counted = commits.load(ordering: .relaxed)
        let pageSize = try #require(try connection.query("PRAGMA page_size").first?[0] as Int?)
        let fileSize = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        connection.setCommitHook(nil)
        try connection.execute("INSERT INTO t VALUES (3)")

        // then each commit was counted once, the table's page reached the file (the log was checkpointed: the file
        // holds only its first page until then), and the removed hook saw nothing more
        #expect(counted == 2)
        #expect(fileSize == 2 * pageSize)
        #expect(commits.load(ordering: .relaxed) == 2)
    }

    @Test func failsToOpenMissingFileWithoutCreate() {
        // given a path that does not exist
        let path = temporaryDatabasePath()

        // when opened without the create flag
        let error = #expect(throws: SQLiteError.self) {
            try Connection(path: path, configuration: .init(mode: .readWrite))
        }

        // then opening fails with SQLITE_CANTOPEN
        #expect(error?.code == .cannotOpen)
        #expect(error?.message.hasPrefix("cannot open") == true)
    }

    @Test func interruptsALongQueryFromAnotherThread() throws {
        // given a query that would run for minutes and reports when it has started, and a thread that interrupts
        // it once it has
        let connection = try Connection()
        let started = DispatchSemaphore(value: 0)
        let interrupted = DispatchSemaphore(value: 0)
        try connection.createFunction("started", argumentCount: 0, deterministic: false) { _ in
            started.signal()
            return .integer(1)
        }
        let interrupter = Thread {
            guard started.wait(timeout: .now() + .seconds(120)) == .success else { return }  // a hang guard
            connection.interrupt()
            interrupted.signal()
        }
        interrupter.start()

        // when another thread interrupts it
        let error = #expect(throws: SQLiteError.self) {
            try connection.query(
                """
                WITH RECURSIVE c(x) AS (SELECT started() UNION ALL SELECT x + 1 FROM c WHERE x < 10000000000)
                SELECT count(*) FROM c
                """)
        }

        // then it fails with SQLITE_INTERRUPT and, the interrupter done, the connection stays usable
        #expect(error?.code == .interrupt)
        #expect(interrupted.wait(timeout: .now() + .seconds(120)) == .success)
        #expect(try connection.query("SELECT 1").count == 1)
    }

    @Test func functionsImplementedInSwiftStopOnceInterruptedUntilCleared() throws {
        // given a function that is expensive on one call, and a vector distance
        let connection = try Connection()
        try connection.createFunction("expensive", argumentCount: 1) { arguments in arguments[0] }
        try connection.createVectorDistanceFunction("l2", distance: .euclidean)
        try connection.createInterruptCheckFunction("go_on")

        // when the connection is interrupted between two calls (SQLite itself forgets that at the next statement)
        connection.interrupt()
        let function = #expect(throws: SQLiteError.self) { try connection.query("SELECT expensive(1)") }
        let distance = #expect(throws: SQLiteError.self) { try connection.query("SELECT l2('[1]', '[2]')") }
        let check = #expect(throws: SQLiteError.self) { try connection.query("SELECT go_on() AND 'a' LIKE 'a'") }
        connection.clearInterrupt()

        // then each refuses with SQLITE_INTERRUPT, and runs again once the interrupt is cleared
        #expect(function?.code == .interrupt)
        #expect(distance?.code == .interrupt)
        #expect(check?.code == .interrupt)
        #expect(try connection.query("SELECT expensive(1), l2('[1]', '[2]'), go_on()").first?[2] == .integer(1))
        #expect(!connection.isInterruptRequested)
    }

    @Test func keepsUserVersion() throws {
        // given a fresh database
        let connection = try Connection()

        // when the user version is set
        try connection.setUserVersion(7)

        // then it reads back
        #expect(try connection.userVersion() == 7)
    }

    @Test func quotesIdentifiers() {
        #expect(Connection.quoteIdentifier(#"movie "cut""#) == #""movie ""cut""""#)
    }
}

/// A fresh path in the temporary directory.
func temporaryDatabasePath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("sqlitekit-\(UUID().uuidString).sqlite").path
}

/// Removes a database file and its WAL companions.
func removeDatabase(at path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
    }
}
