/// The elements of observed results that share one section key, in sorted order.
///
/// ```swift
/// for section in snapshot.sections {
///     print(section.key)
///     for movie in section { print("  ", movie.title) }
/// }
/// ```
public struct ResultsSection<Key: Hashable, Element>: Identifiable, RandomAccessCollection {
    /// The value of the section key path shared by every element.
    public let key: Key
    /// The elements, sorted.
    public let elements: [Element]

    /// Creates a section.
    public init(key: Key, elements: [Element]) {
        self.key = key
        self.elements = elements
    }

    /// The key.
    public var id: Key { key }
    /// The first element's position.
    public var startIndex: Int { elements.startIndex }
    /// One past the last element's position.
    public var endIndex: Int { elements.endIndex }
    /// The element at `position`.
    public subscript(position: Int) -> Element { elements[position] }
}

extension ResultsSection: Sendable where Key: Sendable, Element: Sendable {}
extension ResultsSection: Equatable where Element: Equatable {}

/// One version of observed results and how it differs from the previous one.
public struct ResultsSnapshot<Element: Identifiable> {
    /// The elements, sorted.
    public let elements: [Element]
    /// What changed since the previous snapshot; everything is an insertion in the first.
    public let changes: ListChanges
}

extension ResultsSnapshot: Sendable where Element: Sendable {}

/// One version of sectioned results and how it differs from the previous one.
public struct SectionedResultsSnapshot<Key: Hashable, Element: Identifiable> {
    /// The sections, ordered by key, each sorted.
    public let sections: [ResultsSection<Key, Element>]
    /// What changed since the previous snapshot; every section is inserted in the first.
    public let changes: SectionedChanges
}

extension SectionedResultsSnapshot: Sendable where Key: Sendable, Element: Sendable {}
