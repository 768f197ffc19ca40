import DataConnectWire
import GraphQLLanguage

/// Which lists of an operation's answer come in a defined order, and by which fields: read from the operation's
/// selection set and the request's variables.
///
/// SQL defines no order for rows without `ORDER BY`, nor for rows that tie on every `ORDER BY` key. So a list
/// field without `orderBy` is a multiset of rows, and one with `orderBy` is a sequence of runs of rows that tie
/// on its keys, each run a multiset. ``canonical(_:)`` rewrites an answer so that two answers are equal exactly
/// when they are equal under that reading: unordered lists sorted by their rows' canonical JSON, runs of tied rows
/// sorted the same way, everything else as it came.
///
/// ```swift
/// let shape = ResponseShape(operation: listMovies, fragments: [:], variables: [:])
/// shape.canonical(sqliteData) == shape.canonical(postgreSQLData)
/// ```
struct ResponseShape: Sendable {
    /// How the rows of one field are ordered.
    enum Order: Sendable, Equatable {
        /// A field without a selection set (a scalar, or a list column such as `tags`): compared as it is.
        case leaf
        /// A field with a selection set and no `orderBy`: when it is a list, its rows are a multiset.
        case unordered
        /// Rows in order of these paths (response keys, from a row down) into each row; rows equal on every path
        /// may come in any order. A path is missing when the operation orders by a field it does not select.
        case ordered([[String]])
    }

    /// One response key of a selection: its order and the shape of its selection.
    struct Field: Sendable {
        var order: Order
        var children: ResponseShape
    }

    /// The selection's fields by response key.
    var fields: [String: Field] = [:]

    init() {}

    /// The shape of an operation's answer (its `data`).
    ///
    /// - Parameters:
    ///   - operation: The operation, as the connector declares it.
    ///   - fragments: The connector's fragments by name.
    ///   - variables: The request's variables: an `orderBy` term whose variable is absent or null orders nothing.
    init(operation: OperationDefinition, fragments: [String: FragmentDefinition], variables: JSONObject) {
        var defaults: [String: Value] = [:]
        for definition in operation.variables {
            if let value = definition.defaultValue { defaults[definition.name.value] = value }
        }
        let context = Context(fragments: fragments, variables: variables, defaults: defaults)
        self.init(operation.selectionSet, context: context)
    }

    /// What reading a selection needs besides the selection.
    private struct Context {
        let fragments: [String: FragmentDefinition]
        let variables: JSONObject
        let defaults: [String: Value]
    }

    private init(_ selectionSet: SelectionSet, context: Context) {
        for field in Self.expandedFields(of: selectionSet, context: context) {
            guard let selection = field.selectionSet else {
                fields[field.responseKey] = Field(order: .leaf, children: ResponseShape())
                continue
            }
            let children = ResponseShape(selection, context: context)
            if var merged = fields[field.responseKey] {
                merged.children.fields.merge(children.fields) { first, _ in first }
                fields[field.responseKey] = merged
                continue
            }
            let terms = field.arguments.first { $0.name.value == "orderBy" }.map {
                Self.terms($0.value, context: context)
            }
            let order: Order
            if let terms, !terms.isEmpty {
                order = .ordered(terms.compactMap { Self.responsePath($0, in: selection, context: context) })
            } else {
                order = .unordered
            }
            fields[field.responseKey] = Field(order: order, children: children)
        }
    }

    /// The fields of a selection set with fragment spreads and inline fragments expanded.
    private static func expandedFields(of selectionSet: SelectionSet, context: Context) -> [GraphQLLanguage.Field] {
        selectionSet.selections.flatMap { selection -> [GraphQLLanguage.Field] in
            switch selection {
            case .field(let field):
                return [field]
            case .inlineFragment(let fragment):
                return expandedFields(of: fragment.selectionSet, context: context)
            case .fragmentSpread(let spread):
                guard let fragment = context.fragments[spread.name.value] else { return [] }
                return expandedFields(of: fragment.selectionSet, context: context)
            }
        }
    }

    /// The field-name paths an `orderBy` value orders by, in order.
    private static func terms(_ value: Value, context: Context) -> [[String]] {
        switch value {
        case .list(let items, _):
            return items.flatMap { terms($0, context: context) }
        case .object(let entries, _):
            return entries.flatMap { entry -> [[String]] in
                switch entry.value {
                case .object, .list:
                    return terms(entry.value, context: context).map { [entry.name.value] + $0 }
                case .variable(let name):
                    guard let resolved = resolve(name.value, context: context) else { return [] }
                    switch resolved {
                    case .json(.object(let object)):
                        return terms(JSONValue.object(object)).map { [entry.name.value] + $0 }
                    case .ast(let nested) where isComposite(nested):
                        return terms(nested, context: context).map { [entry.name.value] + $0 }
                    default:
                        return [[entry.name.value]]
                    }
                case .null:
                    return []
                default:
                    return [[entry.name.value]]
                }
            }
        case .variable(let name):
            switch resolve(name.value, context: context) {
            case .json(let json)?: return terms(json)
            case .ast(let nested)?: return terms(nested, context: context)
            case nil: return []
            }
        default:
            return []
        }
    }

