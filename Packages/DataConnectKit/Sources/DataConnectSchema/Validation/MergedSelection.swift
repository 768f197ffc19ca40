import GraphQLLanguage

/// An operation's selection set as the response is shaped: fragments expanded and fields merged by
/// response key.
///
/// Implements the specification's field collection (CollectFields, §6.3.2) and the merging of the
/// sub-selections of fields collected under one key (MergeSelectionSets), for a whole operation at
/// once:
/// - fields are grouped by response key, in the order keys first appear;
/// - inline fragments and fragment spreads are looked through, and a fragment spread again in the same
///   merged selection set is expanded once (the specification's visitedFragments), unless the later
///   spread adds conditions or directives that the earlier one lacks;
/// - the sub-selections of every field merged under a key are collected together, so a field written
///   twice costs one field in the result.
///
/// Fields under one key must select the same field with the same arguments (§5.3.2); each pair that
/// does not is reported at the later field. Collection stops at the first limit of ``OperationLimits``
/// crossed, before the merged tree grows past it.
///
/// `@skip` and `@include` stay per selection: a merged field records the conditions of each of its
/// selections, since it is selected when any of them is. `@check` and `@redact` are gathered from every
/// selection.
///
/// ```swift
/// let merged = MergedSelection(collecting: operation.selectionSet, fragments: fragments)
/// for root in merged.roots { print(merged.fields[root].responseKey) }
/// ```
public struct MergedSelection: Sendable {
    /// Every field of the merged tree; a field's parent comes before it.
    public internal(set) var fields: [MergedField] = []
    /// The indexes in ``fields`` of the root fields, in first-appearance order.
    public internal(set) var roots: [Int] = []
    /// The fields that cannot be merged and the limit crossed, if any; empty for a valid selection.
    public internal(set) var diagnostics: [Diagnostic] = []
    /// Whether every selection was collected: `false` once a limit stopped collection.
    public internal(set) var isComplete = true

    /// Collects and merges a selection set.
    ///
    /// - Parameters:
    ///   - selectionSet: the operation's selection set.
    ///   - fragments: the document's fragments by name; spreads of unknown fragments are ignored.
    ///   - limits: the bounds on the merged selection.
    public init(
        collecting selectionSet: SelectionSet, fragments: [String: FragmentDefinition],
        limits: OperationLimits = .default
    ) {
        var collector = FieldCollector(fragments: fragments, limits: limits)
        collector.collect(selectionSet)
        self = collector.selection
    }

    init() {}
}

/// One field of a ``MergedSelection``: every selection of one response key in one merged selection set.
public struct MergedField: Sendable {
    /// The first field written under the response key: its name, alias, arguments and location stand for
    /// every selection merged with it.
    public let field: Field
    /// How deep the field is: root fields are at depth 1.
    public let depth: Int
    /// The `@skip`/`@include` conditions of each selection of the field, one entry per distinct set.
    ///
    /// The field is selected when every condition of some entry holds. An entry holds the conditions of
    /// the selection of the enclosing field it came from, of the fragments it is selected through, and its
    /// own, in that order; an empty entry means the field is always selected.
    public internal(set) var conditionSets: [[InclusionCondition]] = []
    /// The `@check` directives of every selection (its own and those of the fragments it is selected
    /// through within its selection set), without repeats, in first-appearance order.
    public internal(set) var checks: [Directive] = []
    /// Whether a selection is `@redact`ed, itself or through a fragment.
    public internal(set) var isRedacted = false
    /// Whether a selection has a selection set.
    public internal(set) var hasSelectionSet = false
    /// The indexes in ``MergedSelection/fields`` of the merged sub-fields, in first-appearance order.
    public internal(set) var children: [Int] = []

    /// The key in the response.
    public var responseKey: String { field.responseKey }
    /// The field's name.
    public var name: String { field.name.value }
    /// Whether the response key is an alias other than the field's name.
    public var isAliased: Bool { field.responseKey != field.name.value }

    init(field: Field, depth: Int) {
        self.field = field
        self.depth = depth
    }
}

/// A `@skip(if:)` or `@include(if:)` condition on a selection.
public struct InclusionCondition: Hashable, Sendable {
    /// `true` for `@include`, `false` for `@skip`: the value the condition needs for the selection to be made.
    public var include: Bool
    /// The `if:` argument as written: a Boolean literal or a variable.
    public var value: Value

    /// Creates a condition.
    ///
    /// - Parameters:
    ///   - include: `true` for `@include`, `false` for `@skip`.
    ///   - value: the `if:` argument.
    public init(include: Bool, value: Value) {
        self.include = include
        self.value = value
    }
}
