import DataConnectWire

/// Runs read statements and resolves the markers of a ``ReadPlan``: split relations are fetched with one
/// statement per split for all parent rows at once, and objects built in parts are merged in key order.
struct ReadAssembler {
    let source: any StatementSource
    let binder: ParameterBinder

    /// Steps a statement that answers one row of one column: its JSON text (`null` for SQL NULL or no row).
    func firstColumn(of plan: SQLStatementPlan) throws(ExecutionError) -> [UInt8] {
        let statement = try source.prepared(plan, binder: binder)
        do {
            defer { statement.finish() }
            guard try statement.nextRow() else { return Array("null".utf8) }
            return statement.textBytes(at: 0) ?? Array("null".utf8)
        } catch {
            throw .failedInDatabase(error)
        }
    }

    /// The value with every marker of `plan` resolved, its splits' markers included.
    func assemble(_ value: JSONValue, plan: ReadPlan) throws(ExecutionError) -> JSONValue {
        var keys: [Int: [String: JSONValue]] = [:]
        Self.collectKeys(value, into: &keys)
        var fetched: [Int: [String: JSONValue]] = [:]
        for (index, parents) in keys.sorted(by: { $0.key < $1.key }) {
            guard plan.splits.indices.contains(index) else {
                throw ExecutionError(code: .internal, message: "internal error: unknown split relation \(index)")
            }
            fetched[index] = try fetch(plan.splits[index], parents: parents)
        }
        return Self.resolve(value, fetched: fetched)
    }

    /// Runs a split's statement for the given parent keys: the relation's value per parent key.
    func fetch(_ split: ReadPlan, parents: [String: JSONValue]) throws(ExecutionError) -> [String: JSONValue] {
        // One key column binds the keys themselves (so an index finds them), several bind arrays.
        let bound: [JSONValue] = parents.values.map { key in
            if split.keyCount == 1, case .array(let parts) = key, let first = parts.first { return first }
            return key
        }
        var splitBinder = binder
        splitBinder.rowKeys = JSONValue.array(bound).jsonString()
        let statement = try source.prepared(split.statement, binder: splitBinder)
        var keys: [String] = []
        var values: [JSONValue] = []
        do {
            defer { statement.finish() }
            while try statement.nextRow() {
                guard let key = statement.textBytes(at: 0) else { continue }
                keys.append(try Execution.parse(key).jsonString())
                values.append(try statement.textBytes(at: 1).map { try Execution.parse($0) } ?? .null)
            }
        } catch let error as DatabaseError {
            throw .failedInDatabase(error)
        } catch let error as ExecutionError {
            throw error
        } catch {
            throw ExecutionError(code: .internal, message: "internal error: \(error)")
        }
        // The split's own splits are resolved for all of its rows at once.
        var rows = JSONValue.array(values)
        if split.needsAssembly { rows = try assemble(rows, plan: split) }
        var result: [String: JSONValue] = [:]
        if case .array(let assembled) = rows {
            for (key, value) in zip(keys, assembled) { result[key] = value }
        }
        return result
    }

    /// Records the parent keys of every split marker, by split index then canonical key text.
    static func collectKeys(_ value: JSONValue, into keys: inout [Int: [String: JSONValue]]) {
        switch value {
        case .object(let object):
            if let marker = splitMarker(object) {
                keys[marker.index, default: [:]][marker.key.jsonString()] = marker.key
                return
            }
            for (_, child) in object { collectKeys(child, into: &keys) }
        case .array(let items):
            for item in items { collectKeys(item, into: &keys) }
        default:
            break
        }
    }

    /// The value with split markers replaced by the fetched relations and parts merged into their objects.
    static func resolve(_ value: JSONValue, fetched: [Int: [String: JSONValue]]) -> JSONValue {
        switch value {
        case .object(let object):
            if let marker = splitMarker(object) {
                return fetched[marker.index]?[marker.key.jsonString()] ?? .null
            }
            var merged = JSONObject()
            merge(object, into: &merged, fetched: fetched)
            return .object(merged)
        case .array(let items):
            return .array(items.map { resolve($0, fetched: fetched) })
        default:
            return value
        }
    }

    /// Copies an object's entries in order, flattening its parts (which may have parts of their own).
    private static func merge(_ object: JSONObject, into merged: inout JSONObject, fetched: [Int: [String: JSONValue]])
    {
        for (key, child) in object {
            if key.hasPrefix(ReadPlan.partPrefix), case .object(let part) = child {
                merge(part, into: &merged, fetched: fetched)
            } else {
                merged[key] = resolve(child, fetched: fetched)
            }
        }
    }

    private static func splitMarker(_ object: JSONObject) -> (index: Int, key: JSONValue)? {
        guard object.count == 2, let index = object[ReadPlan.splitKey]?.intValue,
            let key = object[ReadPlan.parentKey]
        else { return nil }
        return (index, key)
    }
}