    /// The field-name paths of an `orderBy` value given as a variable.
    private static func terms(_ value: JSONValue) -> [[String]] {
        switch value {
        case .array(let items):
            return items.flatMap { terms($0) }
        case .object(let object):
            return object.flatMap { key, nested -> [[String]] in
                switch nested {
                case .null: return []
                case .object, .array: return terms(nested).map { [key] + $0 }
                default: return [[key]]
                }
            }
        default:
            return []
        }
    }

    private enum Resolved {
        case json(JSONValue)
        case ast(Value)
    }

    /// A variable's value: the request's when given and not null, else the declared default.
    private static func resolve(_ name: String, context: Context) -> Resolved? {
        if let value = context.variables[name] {
            return value.isNull ? nil : .json(value)
        }
        if let value = context.defaults[name] {
            if case .null = value { return nil }
            return .ast(value)
        }
        return nil
    }

    private static func isComposite(_ value: Value) -> Bool {
        switch value {
        case .object, .list: return true
        default: return false
        }
    }

    /// The response-key path of a field-name path, looked up in the selection; `nil` when a field is not selected.
    private static func responsePath(_ names: [String], in selectionSet: SelectionSet, context: Context) -> [String]? {
        guard let name = names.first else { return [] }
        let candidates = expandedFields(of: selectionSet, context: context).filter { $0.name.value == name }
        guard let field = candidates.first(where: { $0.arguments.isEmpty }) ?? candidates.first else { return nil }
        if names.count == 1 { return [field.responseKey] }
        guard let selection = field.selectionSet,
            let rest = responsePath(Array(names.dropFirst()), in: selection, context: context)
        else { return nil }
        return [field.responseKey] + rest
    }
}

// MARK: - Canonical answers

extension ResponseShape {
    /// The answer rewritten so that answers equal up to the order SQL leaves undefined are equal.
    ///
    /// - Parameter value: The `data` of an answer, or any object this shape describes.
    /// - Returns: The value with every unordered list, and every run of tied rows, sorted by canonical JSON.
    func canonical(_ value: JSONValue) -> JSONValue {
        guard case .object(let object) = value else { return value }
        var result = JSONObject()
        for (key, nested) in object {
            guard let field = fields[key] else {
                result[key] = nested
                continue
            }
            result[key] = Self.canonical(nested, field: field)
        }
        return .object(result)
    }

    private static func canonical(_ value: JSONValue, field: Field) -> JSONValue {
        switch (value, field.order) {
        case (_, .leaf):
            return value
        case (.array(let items), .unordered):
            return .array(sortedByJSON(items.map { field.children.canonical($0) }))
        case (.array(let items), .ordered(let paths)):
            let rows = items.map { field.children.canonical($0) }
            var result: [JSONValue] = []
            var run: [JSONValue] = []
            var runKey: String?
            for row in rows {
                let key = JSONValue.array(paths.map { row.value(at: $0) }).jsonString(canonical: true)
                if key != runKey {
                    result += sortedByJSON(run)
                    run = []
                    runKey = key
                }
                run.append(row)
            }
            return .array(result + sortedByJSON(run))
        default:
            return field.children.canonical(value)
        }
    }

    private static func sortedByJSON(_ rows: [JSONValue]) -> [JSONValue] {
        rows.map { ($0.jsonString(canonical: true), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

extension JSONValue {
    /// The value at a path of object keys; `null` when a key is missing.
    func value(at path: [String]) -> JSONValue {
        var current = self
        for key in path {
            guard let next = current[key] else { return .null }
            current = next
        }
        return current
    }

    /// The value with every string, at any depth, replaced by `transform` of it.
    func mappingStrings(_ transform: (String) -> String) -> JSONValue {
        switch self {
        case .string(let text):
            return .string(transform(text))
        case .array(let items):
            return .array(items.map { $0.mappingStrings(transform) })
        case .object(let object):
            return .object(JSONObject(object.map { ($0.key, $0.value.mappingStrings(transform)) }))
        default:
            return self
        }
    }
}
