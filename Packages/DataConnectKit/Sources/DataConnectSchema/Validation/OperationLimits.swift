/// Bounds on the size of an operation's selection, checked before it runs.
///
/// GraphQL lets a small document ask for a huge response: fragments that spread other fragments twice
/// double at every level, and aliases repeat a field under new names. The limits apply to the *merged*
/// selection (fields grouped by response key, fragments expanded, as the response will be shaped), and
/// field collection stops as soon as one is crossed, so an oversized operation is rejected without ever
/// being built.
///
/// The defaults admit every operation of the sample backends and templates and the standard
/// introspection query (whose type references nest 15 levels deep), with room to spare:
///
/// ```swift
/// let strict = OperationLimits(maxSelectedFields: 500, maxDepth: 10)
/// let connector = OperationValidator.validate(files, api: api, limits: strict)
/// ```
public struct OperationLimits: Sendable, Hashable {
    /// The most fields the merged selection may have: every field of the response tree, `__typename`
    /// included, counted once however often it is written. Default 5,000.
    public var maxSelectedFields: Int
    /// The deepest the merged selection may nest: root fields are at depth 1. Default 32.
    public var maxDepth: Int
    /// The most fields of the merged selection whose response key is an alias other than the field's
    /// name. Default 1,000.
    public var maxAliases: Int
    /// The most selections (fields, fragment spreads and inline fragments) field collection may visit,
    /// counting a fragment's selections each time it is expanded. This bounds the work of merging, which
    /// can exceed the size of the merged result when many selections merge into few fields. Default
    /// 100,000.
    public var maxCollectedSelections: Int

    /// Creates limits; each one left out takes its default.
    ///
    /// - Parameters:
    ///   - maxSelectedFields: the most fields of the merged selection.
    ///   - maxDepth: the deepest nesting of the merged selection.
    ///   - maxAliases: the most aliased fields of the merged selection.
    ///   - maxCollectedSelections: the most selections visited while collecting fields.
    public init(
        maxSelectedFields: Int = 5_000, maxDepth: Int = 32, maxAliases: Int = 1_000,
        maxCollectedSelections: Int = 100_000
    ) {
        self.maxSelectedFields = maxSelectedFields
        self.maxDepth = maxDepth
        self.maxAliases = maxAliases
        self.maxCollectedSelections = maxCollectedSelections
    }

    /// The default limits.
    public static let `default` = OperationLimits()
}
