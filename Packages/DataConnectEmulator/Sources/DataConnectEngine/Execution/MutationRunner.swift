import DataConnectCEL
import DataConnectSchema
import DataConnectWire

/// The result of one mutation root field.
struct MutationFieldResult {
    /// The field's JSON (a key object, a list of keys, a count, or null).
    var json: JSONValue
    /// The entity written, for `extensions.dataConnect`.
    var entityIDs: [String]
    /// What was done.
    var action: DataConnectProperties.Action?
}

/// Runs a compiled ``MutationPlan`` on the writer connection: binds each statement, steps it and turns
/// its rows into the field's result.
struct MutationRunner {
    let source: any StatementSource
    let binder: ParameterBinder

    func run(_ plan: MutationPlan) throws(ExecutionError) -> MutationFieldResult {
        let table = plan.table
        switch plan.kind {
        case .insertOne(let upsert):
            let key = try insert(plan.statements[0], table: table)
            return MutationFieldResult(json: key.json, entityIDs: [key.entityID], action: upsert ? .upsert : .create)
        case .insertMany(let upsert):
            var keys: [JSONValue] = []
            var ids: [String] = []
            for statement in plan.statements {
                let key = try insert(statement, table: table)
                keys.append(key.json)
                ids.append(key.entityID)
            }
            return MutationFieldResult(json: .array(keys), entityIDs: ids, action: upsert ? .upsert : .create)
        case .updateOne, .deleteOne:
            let key = try runReturning(plan.statements[0], table: table)
            let action: DataConnectProperties.Action = if case .updateOne = plan.kind { .update } else { .delete }
            return MutationFieldResult(
                json: key?.json ?? .null, entityIDs: key.map { [$0.entityID] } ?? [], action: action)
        case .updateMany, .deleteMany:
            let count = try runCounting(plan.statements[0], table: table)
            let action: DataConnectProperties.Action = if case .updateMany = plan.kind { .update } else { .delete }
            return MutationFieldResult(json: .number(JSONNumber(count)), entityIDs: [], action: action)
        }
    }

    // MARK: - Statements

    struct WrittenKey {
        var json: JSONValue
        var entityID: String
    }

    func readKey(_ statement: any DatabaseStatement, table: Table) -> WrittenKey {
        var object = JSONObject()
        var parts = [table.name]
        for (index, column) in table.keyColumns.enumerated() {
            let stored = statement.storedValue(at: index)
            object[column.name] = ScalarCodec.wireValue(stored, column: column)
            var text: String
            switch stored {
            case .integer(let i): text = String(i)
            case .real(let d): text = String(d)
            case .text(let s): text = s
            default: text = ""
            }
            if column.type == .scalar(.string) {
                text = text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
            }
            parts.append(text)
        }
        return WrittenKey(json: .object(object), entityID: parts.joined(separator: "/"))
    }

    func insert(_ plan: SQLStatementPlan, table: Table) throws(ExecutionError) -> WrittenKey {
        let statement = try source.prepared(plan, binder: binder)
        defer { statement.finish() }
        do {
            guard try statement.nextRow() else {
                throw ExecutionError(code: .alreadyExists, message: "\(table.name) already exists")
            }
        } catch let error as DatabaseError {
            throw Self.map(error, table: table)
        } catch let error as ExecutionError {
            throw error
        } catch {
            throw .invalid("\(error)")
        }
        return readKey(statement, table: table)
    }

    func runReturning(_ plan: SQLStatementPlan, table: Table) throws(ExecutionError) -> WrittenKey? {
        let statement = try source.prepared(plan, binder: binder)
        defer { statement.finish() }
        do {
            guard try statement.nextRow() else { return nil }
            let key = readKey(statement, table: table)
            while try statement.nextRow() {}
            return key
        } catch {
            throw Self.map(error, table: table)
        }
    }

    func runCounting(_ plan: SQLStatementPlan, table: Table) throws(ExecutionError) -> Int {
        let statement = try source.prepared(plan, binder: binder)
        defer { statement.finish() }
        do {
            while try statement.nextRow() {}
        } catch {
            throw Self.map(error, table: table)
        }
        return statement.rowsChanged
    }

    /// Maps constraint failures to Data Connect codes, with the database's message after a summary (PostgreSQL's
    /// own messages, which production answers, already say it).
    static func map(_ error: DatabaseError, table: Table) -> ExecutionError {
        let message = error.message
        func summarized(_ summary: String) -> String {
            message.contains(summary) ? message : "\(summary): \(message)"
        }
        switch error.kind {
        case .uniqueViolation:
            return ExecutionError(
                code: .alreadyExists, message: summarized("duplicate key value violates unique constraint"))
        case .foreignKeyViolation:
            return ExecutionError(code: .failedPrecondition, message: summarized("violates foreign key constraint"))
        case .notNullViolation, .checkViolation:
            return ExecutionError(code: .invalidArgument, message: "violates a constraint of \(table.name): \(message)")
        case .numericOutOfRange:
            return ExecutionError(
                code: .invalidArgument, message: "a value is out of range for \(table.name): \(message)")
        default:
            return .failedInDatabase(error)
        }
    }
}
