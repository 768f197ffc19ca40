import FirebaseDataConnect
import FirebaseDataConnectGenerated
import MoviesAppModels
import MoviesModels
import MoviesTUICore

/// The live movie list: a realtime subscription to the observed `listMovies` ref.
///
/// - The subscription (`ref.subscribe()`) makes the emulator push a new result whenever a committed mutation, from
///   any process, changes the list; each push is published to the ref.
/// - The ref's `results` stream carries everything published to it: the pushes, and republications by the client
///   cache when this process's own mutations change movies the list shows.
/// - Before subscribing, the feed executes the query once, so an unreachable emulator is reported at once.
/// - When that fails, or the subscription ends with an error (access refused, the server cancelled it), the feed
///   reports it and tries again after ``retryDelay``; connections dropped later are retried by the SDK itself.
struct SubscribedMovieFeed: MovieFeed {
    /// The observed query.
    let ref: QueryRefObservation<ListMoviesQuery.Data, ListMoviesQuery.Variables>
    /// The pause before subscribing again after the subscription ended.
    let retryDelay: Duration

    func events() -> AsyncStream<MovieFeedEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: MovieFeedEvent.self, bufferingPolicy: .bufferingNewest(8))
        // Observe before subscribing, so the first pushed result is not missed.
        let results = ref.results
        let observer = Task.detached {
            for await result in results {
                guard let data = result.data else { continue }
                continuation.yield(.movies(data.movies.map(MovieRow.init)))
            }
        }
        let subscriber = Task.detached { [ref, retryDelay] in
            while !Task.isCancelled {
                do {
                    // One plain execution first: an unreachable emulator is reported at once, rather than retried
                    // quietly by the subscription's reconnect loop.
                    _ = try await ref.execute(fetchPolicy: .serverOnly)
                    for await update in try await ref.subscribe() {
                        switch update {
                        case .success(let result) where result.source == .cache:
                            // The cached first result is not published to the ref; show it at once.
                            if let data = result.data { continuation.yield(.movies(data.movies.map(MovieRow.init))) }
                        case .success:
                            break  // published to the ref: arrives through `results`
                        case .failure(let error):
                            continuation.yield(.failed(MoviesService.describe(error.dataConnectError)))
                        }
                    }
                } catch {
                    continuation.yield(.failed(MoviesService.describe(error)))
                }
                try? await Task.sleep(for: retryDelay)
            }
        }
        continuation.onTermination = { _ in
            observer.cancel()
            subscriber.cancel()
        }
        return stream
    }
}
