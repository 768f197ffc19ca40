/// Checks `@col(dataType:)` against the field's GraphQL type.
///
/// The data types are PostgreSQL names (upstream runs on PostgreSQL); the SQLite backend maps each
/// to its storage class and enforces `varchar(n)` with a length check.
enum SQLDataType {
    enum Result {
        /// Compatible; the `n` of `varchar(n)`/`char(n)` when there is one.
        case ok(maxLength: Int?)
        case problem(String)
    }

    /// PostgreSQL types accepted for each scalar.
    static let compatible: [ScalarType: Set<String>] = [
        .string: ["text", "varchar", "character varying", "char", "character", "citext", "name"],
        .int: ["int", "int4", "integer", "int2", "smallint", "serial", "serial4", "smallserial", "serial2"],
        .int64: [
            "int8", "bigint", "bigserial", "serial8", "int", "int4", "integer", "int2", "smallint", "serial", "numeric",
            "decimal",
        ],
        .float: ["float8", "double precision", "float4", "real", "numeric", "decimal", "float"],
        .boolean: ["bool", "boolean"],
        .uuid: ["uuid"],
        .date: ["date"],
        .timestamp: ["timestamptz", "timestamp", "timestamp with time zone", "timestamp without time zone"],
        .any: ["jsonb", "json"],
        .vector: ["vector"],
    ]

    /// The auto-numbered types: the database assigns the next number when an insert gives none.
    static let serialTypes: Set<String> = ["serial", "serial4", "smallserial", "serial2", "bigserial", "serial8"]

    static func check(_ dataType: String, for type: ColumnType, isList: Bool) -> Result {
        var text = dataType.lowercased().trimmingCharacters(in: " ")
        if text.hasSuffix("[]") { text = String(text.dropLast(2)).trimmingCharacters(in: " ") }
        var base = text
        var parameter: Int?
        if let open = text.firstIndex(of: "("), text.hasSuffix(")") {
            base = String(text[..<open]).trimmingCharacters(in: " ")
            let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
            let first = inner.split(separator: ",").first.map { String($0).trimmingCharacters(in: " ") } ?? ""
            guard let n = Int(first), n > 0 else {
                return .problem("invalid @col(dataType:) \"\(dataType)\": the size must be a positive integer")
            }
            parameter = n
        }
        let scalar: ScalarType
        switch type {
        case .enumeration(let name):
            return .problem("@col(dataType:) does not apply to enum fields (\"\(name)\")")
        case .scalar(let s):
            scalar = s
        }
        guard let allowed = compatible[scalar] else { return .ok(maxLength: nil) }
        guard allowed.contains(base) else {
            let known = compatible.values.contains { $0.contains(base) }
            if known {
                return .problem("@col(dataType: \"\(dataType)\") does not fit a field of type \(scalar.rawValue)")
            }
            return .problem("unknown @col(dataType:) \"\(dataType)\"")
        }
        if ["varchar", "character varying", "char", "character"].contains(base) { return .ok(maxLength: parameter) }
        return .ok(maxLength: nil)
    }
}
