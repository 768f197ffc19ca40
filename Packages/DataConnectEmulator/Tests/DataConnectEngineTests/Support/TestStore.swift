import DataConnectEmulator
import DataConnectEngine
import DataConnectSchema
import EmulatorTesting
import Testing

/// A fresh, empty database of the running test's ``TestDatabase``, behind the `DataStore` protocol.
///
/// Opened through the service's one store factory (``StoreConfiguration``); everything else goes through ``store``.
struct TestStore {
    /// The database the store serves from.
    let database: TestDatabase
    /// The store: SQLite in memory, or a fresh PostgreSQL schema.
    let store: any DataStore
    /// The PostgreSQL schema, dropped with the last copy of this value.
    let postgreSQLSchema: TestPostgreSQLSchema?

    /// Opens a store on the running test's database.
    ///
    /// - Throws: ``TestDatabaseError`` when the test does not say which database it runs on (mark the suite
    ///   `.onBothDatabases` or `.on(.sqlite)`); the store's error when it cannot be opened.
    init(readers: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) throws {
        database = try TestDatabase.required(sourceLocation: sourceLocation)
        switch database {
        case .sqlite:
            postgreSQLSchema = nil
            store = try StoreConfiguration.sqlite(.memory, readers: readers).open()
        case .postgreSQL:
            let schema = try TestPostgreSQLSchema()
            postgreSQLSchema = schema
            store = try StoreConfiguration.postgreSQL(
                connectionString: schema.connectionString, connections: readers + 1
            ).open()
        }
    }

    /// Brings the database to the schema of `text` (see ``DataStore/migrate(_:)``).
    func migrate(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> MigrationReport {
        try store.migrate(try StorageFixtures.model(text, sourceLocation: sourceLocation))
    }

    /// Runs SQL without rows (an `INSERT`, an `UPDATE`) through the store's writer.
    func execute(_ sql: String) throws {
        try store.access.write { source in try source.execute(sql) }
    }

    /// The stored values of a raw SQL query's rows (for checking storage forms and side effects).
    func rows(_ sql: String) throws -> [[DatabaseValue]] {
        try store.access.read { source in
            let statement = try source.statement(sql)
            defer { statement.finish() }
            var rows: [[DatabaseValue]] = []
            while try statement.nextRow() {
                rows.append((0..<statement.columnCount).map { statement.storedValue(at: $0) })
            }
            return rows
        }
    }
}
