/// A node's source detail that does not change what the node means: kept for printing, left out of `==`.
///
/// Two nodes that differ only in trivia are equal, like two nodes that differ only in their ``NodeLocation``.
/// The trivia are the `#` comment lines above a node (comments are ignored tokens in GraphQL) and whether a
/// string was written as a block string (`"""a"""` and `"a"` are the same value). Wrapping such a stored
/// property is what lets every node use synthesized `Equatable` and `Hashable`.
///
/// ```swift
/// struct Field: Hashable {
///     var name: Name
///     @SourceTrivia var leadingComments: [String]
/// }
/// ```
@propertyWrapper
public struct SourceTrivia<Value: Sendable>: Hashable, Sendable {
    /// The detail.
    public var wrappedValue: Value

    /// Wraps a detail.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// Always `true`: trivia never tell nodes apart.
    public static func == (lhs: SourceTrivia, rhs: SourceTrivia) -> Bool { true }

    /// Adds nothing, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {}
}
