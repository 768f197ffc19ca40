/// A list inside an observed query's data, sorted on the client, with the changes of each update.
///
/// Made by ``QueryRefObservation/results(_:sortedBy:ascending:)``. Each consumer of ``updates`` first gets the
/// current elements (when the ref has data), then one snapshot per published result that changed the sorted
/// list, with the insertions, deletions and modifications a list view animates. ``sectioned(by:)`` groups the
/// same elements into sections.
///
/// ```swift
/// let ref = DataConnect.moviesConnector.listMoviesQuery.ref()
/// let movies = ref.results(\.movies, sortedBy: \.title)
/// Task { for await snapshot in movies.updates { print(snapshot.elements.count, snapshot.changes) } }
/// _ = try await ref.execute()
/// ```
public final class ObservedResults<Element: Identifiable & Sendable>: Sendable {
    private let subscribe: @Sendable () -> (current: [Element]?, later: AsyncStream<[Element]>)
    private let areInIncreasingOrder: @Sendable (Element, Element) -> Bool

    init(
        subscribe: @escaping @Sendable () -> (current: [Element]?, later: AsyncStream<[Element]>),
        areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) {
        self.subscribe = subscribe
        self.areInIncreasingOrder = areInIncreasingOrder
    }

    /// Snapshots of the sorted elements: the current ones first (all insertions), then each change.
    ///
    /// A published result that leaves the sorted list unchanged yields nothing. The sequence ends when the
    /// consuming task is cancelled or the ref is released.
    public var updates: AsyncStream<ResultsSnapshot<Element>> {
        let order = areInIncreasingOrder
        return Self.transform(subscribe()) { (previous: [Element]?, elements: [Element]) in
            let sorted = elements.sorted(by: order)
            let changes = ListChanges(from: previous ?? [], to: sorted)
            if previous != nil && changes.isEmpty { return nil }
            return (sorted, ResultsSnapshot(elements: sorted, changes: changes))
        }
    }

    /// The same elements grouped by `keyPath`, sections in ascending key order, each sorted like these results.
    ///
    /// - Parameter keyPath: The section key of an element, such as `\.genre`.
    /// - Returns: Sectioned results that update with the ref.
    public func sectioned<Key: Hashable & Comparable & Sendable>(
        by keyPath: KeyPath<Element, Key> & Sendable
    ) -> ObservedSectionedResults<Key, Element> {
        ObservedSectionedResults(
            subscribe: subscribe, areInIncreasingOrder: areInIncreasingOrder, sectionKey: { $0[keyPath: keyPath] })
    }

    /// Runs `step` over the current value and each later one, yielding what it returns.
    static func transform<State: Sendable, Output: Sendable>(
        _ source: (current: [Element]?, later: AsyncStream<[Element]>),
        _ step: @escaping @Sendable (State?, [Element]) -> (State, Output)?
    ) -> AsyncStream<Output> {
        let (stream, continuation) = AsyncStream.makeStream(of: Output.self, bufferingPolicy: .unbounded)
        let task = Task {
            var state: State?
            if let current = source.current, let (next, output) = step(state, current) {
                state = next
                continuation.yield(output)
            }
            for await elements in source.later {
                guard let (next, output) = step(state, elements) else { continue }
                state = next
                continuation.yield(output)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// Observed results grouped into sections by a key path, with the changes of each update.
///
/// ```swift
/// let byGenre = ref.results(\.movies, sortedBy: \.title).sectioned(by: \.genre)
/// for await snapshot in byGenre.updates {
///     for section in snapshot.sections { print(section.key, section.count) }
/// }
/// ```
public final class ObservedSectionedResults<Key: Hashable & Comparable & Sendable, Element: Identifiable & Sendable>:
    Sendable
{
    private let subscribe: @Sendable () -> (current: [Element]?, later: AsyncStream<[Element]>)
    private let areInIncreasingOrder: @Sendable (Element, Element) -> Bool
    private let sectionKey: @Sendable (Element) -> Key

    init(
        subscribe: @escaping @Sendable () -> (current: [Element]?, later: AsyncStream<[Element]>),
        areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool,
        sectionKey: @escaping @Sendable (Element) -> Key
    ) {
        self.subscribe = subscribe
        self.areInIncreasingOrder = areInIncreasingOrder
        self.sectionKey = sectionKey
    }

    /// Snapshots of the sections: the current ones first (all inserted), then each change.
    public var updates: AsyncStream<SectionedResultsSnapshot<Key, Element>> {
        let order = areInIncreasingOrder
        let sectionKey = sectionKey
        return ObservedResults<Element>.transform(subscribe()) {
            (previous: [ResultsSection<Key, Element>]?, elements: [Element]) in
            let sections = Self.group(elements.sorted(by: order), by: sectionKey)
            let changes = SectionedChanges(from: previous ?? [], to: sections)
            if previous != nil && changes.isEmpty { return nil }
            return (sections, SectionedResultsSnapshot(sections: sections, changes: changes))
        }
    }

    /// Groups sorted elements by key, keeping their order inside each section; sections ascend by key.
    static func group(_ sorted: [Element], by key: (Element) -> Key) -> [ResultsSection<Key, Element>] {
        var order: [Key] = []
        var members: [Key: [Element]] = [:]
        for element in sorted {
            let sectionKey = key(element)
            if members[sectionKey] == nil { order.append(sectionKey) }
            members[sectionKey, default: []].append(element)
        }
        return order.sorted().map { ResultsSection(key: $0, elements: members[$0] ?? []) }
    }
}

extension QueryRefObservation {
    /// The list at `elements` of this query's data, sorted on the client by `sortKey`.
    ///
    /// - Parameters:
    ///   - elements: The list inside the data, such as `\.movies`.
    ///   - sortKey: What to sort by, such as `\.title`.
    ///   - ascending: `false` sorts in descending order.
    /// - Returns: Results that update whenever the ref publishes.
    public func results<Element: Identifiable & Sendable, SortKey: Comparable & Sendable>(
        _ elements: KeyPath<ResultData, [Element]> & Sendable, sortedBy sortKey: KeyPath<Element, SortKey> & Sendable,
        ascending: Bool = true
    ) -> ObservedResults<Element> {
        ObservedResults(
            subscribe: { [self] in
                // Subscribe before reading the current data, so no result can fall between the two.
                let later = self.results
                let mapped = AsyncStream<[Element]> { continuation in
                    let task = Task {
                        for await result in later {
                            if let data = result.data { continuation.yield(data[keyPath: elements]) }
                        }
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
                return (self.data.map { $0[keyPath: elements] }, mapped)
            },
            areInIncreasingOrder: { lhs, rhs in
                ascending
                    ? lhs[keyPath: sortKey] < rhs[keyPath: sortKey] : rhs[keyPath: sortKey] < lhs[keyPath: sortKey]
            })
    }
}
