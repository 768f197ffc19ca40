import DataConnectSchema

/// The Swift view of one connector: everything the renderers print, and nothing they must look up.
struct SwiftConnector: Hashable, Sendable {
    /// `connectorId` as written in `connector.yaml` (`kitchen-app`).
    var connectorId: String
    /// `KitchenApp`.
    var pascalName: String
    /// `KitchenAppConnector`.
    var className: String
    /// `kitchenAppConnector`, the static on `DataConnect`.
    var sharedInstanceName: String
    var serviceId: String
    var location: String
    /// `connector.yaml`'s path relative to the backend folder; named in every file header.
    var manifestPath: String
    var options: SwiftGenerator.Options
    var operations: [SwiftOperation]
    var enums: [SwiftEnum]
    var keys: [SwiftKey]
    var inputs: [SwiftInput]
}

/// One query or mutation and its generated class.
struct SwiftOperation: Hashable, Sendable {
    enum Kind: String, Hashable, Sendable {
        case query, mutation
    }

    var kind: Kind
    /// The GraphQL operation name, sent on the wire.
    var name: String
    /// `ListMoviesQuery`.
    var className: String
    /// `listMoviesQuery`.
    var propertyName: String
    /// The `.gql` file relative to the backend folder.
    var sourcePath: String
    /// The comment lines above the operation, trimmed.
    var documentation: [String]
    var variables: [SwiftVariable]
    var data: SwiftStruct
}

/// A variable of an operation, or a field of an input struct.
struct SwiftVariable: Hashable, Sendable {
    var name: String
    /// The Swift type without the outer optional (`Int`, `[String?]`, `MovieKey`).
    var type: String
    /// Non-null: a labelled parameter. Nullable: an `@OptionalVariable` set through the builder closure.
    var isRequired: Bool
    /// An input-struct field holding another input struct directly: stored in an array so that recursive
    /// inputs (`Movie_Filter._not: Movie_Filter`) have a finite size.
    var isIndirect = false
}

/// A `Data` struct or one of its nested structs.
struct SwiftStruct: Hashable, Sendable {
    var name: String
    var properties: [SwiftProperty]
    var nested: [SwiftStruct]
    var identity: SwiftIdentity?
}

/// A stored property of a `Data` struct.
struct SwiftProperty: Hashable, Sendable {
    /// The response key, verbatim.
    var name: String
    /// The full Swift type, optional included (`[Movie]`, `String?`).
    var type: String
}

/// The key conformances of a struct that selects its table's whole primary key.
struct SwiftIdentity: Hashable, Sendable {
    /// A key field and the property that holds it.
    struct Field: Hashable, Sendable {
        var keyField: String
        var property: String
    }

    /// `MovieKey`.
    var keyType: String
    /// `movieKey`.
    var accessorName: String
    var fields: [Field]
    /// Whether the key is the single field `id`, selected as `id`.
    var isIdentifiable: Bool
}

/// A user enum.
struct SwiftEnum: Hashable, Sendable {
    var name: String
    var values: [String]
}

/// `<Type>Key`: the primary key of one table.
struct SwiftKey: Hashable, Sendable {
    var name: String
    var fields: [SwiftVariable]
}

/// A GraphQL input object used by some variable (other than `<Type>_Key`).
struct SwiftInput: Hashable, Sendable {
    var name: String
    var fields: [SwiftVariable]
}
