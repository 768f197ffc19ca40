import GraphQLLanguage

/// An operation that cannot be executed as written.
struct PlanError: Error, Sendable, CustomStringConvertible {
    let message: String
    let location: NodeLocation?
    var description: String { message }
}
