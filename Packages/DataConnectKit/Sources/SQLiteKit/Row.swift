/// One result row copied out of SQLite: values by index or by column name.
///
/// ```swift
/// let row = try connection.query("SELECT id, title, rating FROM movies").first!
/// row[1]                             // .text("Alien")
/// row["rating"]                      // .real(8.5)
/// let title: String? = row["title"]  // "Alien"
/// ```
public struct Row: Hashable, Sendable {
    /// The column names, in order.
    public let columnNames: [String]
    /// The values, in column order.
    public let values: [SQLiteValue]

    /// Creates a row.
    public init(columnNames: [String], values: [SQLiteValue]) {
        self.columnNames = columnNames
        self.values = values
    }

    /// The number of columns.
    public var count: Int {
        values.count
    }

    /// The value at the 0-based `index`, or `NULL` when the index is out of range.
    public subscript(index: Int) -> SQLiteValue {
        values.indices.contains(index) ? values[index] : .null
    }

    /// The value of the column named `name` (case-insensitive), or `nil` when there is no such column.
    public subscript(name: String) -> SQLiteValue? {
        Self.index(of: name, in: columnNames).map { values[$0] }
    }

    /// The value at `index` converted to a Swift type, or `nil` when it is `NULL`, missing or does not convert.
    public subscript<Value: SQLiteValueConvertible>(index: Int) -> Value? {
        Value(sqliteValue: self[index])
    }

    /// The value of the column named `name` converted to a Swift type, or `nil` when it is `NULL`, missing or
    /// does not convert.
    public subscript<Value: SQLiteValueConvertible>(name: String) -> Value? {
        guard let value: SQLiteValue = self[name] else { return nil }
        return Value(sqliteValue: value)
    }

    /// The first index of `name` in `names`: an exact match first, then a case-insensitive one.
    static func index(of name: String, in names: [String]) -> Int? {
        if let exact = names.firstIndex(of: name) {
            return exact
        }
        let lowered = name.lowercased()
        return names.firstIndex { $0.lowercased() == lowered }
    }
}
