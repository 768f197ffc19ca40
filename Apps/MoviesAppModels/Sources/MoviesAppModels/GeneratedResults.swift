import FirebaseDataConnectGenerated
import MoviesModels

/// The generated SDK's results as the sample apps' models, shared by the `movies` CLI and `movies-tui`.
///
/// ```swift
/// let rows = try await connector.listMoviesQuery.execute().data.movies.map(MovieRow.init)
/// ```
extension MovieRow {
    /// A row of `listMovies`.
    public init(_ movie: ListMoviesQuery.Data.Movie) {
        self.init(
            id: MovieID.format(movie.id), title: movie.title, genre: movie.genre, releaseYear: movie.releaseYear,
            rating: movie.rating, aspectratio: movie.aspectratio.rawValue)
    }
}

extension MovieDetails {
    /// `getMovieById`'s movie: the facts, director, cast (main, then supporting), latest reviews and statistics.
    public init(_ movie: GetMovieByIdQuery.Data.Movie) {
        let main = movie.mainActors.map {
            MovieDetails.CastMember(id: MovieID.format($0.actor.id), name: $0.actor.name, role: $0.role)
        }
        let supporting = movie.supportingActors.map {
            MovieDetails.CastMember(id: MovieID.format($0.actor.id), name: $0.actor.name, role: $0.role)
        }
        let reviews = movie.reviews.map {
            MovieDetails.Review(
                rating: $0.rating, text: $0.text, reviewDate: $0.reviewDate.description, username: $0.user.username)
        }
        self.init(
            id: MovieID.format(movie.id), title: movie.title, releaseYear: movie.releaseYear, genre: movie.genre,
            rating: movie.rating, aspectratio: movie.aspectratio.rawValue, description: movie.description,
            tags: (movie.tags ?? []).compactMap { $0 }, isClassic: movie.isClassic ?? false,
            director: movie.director.map { MovieDetails.Person(id: MovieID.format($0.id), name: $0.name) },
            cast: main + supporting, reviews: reviews,
            stats: MovieDetails.Stats(
                reviewCount: movie.reviewStats.first?._count ?? 0, averageRating: movie.reviewStats.first?.rating_avg,
                favoriteCount: movie.favorites.first?._count ?? 0))
    }
}
