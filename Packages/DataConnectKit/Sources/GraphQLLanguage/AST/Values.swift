/// A string literal, remembering whether it was written as a block string.
public struct StringValue: Hashable, Sendable {
    public var value: String
    @SourceTrivia public var isBlock: Bool
    public var location: NodeLocation

    public init(_ value: String, isBlock: Bool = false, location: NodeLocation = .synthesized) {
        self.value = value
        self.isBlock = isBlock
        self.location = location
    }
}

/// `Value[Const]`: a literal or (outside const contexts) a variable.
public indirect enum Value: Hashable, Sendable {
    case variable(Name)
    /// The literal's source text, e.g. `-12`.
    case int(String, NodeLocation)
    /// The literal's source text, e.g. `1.5e3`.
    case float(String, NodeLocation)
    case string(StringValue)
    case boolean(Bool, NodeLocation)
    case null(NodeLocation)
    case `enum`(Name)
    case list([Value], NodeLocation)
    case object([ObjectField], NodeLocation)

    public var location: NodeLocation {
        switch self {
        case .variable(let n), .enum(let n): n.location
        case .int(_, let l), .float(_, let l), .boolean(_, let l), .null(let l), .list(_, let l), .object(_, let l): l
        case .string(let s): s.location
        }
    }
}

/// `ObjectField : Name : Value`
public struct ObjectField: Hashable, Sendable {
    public var name: Name
    public var value: Value
    public var location: NodeLocation

    public init(name: Name, value: Value, location: NodeLocation = .synthesized) {
        self.name = name
        self.value = value
        self.location = location
    }
}

/// `Argument : Name : Value`
public struct Argument: Hashable, Sendable {
    public var name: Name
    public var value: Value
    public var location: NodeLocation

    public init(name: Name, value: Value, location: NodeLocation = .synthesized) {
        self.name = name
        self.value = value
        self.location = location
    }
}
