import DataConnectEngine
import DataConnectSchema
import SQLiteKit

/// A `@default(sql:)` written in PostgreSQL SQL that SQLite cannot run.
public struct NativeDefaultRefused: Error, CustomStringConvertible, Sendable {
    /// The field, as `Type.field`.
    public var field: String
    /// The expression, as written.
    public var sql: String
    /// SQLite's reason.
    public var reason: String

    public var description: String {
        "\(field): @default(sql: \"\(sql)\") is PostgreSQL SQL that SQLite cannot run (\(reason)); "
            + "run the emulator with --postgres to use it, or use a portable default "
            + "(now(), CURRENT_DATE, gen_random_uuid(), a constant, or @default(expr:))"
    }
}

/// Checks, before SQLite's schema is migrated, that every `@default(sql:)` written as is
/// (``ColumnDefaultSQL/isNative(_:for:)``) is an expression SQLite can evaluate as a default: SQLite accepts
/// any expression in a `DEFAULT` clause and would only fail at the first insert.
enum NativeDefaultCheck {
    /// Prepares each native default as a constant expression of its own.
    ///
    /// - Throws: ``NativeDefaultRefused`` for the first one SQLite refuses.
    static func check(_ model: SchemaModel, on connection: Connection) throws {
        for table in model.tables {
            for column in table.columns {
                guard case .sql(let sql)? = column.defaultValue, ColumnDefaultSQL.isNative(sql, for: column),
                    let expression = ColumnDefaultSQL.render(column, dialect: SQLiteDialect())
                else { continue }
                do {
                    // Without FROM, an unknown function, a column reference or a syntax error fails here.
                    _ = try connection.query("SELECT \(expression)")
                } catch {
                    throw NativeDefaultRefused(field: "\(table.name).\(column.name)", sql: sql, reason: error.message)
                }
            }
        }
    }
}
