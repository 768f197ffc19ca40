import Foundation
import MoviesModels

/// Applies `movies list` options to the catalogue: genre filter, ordering and paging.
///
/// The connector's `listMovies` query takes no arguments, and `listMoviesPaged` can neither filter by genre
/// nor order titles descending, so the command fetches `listMovies` and shapes the rows here.
///
/// ```swift
/// let page = MovieListing.apply(ListOptions(sort: .year, descending: true, limit: 5), to: movies)
/// ```
public enum MovieListing {
    /// The rows `options` select, in their order.
    ///
    /// Rows without the sort column's value come last in either direction; ties are broken by title, then id.
    ///
    /// - Parameters:
    ///   - options: The list options.
    ///   - rows: Every movie.
    /// - Returns: The filtered, ordered page.
    public static func apply(_ options: ListOptions, to rows: [MovieRow]) -> [MovieRow] {
        var selected = filter(rows, genre: options.genre)
        selected.sort { precedes($0, $1, options: options) }
        if let page = options.page {
            let size = options.limit ?? 20
            let start = min(selected.count, (page - 1) * size)
            return Array(selected[start..<min(selected.count, start + size)])
        }
        if let limit = options.limit { return Array(selected.prefix(limit)) }
        return selected
    }

    /// The rows of `genre` (ignoring case), or all rows when `genre` is `nil`.
    ///
    /// - Parameters:
    ///   - rows: The movies.
    ///   - genre: The genre, if any.
    /// - Returns: The matching rows in their order.
    public static func filter(_ rows: [MovieRow], genre: String?) -> [MovieRow] {
        guard let genre else { return rows }
        return rows.filter { $0.genre?.caseInsensitiveCompare(genre) == .orderedSame }
    }

    /// Whether `lhs` goes before `rhs`: by the sort column (missing values last in either direction), then by
    /// title ignoring case, then by id, so the order is total and stable across runs.
    private static func precedes(_ lhs: MovieRow, _ rhs: MovieRow, options: ListOptions) -> Bool {
        switch options.sort {
        case .title:
            let order = lhs.title.caseInsensitiveOrder(rhs.title)
            if order != 0 { return options.descending ? order > 0 : order < 0 }
            return lhs.id < rhs.id
        case .year, .rating:
            let key: (MovieRow) -> Int? = options.sort == .year ? { $0.releaseYear } : { $0.rating }
            switch (key(lhs), key(rhs)) {
            case (nil, .some): return false
            case (.some, nil): return true
            case (let left?, let right?) where left != right: return options.descending ? left > right : left < right
            default:
                let order = lhs.title.caseInsensitiveOrder(rhs.title)
                return order == 0 ? lhs.id < rhs.id : order < 0
            }
        }
    }
}

extension String {
    /// Case-insensitive, then exact, comparison: negative, zero or positive.
    fileprivate func caseInsensitiveOrder(_ other: String) -> Int {
        let lhs = lowercased()
        let rhs = other.lowercased()
        if lhs != rhs { return lhs < rhs ? -1 : 1 }
        if self != other { return self < other ? -1 : 1 }
        return 0
    }
}
