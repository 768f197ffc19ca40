import DataConnectWire

/// The compiled read of one root field: one statement that renders the field's JSON, and the statements
/// of relations nested deeper than the dialect lets one statement go.
///
/// Where a relation is split off, the statement writes a marker object in its place,
/// `{"$dc:split": <index into splits>, "$dc:key": [<parent key columns>]}`; the split's statement takes
/// the keys of every parent row at once (one statement per split per request, whatever the number of
/// rows) and answers one row per parent: its key and the relation's JSON. Objects wider than the
/// dialect's `json_object` are written as `{"$dc:part0": {...}, "$dc:part1": {...}}`. Response keys are
/// GraphQL names, so no `$`-prefixed key can clash with them. ``ReadAssembler`` resolves both.
struct ReadPlan: Sendable {
    /// The statement; a split's statement takes the parent keys as its last parameter (``ParameterSource/rowKeys``).
    let statement: SQLStatementPlan
    /// Relations fetched by statements of their own, by marker index.
    let splits: [ReadPlan]
    /// Whether the JSON holds markers (split relations, object parts) to resolve before use.
    let needsAssembly: Bool
    /// For a split: the number of key columns of the parent table (0 for a root field).
    let keyCount: Int
    /// The objects of the statement whose entity ids are read off a selected field rather than written by the
    /// statement, by field node (empty without entity ids).
    var derivedEntityIDs: [Int: DerivedEntityID] = [:]

    /// The marker key naming a split relation.
    static let splitKey = "$dc:split"
    /// The marker key holding the parent row's key columns.
    static let parentKey = "$dc:key"
    /// The prefix of the keys of an object's parts.
    static let partPrefix = "$dc:part"

    /// Every table the plan reads, its splits' included.
    var tables: Set<String> {
        splits.reduce(statement.tables) { $0.union($1.tables) }
    }
}

/// An entity id read off the value of an object's single key column: the type name, `/` and the value's text
/// (`Movie/<uuid>`), joined when the response is written rather than by the statement.
struct DerivedEntityID: Sendable, Hashable {
    /// The entity's type (the first part of the id).
    let typeName: String
    /// The response key of the selected key field in the object; `nil` when the key is not selected and the
    /// hidden member (``QueryBuilder/entityIDKey``) holds its bare value.
    let member: String?

    /// The id, from the key field's value; `nil` when it is not a string or a number.
    func id(from value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: typeName + "/" + text
        case .number(let number)?: typeName + "/" + number.text
        default: nil
        }
    }
}
