// The GraphQL abstract syntax tree (October 2021 spec, plus `repeatable` directives), one file per part:
// documents, executable definitions, selections, values, type references, directives and type-system
// definitions.
//
// Every node keeps the location of its first token and the name of its source file, so later phases (schema
// compilation, validation) report errors with a place. Nodes compare by content with synthesized `Equatable`
// and `Hashable`: their `NodeLocation`s and `SourceTrivia` (comments, block-string spelling) always compare
// equal, which is what printer round-trip tests rely on.

/// A parsed document: executable definitions, type-system definitions and extensions, in order.
public struct Document: Hashable, Sendable {
    public var definitions: [Definition]

    public init(definitions: [Definition]) {
        self.definitions = definitions
    }

    /// The operations, in document order.
    public var operations: [OperationDefinition] {
        definitions.compactMap { if case .operation(let op) = $0 { op } else { nil } }
    }

    /// The fragments, in document order.
    public var fragments: [FragmentDefinition] {
        definitions.compactMap { if case .fragment(let f) = $0 { f } else { nil } }
    }
}

/// Any top-level definition.
public enum Definition: Hashable, Sendable {
    case operation(OperationDefinition)
    case fragment(FragmentDefinition)
    case schema(SchemaDefinition)
    case type(TypeDefinition)
    case directive(DirectiveDefinition)
    case schemaExtension(SchemaDefinition)
    case typeExtension(TypeDefinition)

    /// The location of the definition's first token.
    public var location: NodeLocation {
        switch self {
        case .operation(let d): d.location
        case .fragment(let d): d.location
        case .schema(let d), .schemaExtension(let d): d.location
        case .type(let d), .typeExtension(let d): d.location
        case .directive(let d): d.location
        }
    }
}
