/// Where a node starts: its file and the position of its first token.
///
/// Every syntax-tree node keeps its location so later phases (schema compilation, validation) report errors
/// with a place. A location is where a node was written, not what it says, so it takes no part in comparing
/// nodes: `==` is always `true` and `hash(into:)` adds nothing. Every node's synthesized `Equatable` and
/// `Hashable` therefore compare content only, and a field added to a node later is compared without anyone
/// having to remember to list it. This is what makes a printed and re-parsed tree equal to the original.
///
/// To compare places, compare ``file`` and ``start``.
///
/// ```swift
/// let a = NodeLocation(file: "a.gql", start: SourceLocation(line: 1, column: 1))
/// let b = NodeLocation(file: "b.gql", start: SourceLocation(line: 9, column: 4))
/// a == b                                    // true: locations never tell nodes apart
/// (a.file, a.start) == (b.file, b.start)    // false
/// ```
public struct NodeLocation: Hashable, Sendable {
    /// The source's display name.
    public var file: String
    /// Position of the node's first token.
    public var start: SourceLocation

    /// Creates a node location.
    public init(file: String, start: SourceLocation) {
        self.file = file
        self.start = start
    }

    /// A placeholder for synthesized nodes.
    public static let synthesized = NodeLocation(file: "<generated>", start: SourceLocation(line: 0, column: 0))

    /// Always `true`: the nodes holding two locations are equal or not by their content alone.
    public static func == (lhs: NodeLocation, rhs: NodeLocation) -> Bool { true }

    /// Adds nothing, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {}
}
