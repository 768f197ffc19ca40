import FirebaseDataConnect
import MoviesCLICore
import MoviesModels

/// `movies watch`'s default source: the `listMovies` query's realtime subscription.
///
/// The first snapshot is the current list (from the server, since each run starts with an empty cache); every
/// later one is a result the emulator pushed after a change. A subscription that ends with an error ends the
/// sequence with it.
struct SubscribedMovieListSource: MovieListSource {
    let movies: MoviesClient
    /// Narrows each pushed list, e.g. to one genre.
    let filter: @Sendable ([MovieRow]) -> [MovieRow]

    func snapshots() -> AsyncThrowingStream<[MovieRow], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[MovieRow], any Error>.makeStream()
        let task = Task { [movies, filter] in
            do {
                for await update in try await movies.subscribeToMovies() {
                    switch update {
                    case .success(let rows): continuation.yield(filter(rows))
                    case .failure(let error): throw error.dataConnectError
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
