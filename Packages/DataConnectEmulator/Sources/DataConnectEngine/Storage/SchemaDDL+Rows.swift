extension SchemaDDL {
    /// The first of the schema's tables, in creation order, that holds a row; `nil` when every one is empty.
    ///
    /// Only the schema's own tables count: the migrator's `_dataconnect_meta`, the full-text index tables and
    /// views do not. This is what decides that a seed file runs: only on an empty database.
    ///
    /// ```swift
    /// let ddl = SchemaDDL(model: service.api.model, dialect: store.dialect)
    /// if let table = try ddl.firstTableWithRows(in: store.access) { print("table \(table.typeName) has rows") }
    /// ```
    ///
    /// - Parameter database: The database, read on a reader connection.
    /// - Returns: The first table with a row, or `nil`.
    /// - Throws: The database's error when a table cannot be read.
    public func firstTableWithRows(in database: any DatabaseAccess) throws -> TableDDL? {
        try database.read { source in
            for table in tables {
                let statement = try source.statement("SELECT 1 FROM \(table.quotedName) LIMIT 1")
                guard try statement.nextRow() else { continue }
                // Runs the statement to its end, so that it holds no read transaction open.
                while try statement.nextRow() {}
                return table
            }
            return nil
        }
    }
}
