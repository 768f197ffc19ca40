import Foundation
import MoviesModels

/// A parsed `movies` command line: what to do, and the options every command shares.
///
/// ``MoviesCommand/parse(_:)`` builds one from the arguments after the program name; the `movies`
/// executable then runs it against the movies connector.
///
/// ```swift
/// let command = try MoviesCommand.parse(["list", "--genre", "Sci-Fi", "--json"])
/// // command.action == .list(ListOptions(genre: "Sci-Fi")), command.json == true
/// ```
public struct MoviesCommand: Equatable, Sendable {
    /// What the command does.
    public var action: Action
    /// The emulator given with `--emulator`, or `nil` for the default (see ``emulatorAddress(environment:)``).
    public var emulator: EmulatorAddress?
    /// Whether `--json` asked for JSON instead of a table; only read commands accept it.
    public var json: Bool

    /// Creates a command.
    ///
    /// - Parameters:
    ///   - action: What the command does.
    ///   - emulator: The emulator given with `--emulator`, if any.
    ///   - json: Whether to print JSON.
    public init(_ action: Action, emulator: EmulatorAddress? = nil, json: Bool = false) {
        self.action = action
        self.emulator = emulator
        self.json = json
    }

    /// One `movies` subcommand with its own options.
    public enum Action: Equatable, Sendable {
        /// `movies help [COMMAND]`, `movies --help`, `movies COMMAND --help`.
        case help(topic: HelpTopic?)
        /// `movies list [--genre G] [--sort title|year|rating] [--desc] [--limit N] [--page N]`.
        case list(ListOptions)
        /// `movies search TEXT [--genre G] [--min-year Y] [--max-year Y] [--min-rating R]`.
        case search(SearchOptions)
        /// `movies show ID`.
        case show(id: UUID)
        /// `movies add --title T --year Y --genre G --rating R [--aspect A] [--tags a,b]`.
        case add(NewMovie)
        /// `movies review ID --rating N [--text T]`.
        case review(ReviewOptions)
        /// `movies delete ID`.
        case delete(id: UUID)
        /// `movies favorites [add ID | remove ID]`.
        case favorites(FavoritesAction)
        /// `movies signup --email E (--password P | --password-stdin) [--name N]`.
        case signup(SignUpOptions)
        /// `movies login --email E (--password P | --password-stdin)`.
        case login(Credentials)
        /// `movies logout`.
        case logout
        /// `movies whoami`.
        case whoami
        /// `movies watch [--genre G] [--poll]`.
        case watch(genre: String?, poll: Bool = false)

        /// Whether the action only reads, so `--json` applies to it.
        public var isRead: Bool {
            switch self {
            case .list, .search, .show, .favorites(.list), .whoami, .watch: true
            case .help, .add, .review, .delete, .favorites, .signup, .login, .logout: false
            }
        }
    }
}

/// The commands `movies help` describes.
public enum HelpTopic: String, CaseIterable, Equatable, Sendable {
    /// `movies list`.
    case list
    /// `movies search`.
    case search
    /// `movies show`.
    case show
    /// `movies add`.
    case add
    /// `movies review`.
    case review
    /// `movies delete`.
    case delete
    /// `movies favorites`.
    case favorites
    /// `movies signup`.
    case signup
    /// `movies login`.
    case login
    /// `movies logout`.
    case logout
    /// `movies whoami`.
    case whoami
    /// `movies watch`.
    case watch
}

/// The column `movies list` orders by.
public enum MovieSortKey: String, CaseIterable, Equatable, Sendable {
    /// Alphabetical by title (the default).
    case title
    /// By release year; movies without one come last.
    case year
    /// By catalogue rating; movies without one come last.
    case rating
}

/// Options of `movies list`.
public struct ListOptions: Equatable, Sendable {
    /// Only movies of this genre (compared ignoring case).
    public var genre: String?
    /// The column to order by.
    public var sort: MovieSortKey
    /// Whether to order descending.
    public var descending: Bool
    /// At most this many rows (the page size when ``page`` is given).
    public var limit: Int?
    /// The 1-based page of ``limit`` rows (20 when no limit is given).
    public var page: Int?

    /// Creates list options; the defaults list every movie by title.
    public init(
        genre: String? = nil, sort: MovieSortKey = .title, descending: Bool = false, limit: Int? = nil,
        page: Int? = nil
    ) {
        self.genre = genre
        self.sort = sort
        self.descending = descending
        self.limit = limit
        self.page = page
    }
}

