/// The column the movie list is sorted by.
public enum SortKey: String, CaseIterable, Equatable, Sendable {
    /// By title, case- and accent-insensitively.
    case title
    /// By release year.
    case year
    /// By catalogue rating.
    case rating

    /// The next key in the `s` cycle: title, year, rating, title.
    public var next: SortKey {
        switch self {
        case .title: .year
        case .year: .rating
        case .rating: .title
        }
    }
}

/// How the movie list is ordered: a key and a direction. Ties are broken by title, then id, ascending.
public struct MovieSort: Equatable, Sendable {
    /// The column.
    public var key: SortKey
    /// Whether the order is descending.
    public var descending: Bool

    /// Creates an order.
    ///
    /// - Parameters:
    ///   - key: The column.
    ///   - descending: Whether the order is descending.
    public init(key: SortKey = .title, descending: Bool = false) {
        self.key = key
        self.descending = descending
    }

    /// `title asc`, `rating desc`, ...
    public var label: String { "\(key.rawValue) \(descending ? "desc" : "asc")" }
}
