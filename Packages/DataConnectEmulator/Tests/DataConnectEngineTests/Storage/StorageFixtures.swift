import DataConnectSchema
import Foundation
import GraphQLLanguage
import SQLiteKit
import Testing

@testable import DataConnectEngine
@testable import DataConnectSQLiteStore

/// Schemas, databases and folders shared by the storage tests.
enum StorageFixtures {
    /// The running example of the server reference.
    static let runningExample = """
        type Chef @table { name: String! }
        type Recipe @table { title: String!, year: Int, tags: [String], chef: Chef! }
        type Cook @table { id: String! @default(expr: "auth.uid"), handle: String! @col(dataType: "varchar(40)") }
        type Bookmark @table(key: ["recipe", "cook"]) {
          recipe: Recipe!, cook: Cook!, savedOn: Date! @default(expr: "request.time")
        }
        type RecipeNote @table { recipe: Recipe! @unique, calories: Int }
        """

    /// Compiles schema text, failing the test on errors.
    static func model(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> SchemaModel {
        let (model, diagnostics) = SchemaCompiler.compile([Source(name: "schema.gql", text: text)])
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors)", sourceLocation: sourceLocation)
        return try #require(model, sourceLocation: sourceLocation)
    }

    /// The DDL of schema text.
    static func ddl(_ text: String) throws -> SchemaDDL {
        SchemaDDL(model: try model(text), dialect: SQLiteDialect())
    }

    /// A fresh private in-memory connection with the DDL of `text` applied.
    static func connection(_ text: String) throws -> Connection {
        let connection = try Connection()
        try connection.execute(try ddl(text).script)
        return connection
    }

    /// A new empty directory under the system's temporary directory.
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "dataconnect-storage-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The single value of a one-row, one-column query.
    static func scalar(_ connection: Connection, _ sql: String, _ bindings: [SQLiteValue] = []) throws -> SQLiteValue {
        try #require(try connection.query(sql, bindings).first?[0])
    }
}