/// Options of `movies search`.
public struct SearchOptions: Equatable, Sendable {
    /// Text to find in titles and descriptions.
    public var text: String
    /// Only movies of this genre.
    public var genre: String?
    /// Only movies released in or after this year.
    public var minYear: Int?
    /// Only movies released in or before this year.
    public var maxYear: Int?
    /// Only movies rated at least this.
    public var minRating: Int?

    /// Creates search options.
    public init(
        text: String, genre: String? = nil, minYear: Int? = nil, maxYear: Int? = nil, minRating: Int? = nil
    ) {
        self.text = text
        self.genre = genre
        self.minYear = minYear
        self.maxYear = maxYear
        self.minRating = minRating
    }
}

/// The aspect ratio a movie was shot in, as `--aspect` takes it (the schema's `AspectRatio`).
public enum AspectRatioOption: String, CaseIterable, Equatable, Sendable {
    /// 1.37:1.
    case academy = "ACADEMY"
    /// 1.66:1 to 1.85:1.
    case widescreen = "WIDESCREEN"
    /// 2.39:1.
    case anamorphic = "ANAMORPHIC"
}

/// A movie to add with `movies add`.
public struct NewMovie: Equatable, Sendable {
    /// The title.
    public var title: String
    /// The year of first release.
    public var releaseYear: Int
    /// The main genre.
    public var genre: String
    /// The catalogue rating, 1 to 5.
    public var rating: Int
    /// The aspect ratio; the schema's default (`WIDESCREEN`) when `nil`.
    public var aspectRatio: AspectRatioOption?
    /// Keywords; none when empty.
    public var tags: [String]

    /// Creates a new movie.
    public init(
        title: String, releaseYear: Int, genre: String, rating: Int, aspectRatio: AspectRatioOption? = nil,
        tags: [String] = []
    ) {
        self.title = title
        self.releaseYear = releaseYear
        self.genre = genre
        self.rating = rating
        self.aspectRatio = aspectRatio
        self.tags = tags
    }
}

/// Options of `movies review`.
public struct ReviewOptions: Equatable, Sendable {
    /// The movie reviewed.
    public var movieID: UUID
    /// The rating, 1 to 5.
    public var rating: Int
    /// The review text; empty when not given.
    public var text: String

    /// Creates review options.
    public init(movieID: UUID, rating: Int, text: String = "") {
        self.movieID = movieID
        self.rating = rating
        self.text = text
    }
}

/// What `movies favorites` does.
public enum FavoritesAction: Equatable, Sendable {
    /// Lists the signed-in user's favorites.
    case list
    /// Marks a movie as a favorite.
    case add(UUID)
    /// Unmarks a favorite.
    case remove(UUID)
}

/// Where `movies signup` and `movies login` read the password from.
public enum PasswordSource: Equatable, Sendable {
    /// `--password P`: on the command line (visible in `ps` and the shell's history).
    case argument(String)
    /// `--password-stdin`: the first line of standard input, so scripts keep it off the command line.
    case standardInput

    /// The password: the argument, or the first line `readLine` returns, without its line ending.
    ///
    /// ```swift
    /// try PasswordSource.standardInput.resolve { "secret-1\r" }  // "secret-1"
    /// ```
    ///
    /// - Parameter readLine: Reads one line of standard input without its `\n`, or `nil` at its end.
    /// - Returns: The password.
    /// - Throws: ``UsageError`` when standard input ends before a non-empty line.
    public func resolve(readLine: () -> String?) throws(UsageError) -> String {
        switch self {
        case .argument(let password):
            return password
        case .standardInput:
            var line = readLine() ?? ""
            if line.hasSuffix("\r") { line.removeLast() }
            guard !line.isEmpty else { throw UsageError("--password-stdin read no password from standard input") }
            return line
        }
    }
}

/// An email and where its password comes from, as `movies login` and `movies signup` take them.
public struct Credentials: Equatable, Sendable {
    /// The account's email.
    public var email: String
    /// Where the password comes from.
    public var password: PasswordSource

    /// Creates credentials.
    public init(email: String, password: PasswordSource) {
        self.email = email
        self.password = password
    }
}

/// Options of `movies signup`.
public struct SignUpOptions: Equatable, Sendable {
    /// The new account's email and password.
    public var credentials: Credentials
    /// The display name and public username; the uid when not given.
    public var name: String?

    /// Creates sign-up options.
    public init(credentials: Credentials, name: String? = nil) {
        self.credentials = credentials
        self.name = name
    }
}
