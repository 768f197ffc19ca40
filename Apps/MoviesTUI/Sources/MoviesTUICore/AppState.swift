import Foundation
import MoviesModels

/// The terminal's size in character cells.
public struct ScreenSize: Equatable, Sendable {
    /// Rows.
    public var rows: Int
    /// Columns.
    public var columns: Int

    /// Creates a size.
    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }
}

/// What the keyboard currently drives.
public enum Mode: Equatable, Sendable {
    /// The movie list (and the detail pane, when open).
    case browsing
    /// Typing the incremental search after `/`.
    case searching
    /// The genre picker (`F`); the index is into ``AppState/genreChoices``.
    case pickingGenre(Int)
    /// The sign-in screen (`L`).
    case signingIn(SignInForm)
    /// The review form (`r`).
    case reviewing(ReviewForm)
    /// The help overlay (`?`); any key closes it.
    case help
}

/// The review form for one movie: a rating from 1 to 5 and a text.
public struct ReviewForm: Equatable, Sendable {
    /// The form's two fields.
    public enum Field: Equatable, Sendable {
        /// The rating, set with the digits 1 to 5 or the arrow keys.
        case rating
        /// The text.
        case text
    }

    /// The longest text accepted.
    public static let maximumTextLength = 500

    /// The movie reviewed.
    public var movieID: String
    /// Its title, for the form's heading.
    public var movieTitle: String
    /// The rating chosen, if any.
    public var rating: Int?
    /// The text typed.
    public var text: String
    /// The field keys go to.
    public var focus: Field
    /// Why the form was not submitted, or the server's error.
    public var error: String?
    /// Whether the review is being saved.
    public var isSubmitting: Bool

    /// Creates an empty form, focused on the rating.
    public init(
        movieID: String, movieTitle: String, rating: Int? = nil, text: String = "", focus: Field = .rating,
        error: String? = nil, isSubmitting: Bool = false
    ) {
        self.movieID = movieID
        self.movieTitle = movieTitle
        self.rating = rating
        self.text = text
        self.focus = focus
        self.error = error
        self.isSubmitting = isSubmitting
    }

    /// Why the form cannot be submitted, or `nil` when it can.
    public var validationError: String? {
        guard let rating, (1...5).contains(rating) else { return "Choose a rating from 1 to 5." }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return "Write a few words." }
        if text.count > Self.maximumTextLength { return "At most \(Self.maximumTextLength) characters." }
        return nil
    }
}

/// The detail pane of one movie.
public struct DetailPane: Equatable, Sendable {
    /// What the pane shows.
    public enum Content: Equatable, Sendable {
        /// The details are being fetched.
        case loading
        /// The details.
        case loaded(MovieDetails)
        /// Fetching failed, with the reason.
        case failed(String)
    }

    /// The movie shown.
    public var movieID: String
    /// What is shown.
    public var content: Content

    /// Creates a pane.
    public init(movieID: String, content: Content = .loading) {
        self.movieID = movieID
        self.content = content
    }
}

/// A line for the status bar: a message or an error.
public struct StatusMessage: Equatable, Sendable {
    /// The text.
    public var text: String
    /// Whether it reports a failure (drawn in the error color).
    public var isError: Bool

    /// Creates a message.
    public init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}

/// Everything `movies-tui` shows, as a value: the reducer's input and output, and the layout's input.
///
/// ```swift
/// var state = AppState(emulator: "127.0.0.1:9399", size: ScreenSize(rows: 40, columns: 120))
/// (state, _) = reduce(state, .moviesLoaded(rows))
/// let frame = Screen.render(state)
/// ```
public struct AppState: Equatable, Sendable {
    /// `host:port` of the emulator, for the status bar.
    public var emulator: String
    /// The terminal size.
    public var size: ScreenSize
    /// Every movie, as last received from the feed, unsorted.
    public var movies: [MovieRow]
    /// Whether a list arrived yet.
    public var hasLoaded: Bool
    /// The genre shown, or `nil` for all.
    public var genre: String?
    /// The order.
    public var sort: MovieSort
    /// The search text: titles containing it, ignoring case and accents.
    public var search: String
    /// The selected movie's id; kept across data updates while the movie is still shown.
    public var selectedID: String?
    /// The selected row in ``visibleMovies``.
    public var selectedIndex: Int
    /// The first row of ``visibleMovies`` on screen.
    public var scrollOffset: Int
    /// The open detail pane, following the selection.
    public var detail: DetailPane?
    /// What keys drive.
    public var mode: Mode
    /// The signed-in Firebase Auth user.
    public var user: Account?
    /// The email being signed in, or the kept user being restored at start.
    public var pendingSignIn: String?
    /// Ids of the signed-in user's favorite movies.
    public var favorites: Set<String>
    /// The last message or error.
    public var message: StatusMessage?
    /// Why the latest feed update failed; cleared by the next list.
    public var feedError: String?
    /// Set when the app should restore the terminal and exit.
    public var isQuitting: Bool

    /// Creates the state at start: nothing loaded, all genres, sorted by title, signed out.
    ///
    /// - Parameters:
    ///   - emulator: `host:port`, shown in the status bar.
    ///   - size: The terminal size.
    public init(emulator: String, size: ScreenSize) {
        self.emulator = emulator
        self.size = size
        movies = []
        hasLoaded = false
        genre = nil
        sort = MovieSort()
        search = ""
        selectedID = nil
        selectedIndex = 0
        scrollOffset = 0
        detail = nil
        mode = .browsing
        user = nil
        pendingSignIn = nil
        favorites = []
        message = nil
        feedError = nil
        isQuitting = false
    }

    /// The movies on the list: filtered by genre and search, sorted.
    public var visibleMovies: [MovieRow] {
        MovieList.visible(movies, genre: genre, search: search, sort: sort)
    }

    /// The genre choices: `nil` (all) first, then every genre of the movies, alphabetically.
    public var genreChoices: [String?] {
        [nil] + MovieList.genres(of: movies).map { Optional($0) }
    }

    /// The selected movie, if any.
    public var selectedMovie: MovieRow? {
        guard let selectedID else { return nil }
        return movies.first { $0.id == selectedID }
    }

    /// How many list rows fit on screen.
    public var listHeight: Int { Screen.Geometry(self).listHeight }
}
