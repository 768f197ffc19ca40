import Foundation
import MoviesModels

/// Filtering and sorting of the movie list, as pure functions.
public enum MovieList {
    /// The movies of `genre` (all when `nil`) whose titles contain `search`, in `sort` order.
    ///
    /// The search ignores case and accents: `amelie` finds `Amélie`.
    ///
    /// - Parameters:
    ///   - movies: All movies.
    ///   - genre: The genre, or `nil` for all.
    ///   - search: The text to find in titles; empty matches all.
    ///   - sort: The order.
    /// - Returns: The movies to show.
    public static func visible(_ movies: [MovieRow], genre: String?, search: String, sort: MovieSort) -> [MovieRow] {
        let needle = fold(search)
        let kept = movies.filter { movie in
            (genre == nil || movie.genre == genre) && (needle.isEmpty || fold(movie.title).contains(needle))
        }
        return kept.sorted { areInIncreasingOrder($0, $1, sort) }
    }

    /// The distinct genres of `movies`, alphabetically.
    public static func genres(of movies: [MovieRow]) -> [String] {
        Set(movies.compactMap(\.genre)).sorted()
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    private static func areInIncreasingOrder(_ lhs: MovieRow, _ rhs: MovieRow, _ sort: MovieSort) -> Bool {
        let primary: ComparisonResult
        switch sort.key {
        case .title: primary = compare(fold(lhs.title), fold(rhs.title))
        case .year: primary = compare(lhs.releaseYear ?? Int.min, rhs.releaseYear ?? Int.min)
        case .rating: primary = compare(lhs.rating ?? Int.min, rhs.rating ?? Int.min)
        }
        if primary != .orderedSame {
            return sort.descending ? primary == .orderedDescending : primary == .orderedAscending
        }
        let title = compare(fold(lhs.title), fold(rhs.title))
        if title != .orderedSame { return title == .orderedAscending }
        return lhs.id < rhs.id
    }

    private static func compare<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
        lhs < rhs ? .orderedAscending : (lhs > rhs ? .orderedDescending : .orderedSame)
    }
}
