import DataConnectEngine
import DataConnectPostgreSQLStore
import DataConnectSQLiteStore
import DataConnectSchema
import DataConnectWire

#if canImport(Glibc)
import Glibc
#endif

// Prints the SQL the engine runs for one connector query, and its parameter values, through the public
// `Engine.explain`: the benchmark's database floor steps exactly this statement.
//
// Usage: sql-explain [--dialect sqlite|postgresql] BACKEND_DIR CONNECTOR OPERATION 'VARIABLES_JSON'
// `--dialect postgresql` compiles the PostgreSQL statement (over an in-memory SQLite pool: nothing runs); its
// placeholders cast the values printed below, which are in storage form, so a client may bind them all as text.
// Output: the SQL on the first line (newlines folded to spaces), then one parameter per line as
// `i:<integer>`, `r:<real>`, `t:<text>` or `n:` (null); text holds no newline (the values here do not).

func fail(_ message: String) -> Never {
    var line = "sql-explain: \(message)\n"
    _ = line.withUTF8 { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(1)
}

var arguments = Array(CommandLine.arguments)
var dialect: any SQLDialect = SQLiteDialect()
if let index = arguments.firstIndex(of: "--dialect") {
    guard index + 1 < arguments.count else { fail("--dialect needs sqlite or postgresql") }
    switch arguments[index + 1] {
    case "sqlite": dialect = SQLiteDialect()
    case "postgresql": dialect = PostgreSQLDialect()
    default: fail("unknown dialect \(arguments[index + 1]) (sqlite or postgresql)")
    }
    arguments.removeSubrange(index...index + 1)
}
guard arguments.count == 5 else {
    fail("usage: sql-explain [--dialect sqlite|postgresql] BACKEND CONNECTOR OPERATION VARIABLES_JSON")
}
let (compiled, diagnostics) = ServiceCompiler.compile(backendDirectory: arguments[1])
guard let service = compiled else { fail(diagnostics.map(\.description).joined(separator: "\n")) }
guard let variables = (try? JSONValue(parsing: arguments[4]))?.objectValue else {
    fail("variables must be a JSON object")
}
let pool: SQLitePool
do {
    pool = try SQLitePool(location: .memory, readers: 1)
} catch {
    fail("cannot open a database: \(error)")
}
let engine = Engine(service: service, database: PoolAccess(pool), dialect: dialect)
let statements = engine.explain(connector: arguments[2], operationName: arguments[3], variables: variables)
guard statements.count == 1, let statement = statements.first else {
    fail("expected one root read field, got \(statements.count) statements")
}

/// A parameter as `DatabaseValue` describes it, an SQL literal (`NULL`, `42`, `1.5`, `'it''s'`), as a typed line.
func parameterLine(_ literal: String) -> String {
    if literal == "NULL" { return "n:" }
    if literal.hasPrefix("'"), literal.hasSuffix("'"), literal.count >= 2 {
        return "t:" + String(literal.dropFirst().dropLast()).replacing("''", with: "'")
    }
    if Int64(literal) != nil { return "i:\(literal)" }
    if Double(literal) != nil { return "r:\(literal)" }
    fail("cannot read parameter \(literal)")
}

print(statement.sql.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " "))
for parameter in statement.parameters { print(parameterLine(parameter)) }
