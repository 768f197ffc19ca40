import MoviesModels

/// A difference between two snapshots of the movie list, by id.
public enum MovieChange: Equatable, Sendable, Encodable {
    /// A movie appeared.
    case added(MovieRow)
    /// A movie disappeared.
    case removed(MovieRow)
    /// A movie's fields changed.
    case changed(old: MovieRow, new: MovieRow)

    /// The differences from `old` to `new`: removals in `old`'s order, then additions and changes in `new`'s.
    ///
    /// ```swift
    /// MovieChange.between([alien], [alienRated4, heat])  // [.changed(old: alien, new: alienRated4), .added(heat)]
    /// ```
    ///
    /// - Parameters:
    ///   - old: The earlier snapshot.
    ///   - new: The later snapshot.
    /// - Returns: The changes; empty when the snapshots hold equal rows.
    public static func between(_ old: [MovieRow], _ new: [MovieRow]) -> [MovieChange] {
        let oldByID = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(new.map(\.id))
        var changes = old.filter { !newIDs.contains($0.id) }.map(MovieChange.removed)
        for row in new {
            if let previous = oldByID[row.id] {
                if previous != row { changes.append(.changed(old: previous, new: row)) }
            } else {
                changes.append(.added(row))
            }
        }
        return changes
    }

    private enum CodingKeys: String, CodingKey {
        case change, movie, previous
    }

    /// `{"change": "added"|"removed"|"changed", "movie": {...}}`, with `"previous"` for a change.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .added(let row):
            try container.encode("added", forKey: .change)
            try container.encode(row, forKey: .movie)
        case .removed(let row):
            try container.encode("removed", forKey: .change)
            try container.encode(row, forKey: .movie)
        case .changed(let old, let new):
            try container.encode("changed", forKey: .change)
            try container.encode(new, forKey: .movie)
            try container.encode(old, forKey: .previous)
        }
    }
}
