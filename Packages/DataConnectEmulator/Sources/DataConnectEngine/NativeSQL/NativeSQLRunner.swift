import DataConnectSchema
import DataConnectWire

/// Runs one native SQL field (`_select`, `_selectFirst`, `_execute`, `_executeReturning`,
/// `_executeReturningFirst`): binds its parameters by position, runs the statement (read-only for a query)
/// and turns its rows into JSON objects keyed by column name.
///
/// The statement is prepared through the connection's statement cache, like every other statement. A
/// failure of the SQL (syntax, unknown table, constraint) is the database's message with `INVALID_ARGUMENT`
/// for the whole request.
struct NativeSQLRunner {
    let source: any StatementSource
    let dialect: any NativeSQLSupport

    /// Runs the field.
    ///
    /// - Parameters:
    ///   - field: which native SQL field.
    ///   - statement: the checked SQL.
    ///   - parameters: the values of `$1...$n`, in order.
    ///   - insideTransaction: whether the connection has a transaction open (a mutation's).
    /// - Returns: the rows, the first row, or the number of rows affected.
    func run(
        _ field: NativeSQLField, statement: NativeSQLStatement, parameters: [DatabaseValue], insideTransaction: Bool
    ) throws(ExecutionError) -> JSONValue {
        guard field.isQuery else { return try runStatement(field, statement: statement, parameters: parameters) }
        let brackets = dialect.readOnlyBrackets(insideTransaction: insideTransaction)
        do {
            for sql in brackets.begin { try source.execute(sql) }
        } catch {
            throw .failedInDatabase(error)
        }
        do throws(ExecutionError) {
            let result = try runStatement(field, statement: statement, parameters: parameters)
            do {
                for sql in brackets.end { try source.execute(sql) }
            } catch {
                throw ExecutionError.failedInDatabase(error)
            }
            return result
        } catch {
            for sql in brackets.failed { try? source.execute(sql) }
            throw error
        }
    }

    func runStatement(
        _ field: NativeSQLField, statement: NativeSQLStatement, parameters: [DatabaseValue]
    ) throws(ExecutionError) -> JSONValue {
        let wrapped = dialect.nativeSQLWrapping(statement.text, field: field)
        let prepared: any DatabaseStatement
        do {
            prepared = try source.statement(wrapped ?? statement.text)
        } catch {
            throw Self.refusal(error, message: dialect.nativeSQLRefusal(error.message))
        }
        defer { prepared.finish() }
        try bind(parameters, to: prepared)
        if field.isQuery, !prepared.isReadOnly {
            throw ExecutionError(
                code: .invalidArgument, message: "\"\(field.rawValue)\" runs read-only queries; this SQL writes",
                isRequestLevel: true)
        }
        do {
            if wrapped != nil {
                guard try prepared.nextRow(), let bytes = prepared.textBytes(at: 0) else {
                    return field.isFirstRow ? .null : .array([])
                }
                return try Execution.parse(bytes)
            }
            var rows: [JSONValue] = []
            var names: [String] = []
            while try prepared.nextRow() {
                if field == .execute { continue }
                if field.isFirstRow && !rows.isEmpty { continue }
                if names.isEmpty { names = prepared.columnNames }
                var row = JSONObject()
                for index in 0..<prepared.columnCount {
                    let name = index < names.count ? names[index] : "column\(index + 1)"
                    row[name] = Self.json(prepared.storedValue(at: index))
                }
                rows.append(.object(row))
            }
            if field == .execute { return .number(JSONNumber(prepared.rowsChanged)) }
            return field.isFirstRow ? (rows.first ?? .null) : .array(rows)
        } catch let error as DatabaseError {
            throw Self.refusal(error, message: error.message)
        } catch let error as ExecutionError {
            throw error
        } catch {
            throw ExecutionError(code: .invalidArgument, message: "\(error)", isRequestLevel: true)
        }
    }

    /// Binds `$n` to `parameters[n - 1]` (``DatabaseStatement/bindNumberedParameters(_:)``).
    func bind(_ parameters: [DatabaseValue], to prepared: any DatabaseStatement) throws(ExecutionError) {
        do {
            try prepared.bindNumberedParameters(parameters)
        } catch {
            throw Self.refusal(error, message: error.message)
        }
    }

    /// A failure of the user's SQL: the request fails with the database's message (the time limit and an
    /// unreachable database keep their own answers).
    static func refusal(_ error: DatabaseError, message: String) -> ExecutionError {
        switch error.kind {
        case .interrupted, .unavailable, .outOfMemory, .damaged:
            return .failedInDatabase(error)
        default:
            return ExecutionError(code: .invalidArgument, message: message, isRequestLevel: true)
        }
    }

    static let hexDigits = Array("0123456789abcdef".utf8)

    /// A stored value as JSON (a blob as hexadecimal text).
    static func json(_ value: DatabaseValue) -> JSONValue {
        switch value {
        case .null: .null
        case .integer(let integer): .number(JSONNumber(integer))
        case .real(let double): .number(JSONNumber(double))
        case .text(let text): .string(text)
        case .blob(let bytes):
            .string(
                String(decoding: bytes.flatMap { [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 0x0F)]] }, as: UTF8.self))
        }
    }

    /// A parameter's JSON value as the value bound: Booleans as 1 and 0 (PostgreSQL reads `1` as true),
    /// lists and objects as JSON text.
    static func parameter(_ json: JSONValue) -> DatabaseValue {
        switch json {
        case .null: return .null
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .string(let text): return .text(text)
        case .number(let number):
            if number.isInteger, let integer = number.int64Value { return .integer(integer) }
            return .real(number.doubleValue)
        case .array, .object: return .text(json.jsonString())
        }
    }
}
