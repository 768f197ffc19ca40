/// `Directive : @ Name Arguments?`
public struct Directive: Hashable, Sendable {
    public var name: Name
    public var arguments: [Argument]
    public var location: NodeLocation

    public init(name: Name, arguments: [Argument] = [], location: NodeLocation = .synthesized) {
        self.name = name
        self.arguments = arguments
        self.location = location
    }

    /// The value of the named argument, if given.
    public func argument(_ name: String) -> Argument? { arguments.first { $0.name.value == name } }
}

extension Array where Element == Directive {
    /// The first directive with this name.
    public func first(named name: String) -> Directive? { first { $0.name.value == name } }
    /// All directives with this name (for `repeatable` directives).
    public func all(named name: String) -> [Directive] { filter { $0.name.value == name } }
}
