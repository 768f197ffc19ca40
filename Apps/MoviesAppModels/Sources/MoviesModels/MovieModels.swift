/// A movie as list, search, watch and favorites show it: one table row.
///
/// Its JSON keys are the GraphQL field names of the movies connector (`releaseYear`, `aspectratio`).
public struct MovieRow: Codable, Equatable, Hashable, Sendable, Identifiable {
    /// The id, lowercase with dashes (see ``MovieID/format(_:)``).
    public var id: String
    /// The title.
    public var title: String
    /// The main genre.
    public var genre: String?
    /// The year of first release.
    public var releaseYear: Int?
    /// The catalogue rating, 1 to 5.
    public var rating: Int?
    /// The aspect ratio (`ACADEMY`, `WIDESCREEN`, `ANAMORPHIC`), when the operation selects it.
    public var aspectratio: String?
    /// The synopsis, when the operation selects it.
    public var description: String?

    /// Creates a row.
    public init(
        id: String, title: String, genre: String? = nil, releaseYear: Int? = nil, rating: Int? = nil,
        aspectratio: String? = nil, description: String? = nil
    ) {
        self.id = id
        self.title = title
        self.genre = genre
        self.releaseYear = releaseYear
        self.rating = rating
        self.aspectratio = aspectratio
        self.description = description
    }
}

/// One of the signed-in user's favorites.
public struct FavoriteRow: Codable, Equatable, Sendable {
    /// When the movie was marked, as an RFC 3339 timestamp.
    public var addedAt: String
    /// The movie.
    public var movie: MovieRow

    /// Creates a favorite.
    public init(addedAt: String, movie: MovieRow) {
        self.addedAt = addedAt
        self.movie = movie
    }
}

/// One movie with everything `movies show` prints, keyed like the `getMovieById` query.
public struct MovieDetails: Codable, Equatable, Sendable {
    /// A person: the director.
    public struct Person: Codable, Equatable, Sendable {
        /// The id.
        public var id: String
        /// The full name.
        public var name: String

        /// Creates a person.
        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// An actor with their role (`main` or `supporting`).
    public struct CastMember: Codable, Equatable, Sendable {
        /// The actor's id.
        public var id: String
        /// The actor's name.
        public var name: String
        /// `main` or `supporting`.
        public var role: String

        /// Creates a cast member.
        public init(id: String, name: String, role: String) {
            self.id = id
            self.name = name
            self.role = role
        }
    }

    /// One review.
    public struct Review: Codable, Equatable, Sendable {
        /// The author's rating, 1 to 5.
        public var rating: Int?
        /// The text.
        public var text: String?
        /// The day it was written, `YYYY-MM-DD`.
        public var reviewDate: String
        /// The author's username.
        public var username: String

        /// Creates a review.
        public init(rating: Int?, text: String?, reviewDate: String, username: String) {
            self.rating = rating
            self.text = text
            self.reviewDate = reviewDate
            self.username = username
        }
    }

    /// Review and favorite counts.
    public struct Stats: Codable, Equatable, Sendable {
        /// How many reviews the movie has.
        public var reviewCount: Int
        /// Their average rating, if there are any.
        public var averageRating: Double?
        /// How many users marked it as a favorite.
        public var favoriteCount: Int

        /// Creates statistics.
        public init(reviewCount: Int, averageRating: Double?, favoriteCount: Int) {
            self.reviewCount = reviewCount
            self.averageRating = averageRating
            self.favoriteCount = favoriteCount
        }
    }

    /// The id.
    public var id: String
    /// The title.
    public var title: String
    /// The year of first release.
    public var releaseYear: Int?
    /// The main genre.
    public var genre: String?
    /// The catalogue rating.
    public var rating: Int?
    /// The aspect ratio.
    public var aspectratio: String
    /// The synopsis.
    public var description: String?
    /// Keywords.
    public var tags: [String]
    /// Whether it counts as a classic.
    public var isClassic: Bool
    /// The director, if known.
    public var director: Person?
    /// Main actors first, then supporting ones.
    public var cast: [CastMember]
    /// The latest reviews, newest first.
    public var reviews: [Review]
    /// Review and favorite counts.
    public var stats: Stats

    /// Creates details.
    public init(
        id: String, title: String, releaseYear: Int? = nil, genre: String? = nil, rating: Int? = nil,
        aspectratio: String = "WIDESCREEN", description: String? = nil, tags: [String] = [], isClassic: Bool = false,
        director: Person? = nil, cast: [CastMember] = [], reviews: [Review] = [],
        stats: Stats = Stats(reviewCount: 0, averageRating: nil, favoriteCount: 0)
    ) {
        self.id = id
        self.title = title
        self.releaseYear = releaseYear
        self.genre = genre
        self.rating = rating
        self.aspectratio = aspectratio
        self.description = description
        self.tags = tags
        self.isClassic = isClassic
        self.director = director
        self.cast = cast
        self.reviews = reviews
        self.stats = stats
    }
}
