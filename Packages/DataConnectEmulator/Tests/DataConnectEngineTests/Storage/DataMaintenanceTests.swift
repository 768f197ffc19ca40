import DataConnectWire
import EmulatorTesting
import Foundation
import SQLiteKit
import Testing

@testable import DataConnectEngine
@testable import DataConnectSQLiteStore

@Suite(.on(.sqlite))  // the SQLite pool's; PostgreSQL's run in PostgreSQLEmulatorTests
struct DataMaintenanceTests {
    static let chefId: SQLiteValue = .text(String(repeating: "c", count: 32))
    static let recipeId: SQLiteValue = .text(String(repeating: "a", count: 32))
    static let noteId: SQLiteValue = .text(String(repeating: "d", count: 32))

    /// A migrated pool holding the running example and a row in every table.
    static func seededPool(onFile: Bool, directory: String) throws -> SQLitePool {
        let pool = try SQLitePool(location: onFile ? .dataDirectory(directory + "/data") : .memory, readers: 2)
        let report = try SQLiteMigrator(model: try StorageFixtures.model(StorageFixtures.runningExample)).migrate(pool)
        #expect(report.issues.isEmpty)
        try pool.write { db in
            let c = db.connection
            try c.execute("INSERT INTO chef (id, name) VALUES (?, 'Ada')", [chefId])
            try c.execute(
                "INSERT INTO recipe (id, title, year, tags, chef_id) "
                    + "VALUES (?, 'Soup', 1843, '[\"warm\",\"it''s\"]', ?)",
                [recipeId, chefId])
            try c.execute("INSERT INTO cook (id, handle) VALUES ('u1', 'ada'), ('u2', 'grace')")
            try c.execute(
                "INSERT INTO bookmark VALUES (?, 'u1', '2024-05-01'), (?, 'u2', '2024-05-02')", [recipeId, recipeId])
            try c.execute("INSERT INTO recipe_note (id, recipe_id, calories) VALUES (?, ?, NULL)", [noteId, recipeId])
        }
        return pool
    }

    /// Every row of every data table, sorted.
    static func dump(_ pool: SQLitePool) throws -> [String: [String]] {
        try pool.read { db in
            var result: [String: [String]] = [:]
            for table in try DataMaintenance.dataTables(db.connection, schema: "main") {
                result[table] = try db.connection.query("SELECT * FROM \(Connection.quoteIdentifier(table))")
                    .map { "\($0.values)" }.sorted()
            }
            return result
        }
    }

    @Test(arguments: [false, true])
    func clearDeletesEveryRowAndKeepsTheSchema(onFile: Bool) throws {
        // given
        let directory = try StorageFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try Self.seededPool(onFile: onFile, directory: directory)

        // when
        try DataMaintenance(pool: pool).clear()

        // then: every table is empty, the schema and the migrator's records stay
        #expect(try Self.dump(pool).values.allSatisfy(\.isEmpty))
        #expect(try Self.dump(pool).keys.sorted() == ["bookmark", "chef", "cook", "recipe", "recipe_note"])
        let again = try SQLiteMigrator(model: try StorageFixtures.model(StorageFixtures.runningExample)).migrate(pool)
        #expect(again.wasUpToDate)
        try pool.write { try $0.connection.execute("INSERT INTO chef (id, name) VALUES (?, 'Grace')", [Self.chefId]) }
    }

