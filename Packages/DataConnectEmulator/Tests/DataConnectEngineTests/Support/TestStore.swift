import DataConnectEngine
import EmulatorTesting
import Testing

/// A fresh, empty database of the running test's ``TestDatabase``, behind the `DataStore` protocol.
///
/// The one place the engine tests name a store type: everything else goes through ``store``.
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
            store = try SQLiteStore(location: .memory, readers: readers)
        case .postgreSQL:
            let schema = try TestPostgreSQLSchema()
            postgreSQLSchema = schema
            store = try PostgreSQLStore(connectionString: schema.connectionString, connections: readers + 1)
        }
    }
}
