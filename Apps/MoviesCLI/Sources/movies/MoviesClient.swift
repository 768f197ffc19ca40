import FirebaseDataConnect
import FirebaseDataConnectGenerated
import Foundation
import MoviesAppModels
import MoviesCLICore
import MoviesModels

/// The movies connector as the commands use it: typed SDK calls in, MoviesCLICore models out.
struct MoviesClient: Sendable {
    private let connector: MoviesConnector

    /// Points the shared connector at the emulator. Its token comes from Firebase Auth's signed-in user (the
    /// default provider), see ``Accounts``.
    init(address: EmulatorAddress) {
        connector = DataConnect.moviesConnector
        connector.useEmulator(host: address.host, port: address.port)
    }

    // MARK: Queries

    /// Every movie (`listMovies`), fresh from the server.
    func listMovies() async throws -> [MovieRow] {
        let data = try await connector.listMoviesQuery.execute(fetchPolicy: .serverOnly).data
        return Self.rows(data)
    }

    /// Every movie list the server pushes for `listMovies`, through a realtime subscription.
    func subscribeToMovies() async throws -> AsyncStream<Result<[MovieRow], AnyDataConnectError>> {
        let updates = try await connector.listMoviesQuery.ref().subscribe()
        return AsyncStream { continuation in
            let task = Task {
                for await update in updates {
                    continuation.yield(update.map { Self.rows($0.data) })
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private static func rows(_ data: ListMoviesQuery.Data?) -> [MovieRow] {
        (data?.movies ?? []).map(MovieRow.init)
    }

    /// The movies `searchMovies` finds, best rated first.
    func search(_ options: SearchOptions) async throws -> [MovieRow] {
        // Only filters that were given are set: setting a variable to nil would send an explicit null.
        let data = try await connector.searchMoviesQuery.execute(fetchPolicy: .serverOnly) { variables in
            variables.title = options.text
            if let genre = options.genre { variables.genre = genre }
            if let minYear = options.minYear { variables.minYear = minYear }
            if let maxYear = options.maxYear { variables.maxYear = maxYear }
            if let minRating = options.minRating { variables.minRating = minRating }
        }.data
        return (data?.movies ?? []).map { movie in
            MovieRow(
                id: MovieID.format(movie.id), title: movie.title, genre: movie.genre, releaseYear: movie.releaseYear,
                rating: movie.rating, description: movie.description)
        }
    }

    /// One movie's details (`getMovieById`).
    ///
    /// - Throws: ``MoviesFailure/notFound(_:)`` when there is no such movie.
    func movie(id: UUID) async throws -> MovieDetails {
        guard let movie = try await connector.getMovieByIdQuery.execute(fetchPolicy: .serverOnly, id: id).data?.movie
        else { throw MoviesFailure.notFound("no movie with id \(MovieID.format(id))") }
        return MovieDetails(movie)
    }

    /// The signed-in user's favorites (`getCurrentUser`), newest first; none when they have no profile yet.
    func favorites() async throws -> [FavoriteRow] {
        let user = try await connector.getCurrentUserQuery.execute(fetchPolicy: .serverOnly).data?.user
        return (user?.favorites ?? []).map { favorite in
            let movie = favorite.movie
            return FavoriteRow(
                addedAt: favorite.addedAt.description,
                movie: MovieRow(
                    id: MovieID.format(movie.id), title: movie.title, genre: movie.genre,
                    releaseYear: movie.releaseYear, rating: movie.rating))
        }
    }

    // MARK: Mutations

    /// Adds a movie (`createMovie`, or `createMovieWithMetadata` for an aspect ratio or tags); returns its id.
    func add(_ movie: NewMovie) async throws -> UUID {
        guard movie.aspectRatio != nil || !movie.tags.isEmpty else {
            return try await connector.createMovieMutation.execute(
                title: movie.title, releaseYear: movie.releaseYear, genre: movie.genre, rating: movie.rating
            ).data.movie_insert.id
        }
        let aspectRatio = movie.aspectRatio.map { AspectRatio(rawValue: $0.rawValue) }
        let tags = movie.tags.isEmpty ? nil : movie.tags
        return try await connector.createMovieWithMetadataMutation.execute(
            title: movie.title, releaseYear: movie.releaseYear, genre: movie.genre, rating: movie.rating
        ) { variables in
            if let aspectRatio { variables.aspectratio = aspectRatio }
            if let tags { variables.tags = tags }
        }.data.movie_insert.id
    }

    /// Writes the signed-in user's review (`addReview`).
    func review(_ options: ReviewOptions) async throws {
        _ = try await connector.addReviewMutation.execute(
            movieId: options.movieID, rating: options.rating, text: options.text)
    }

    /// Deletes a movie (`deleteMovie`).
    ///
    /// - Throws: ``MoviesFailure/notFound(_:)`` when there was no such movie.
    func delete(id: UUID) async throws {
        guard try await connector.deleteMovieMutation.execute(id: id).data.movie_delete != nil else {
            throw MoviesFailure.notFound("no movie with id \(MovieID.format(id))")
        }
    }

    /// Creates or renames the signed-in user's profile (`upsertUser`).
    func upsertProfile(username: String) async throws {
        _ = try await connector.upsertUserMutation.execute(username: username)
    }

    /// Marks a movie as a favorite (`addFavoritedMovie`).
    func addFavorite(id: UUID) async throws {
        _ = try await connector.addFavoritedMovieMutation.execute(movieId: id)
    }

    /// Unmarks a favorite (`deleteFavoritedMovie`).
    ///
    /// - Throws: ``MoviesFailure/notFound(_:)`` when the movie was not a favorite.
    func removeFavorite(id: UUID) async throws {
        guard try await connector.deleteFavoritedMovieMutation.execute(movieId: id).data.favoriteMovie_delete != nil
        else { throw MoviesFailure.notFound("movie \(MovieID.format(id)) is not one of your favorites") }
    }
}
