/// `Type : NamedType | ListType | NonNullType`
public indirect enum TypeReference: Hashable, Sendable, CustomStringConvertible {
    case named(Name)
    case list(TypeReference, NodeLocation)
    case nonNull(TypeReference, NodeLocation)

    /// The innermost named type.
    public var namedType: Name {
        switch self {
        case .named(let n): n
        case .list(let t, _), .nonNull(let t, _): t.namedType
        }
    }

    /// Whether the outermost wrapper is non-null.
    public var isNonNull: Bool { if case .nonNull = self { true } else { false } }

    /// The type without its outermost non-null wrapper.
    public var nullable: TypeReference { if case .nonNull(let t, _) = self { t } else { self } }

    /// Whether the type (ignoring an outer non-null) is a list.
    public var isList: Bool { if case .list = nullable { true } else { false } }

    public var location: NodeLocation {
        switch self {
        case .named(let n): n.location
        case .list(_, let l), .nonNull(_, let l): l
        }
    }

    /// GraphQL notation: `[String!]!`.
    public var description: String {
        switch self {
        case .named(let n): n.value
        case .list(let t, _): "[\(t)]"
        case .nonNull(let t, _): "\(t)!"
        }
    }
}