    @Test(arguments: [false, true])
    func exportThenImportRoundTripsEveryRow(onFile: Bool) throws {
        // given
        let directory = try StorageFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try Self.seededPool(onFile: onFile, directory: directory)
        let maintenance = DataMaintenance(pool: pool)
        let before = try Self.dump(pool)

        // when
        let snapshot = try maintenance.export(to: directory + "/export", version: "1.2.3")
        try maintenance.clear()
        let report = try maintenance.import(from: directory + "/export")

        // then
        #expect(snapshot == directory + "/export/dataconnect_export/sqlite.db")
        #expect(FileManager.default.fileExists(atPath: snapshot))
        #expect(report.rows == ["bookmark": 2, "chef": 1, "cook": 2, "recipe": 1, "recipe_note": 1])
        #expect(report.skippedTables.isEmpty)
        #expect(try Self.dump(pool) == before)
        #expect(
            before["recipe"] == [
                "['\(String(repeating: "a", count: 32))', 'Soup', 1843, '[\"warm\",\"it''s\"]', "
                    + "'\(String(repeating: "c", count: 32))']"
            ])
    }

    @Test func anExportLoadsIntoAnotherDatabase() throws {
        // given
        let directory = try StorageFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = try Self.seededPool(onFile: false, directory: directory)
        try DataMaintenance(pool: source).export(to: directory, version: "1.2.3")
        let target = try SQLitePool(location: .dataDirectory(directory + "/other"), readers: 1)
        _ = try SQLiteMigrator(model: try StorageFixtures.model(StorageFixtures.runningExample)).migrate(target)

        // when
        try DataMaintenance(pool: target).import(from: directory)

        // then
        #expect(try Self.dump(target) == Self.dump(source))
    }

    @Test func exportMetadataKeepsTheOtherEmulatorsKeys() throws {
        // given
        let directory = try StorageFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try Self.seededPool(onFile: false, directory: directory)
        let metadataPath = directory + "/firebase-export-metadata.json"
        try Data(
            #"{"version":"13.29.1","firestore":{"version":"1.19.8","path":"firestore_export"},"dataconnect":{"x":1}}"#
                .utf8
        ).write(to: URL(fileURLWithPath: metadataPath))

        // when
        try DataMaintenance(pool: pool).export(to: directory, version: "2.0.0")

        // then
        let text = String(decoding: try #require(FileManager.default.contents(atPath: metadataPath)), as: UTF8.self)
        #expect(
            text == """
                {
                  "version": "13.29.1",
                  "firestore": {
                    "version": "1.19.8",
                    "path": "firestore_export"
                  },
                  "dataconnect": {
                    "version": "2.0.0",
                    "path": "dataconnect_export"
                  }
                }

                """)
    }

    @Test func aNewExportReplacesTheOldOne() throws {
        // given
        let directory = try StorageFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try Self.seededPool(onFile: true, directory: directory)
        let maintenance = DataMaintenance(pool: pool)
        try maintenance.export(to: directory + "/export", version: "1")

        // when
        try pool.write { try $0.connection.execute("INSERT INTO cook (id, handle) VALUES ('u3', 'edsger')") }
        try maintenance.export(to: directory + "/export", version: "2")
        let report = try maintenance.import(from: directory + "/export")

        // then
        #expect(report.rows["cook"] == 3)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory + "/export/dataconnect_export")
        #expect(files == ["sqlite.db"])
    }

    @Test func anExportFromAnOlderSchemaLoadsTheColumnsBothHave() throws {
        // given: an export of a schema without the chef's bio and with a table since removed
        let directory = try StorageFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = try SQLitePool(location: .memory, readers: 1)
        _ = try SQLiteMigrator(
            model: try StorageFixtures.model("type Chef @table { name: String! }\ntype Gone @table { x: Int }")
        )
        .migrate(old)
        try old.write { try $0.connection.execute("INSERT INTO chef (id, name) VALUES (?, 'Ada')", [Self.chefId]) }
        try DataMaintenance(pool: old).export(to: directory, version: "1")
        let new = try SQLitePool(location: .memory, readers: 1)
        _ = try SQLiteMigrator(model: try StorageFixtures.model("type Chef @table { name: String!, bio: String }"))
            .migrate(
                new)

        // when
        let report = try DataMaintenance(pool: new).import(from: directory)

        // then
        #expect(report.rows == ["chef": 1])
        #expect(report.skippedTables == ["gone"])
        #expect(try Self.dump(new) == ["chef": ["[\(Self.chefId), 'Ada', NULL]"]])
    }

    @Test func anImportWithDanglingReferencesFailsAndChangesNothing() throws {
        // given: a hand-made export whose recipe points at a chef it does not have
        let directory = try StorageFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try Self.seededPool(onFile: false, directory: directory)
        let before = try Self.dump(pool)
        try FileManager.default.createDirectory(
            atPath: directory + "/broken/dataconnect_export", withIntermediateDirectories: true)
        let snapshot = try Connection(path: directory + "/broken/dataconnect_export/sqlite.db")
        try snapshot.execute("CREATE TABLE recipe (id TEXT, title TEXT, chef_id TEXT)")
        try snapshot.execute("INSERT INTO recipe VALUES (?, 'Orphan', ?)", [Self.recipeId, Self.noteId])

        // when
        let error = #expect(throws: SQLiteError.self) {
            try DataMaintenance(pool: pool).import(from: directory + "/broken")
        }

        // then
        #expect(error?.extendedCode == .constraintForeignKey)
        #expect(try Self.dump(pool) == before)
    }

    @Test func importingWithoutAnExportFails() throws {
        // given
        let directory = try StorageFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pool = try SQLitePool(location: .memory, readers: 1)

        // when
        let error = #expect(throws: StorageError.self) { try DataMaintenance(pool: pool).import(from: directory) }

        // then
        #expect(error == .missingSnapshot(directory + "/dataconnect_export/sqlite.db"))
    }
}
