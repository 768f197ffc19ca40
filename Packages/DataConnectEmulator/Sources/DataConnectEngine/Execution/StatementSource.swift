import SQLiteKit

/// A connection that hands out prepared statements, cached by SQL text.
public protocol StatementSource {
    /// The underlying connection.
    var connection: Connection { get }
    /// A prepared statement for `sql`, reset and with cleared bindings.
    func statement(_ sql: String) throws(SQLiteError) -> Statement
}

/// A connection with a statement cache of its own (one thread at a time).
public final class CachingConnection: StatementSource, @unchecked Sendable {
    /// The connection.
    public let connection: Connection
    private var cache = LRUCache<String, Statement>(capacity: CachingConnection.capacity)

    /// The most prepared statements one connection keeps.
    static let capacity = 2_000

    /// Wraps a connection.
    public init(_ connection: Connection) {
        self.connection = connection
    }

    /// A cached prepared statement for `sql`.
    public func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let cached = cache[sql] {
            cached.reset()
            cached.clearBindings()
            return cached
        }
        let statement = try connection.prepare(sql, persistent: true)
        cache[sql] = statement
        return statement
    }
}
