/// How a list changed between two versions, as indices a list view can animate.
///
/// Elements are matched by `id`. A moved element (its position relative to the others changed) is reported as
/// a deletion and an insertion. Apply deletions first (descending), then insertions (ascending), then reload
/// the modifications.
///
/// ```swift
/// let changes = ListChanges(from: oldMovies, to: newMovies)
/// tableView.performBatchUpdates { … changes.deletions … changes.insertions … }
/// ```
public struct ListChanges: Hashable, Sendable {
    /// Positions in the previous version of the elements that are gone, ascending.
    public var deletions: [Int]
    /// Positions in the new version of the elements that are new, ascending.
    public var insertions: [Int]
    /// Positions in the new version of the elements kept in place whose contents changed, ascending.
    public var modifications: [Int]

    /// Creates changes from index lists.
    public init(deletions: [Int] = [], insertions: [Int] = [], modifications: [Int] = []) {
        self.deletions = deletions
        self.insertions = insertions
        self.modifications = modifications
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }

    /// The changes that turn `old` into `new`.
    ///
    /// Contents are compared with `sameContents`, since generated `Data` types compare by key only.
    ///
    /// - Parameters:
    ///   - old: The previous elements.
    ///   - new: The current elements.
    ///   - sameContents: Whether two elements with the same id hold the same values.
    public init<Element: Identifiable & Sendable>(
        from old: [Element], to new: [Element], sameContents: (Element, Element) -> Bool = ContentComparison.equal
    ) {
        let difference = new.difference(from: old) { $0.id == $1.id }
        var deletions: [Int] = []
        var insertions: [Int] = []
        for change in difference {
            switch change {
            case .remove(let offset, _, _): deletions.append(offset)
            case .insert(let offset, _, _): insertions.append(offset)
            }
        }
        deletions.sort()
        insertions.sort()
        // Elements neither removed nor inserted keep their relative order: pair them up in sequence.
        let removed = Set(deletions)
        let inserted = Set(insertions)
        let keptOld = old.indices.filter { !removed.contains($0) }
        let keptNew = new.indices.filter { !inserted.contains($0) }
        var modifications: [Int] = []
        for (oldIndex, newIndex) in zip(keptOld, keptNew) where !sameContents(old[oldIndex], new[newIndex]) {
            modifications.append(newIndex)
        }
        self.init(deletions: deletions, insertions: insertions, modifications: modifications)
    }
}

/// A position in sectioned results.
public struct SectionedIndex: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section's position.
    public var section: Int
    /// The element's position inside the section.
    public var item: Int

    /// Creates a position.
    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    /// Orders by section, then item.
    public static func < (lhs: SectionedIndex, rhs: SectionedIndex) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// `[section, item]`.
    public var description: String { "[\(section), \(item)]" }
}

/// How sectioned results changed, in the shape a sectioned list view animates.
///
/// Sections are matched by key, elements by `id`. Elements of inserted or deleted sections are not listed
/// individually; an element that moves to another section is a deletion there and an insertion here.
public struct SectionedChanges: Hashable, Sendable {
    /// Positions in the previous version of the sections that are gone.
    public var deletedSections: [Int]
    /// Positions in the new version of the sections that are new.
    public var insertedSections: [Int]
    /// Positions in the previous version of elements removed from surviving sections.
    public var deletions: [SectionedIndex]
    /// Positions in the new version of elements added to surviving sections.
    public var insertions: [SectionedIndex]
    /// Positions in the new version of kept elements whose contents changed.
    public var modifications: [SectionedIndex]

    /// Creates changes from index lists.
    public init(
        deletedSections: [Int] = [], insertedSections: [Int] = [], deletions: [SectionedIndex] = [],
        insertions: [SectionedIndex] = [], modifications: [SectionedIndex] = []
    ) {
        self.deletedSections = deletedSections
        self.insertedSections = insertedSections
        self.deletions = deletions
        self.insertions = insertions
        self.modifications = modifications
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && deletions.isEmpty && insertions.isEmpty
            && modifications.isEmpty
    }

    /// The changes that turn `old` into `new`.
    public init<Key: Hashable & Sendable, Element: Identifiable & Sendable>(
        from old: [ResultsSection<Key, Element>], to new: [ResultsSection<Key, Element>],
        sameContents: (Element, Element) -> Bool = ContentComparison.equal
    ) {
        let sectionChanges = ListChanges(
            from: old.map(SectionKey.init), to: new.map(SectionKey.init), sameContents: { _, _ in true })
        self.init(deletedSections: sectionChanges.deletions, insertedSections: sectionChanges.insertions)
        let oldPositions = Dictionary(old.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        for (newSection, section) in new.enumerated() {
            guard let oldSection = oldPositions[section.key], !sectionChanges.insertions.contains(newSection) else {
                continue
            }
            let items = ListChanges(
                from: old[oldSection].elements, to: section.elements, sameContents: sameContents)
            deletions += items.deletions.map { SectionedIndex(section: oldSection, item: $0) }
            insertions += items.insertions.map { SectionedIndex(section: newSection, item: $0) }
            modifications += items.modifications.map { SectionedIndex(section: newSection, item: $0) }
        }
        deletions.sort()
        insertions.sort()
        modifications.sort()
    }
}

/// A section's identity for diffing sections by key.
private struct SectionKey<Key: Hashable & Sendable>: Identifiable, Sendable {
    var id: Key
    init<Element>(_ section: ResultsSection<Key, Element>) { id = section.key }
}

/// Compares two values by everything they hold.
///
/// Generated `Data` structs compare by primary key only (so that lists keep their identity), which cannot tell
/// an edited row from an unchanged one. Their full contents are compared through their reflected description,
/// which for structs and enums lists every stored value, recursively and in declaration order.
public enum ContentComparison {
    /// Whether `lhs` and `rhs` hold the same values.
    public static func equal<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
        String(reflecting: lhs) == String(reflecting: rhs)
    }
}
